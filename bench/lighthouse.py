"""Lighthouse scores of the built site as GitHub Pages serves it, mobile and desktop, against budgets: bench/LIGHTHOUSE.md.

Run from the repository root: `make lighthouse` or `.venv/bin/python bench/lighthouse.py [--runs 3]` (needs node/npm and
Debian's chromium). The site is served over HTTP/1.1 with gzip and GitHub Pages' cache headers, so the figures are the ones
readers get.
"""

from __future__ import annotations

import argparse
import contextlib
import email.utils
import gzip
import io
import json
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from packaging.version import Version

BENCH = Path(__file__).resolve().parent
PROJECT = BENCH.parent
sys.path.insert(0, str(PROJECT))

from tests.support.chromium import CHROMIUM, MISSING  # noqa: E402
from tests.support.site import PREFIX, StaticHandler, build_site, free_port, serve  # noqa: E402

LIGHTHOUSE = BENCH / "node_modules" / ".bin" / "lighthouse"
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run"
)
PAGES = {
    "Home": "",
    "Release 1.10": "releases/1.10/",
    "Release 2.14 (the longest)": "releases/2.14/",
    "Topic grid cuda": "topics/cuda/",
    "Feature matrix": "matrix/",
    "Feature torch-fft": "features/torch-fft/",
    "Feature torch-compile (the longest history)": "features/torch-compile/",
    "Upgrade paths": "upgrade/",
    "Error no-kernel-image": "errors/no-kernel-image/",
    "API lookup": "reference/",
    "Which torch does my code need": "reference/needs/",
    "API module torch.nn.functional": "reference/torch.nn.functional/",
    "API module torch (the largest page)": "reference/torch/",
    "Every API module": "reference/modules/",
    "Will it run?": "will-it-run/",
    "Platforms": "platforms/",
    "Every feature": "features/",
    "Every release": "releases/",
    "About": "about/",
    "Chinese home": "zh/",
    "Chinese release 2.14": "zh/releases/2.14/",
    "Chinese feature matrix": "zh/matrix/",
    "Chinese feature torch-compile": "zh/features/torch-compile/",
    "Chinese upgrade paths": "zh/upgrade/",
}
# The least score each page must reach. "slower phone" is every release page, audited as a phone with about half the CPU
# of the benchmark machine: Lighthouse's mobile CPU slowdown (4x) scaled by this machine's benchmark index over SLOW_INDEX.
SLOWER_PHONE = "slower phone"
BUDGETS = {("mobile", "performance"): 90, ("mobile", "accessibility"): 100, (SLOWER_PHONE, "performance"): 90}
SLOW_INDEX = 1557  # the CPU benchmark index (Lighthouse's) of the slower machine, half that of an earlier benchmark machine
MOBILE_SLOWDOWN = 4  # Lighthouse's own CPU slowdown for its mobile audits
SLOWER_PHONE_TOLERANCE = 0.1  # a slower-phone run may stand for a phone up to 10% faster than SLOW_INDEX; a faster one is run again
SLOWER_PHONE_RETRIES = 3  # such runs again, per page
LOADED_KB_BUDGETS = {"Home": 400}  # KB the page transfers as it loads (gzip as served): the home page, the lookup's budget
FORM_FACTORS = {"mobile": [], "desktop": ["--preset=desktop"]}
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
MATERIAL = ("assets/stylesheets/main.", "assets/stylesheets/palette.", "assets/javascripts/", "md-search")
PROJECT_FILES = ("assets/atlas.css", "assets/atlas.js")
# Audits that measure how the files are served, not the files. The server below compresses and caches as GitHub Pages
# does (gzip, `Cache-Control: max-age=600`); Pages also speaks HTTP/2, which a loopback server does not.
SERVER_AUDITS = {"uses-text-compression", "uses-long-cache-ttl", "cache-insight", "document-latency-insight", "uses-http2"}
COMPRESSED = (".html", ".css", ".js", ".json", ".svg", ".xml", ".txt")
CACHE_SECONDS = 600  # what GitHub Pages sends for every file
# Timings that add up everything else on the page, so no single cause.
METRICS = {"first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "speed-index", "interactive", "max-potential-fid"}
CONTENT_AUDITS = {"dom-size", "dom-size-insight"}  # the size of the page the project generates


class PagesLikeHandler(StaticHandler):
    """Serve files as GitHub Pages does: HTTP/1.1 keep-alive, gzip for text, a ten-minute cache lifetime, Last-Modified."""

    protocol_version = "HTTP/1.1"

    def handle(self) -> None:
        with contextlib.suppress(ConnectionResetError, BrokenPipeError):  # the browser dropped a kept-alive connection
            super().handle()

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not self.path.split("?")[0].endswith("/"):
                return super().send_head()  # the redirect to the trailing slash
            path = path / "index.html"
        if not path.is_file():
            return super().send_head()  # the site's 404 page
        body = path.read_bytes()
        compress = path.suffix in COMPRESSED and "gzip" in self.headers.get("Accept-Encoding", "")
        if compress:
            body = gzip.compress(body, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", f"max-age={CACHE_SECONDS}")
        self.send_header("Last-Modified", email.utils.formatdate(path.stat().st_mtime, usegmt=True))
        if compress:
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)


def ensure_tools() -> None:
    """Install the pinned Lighthouse if bench/node_modules is missing; stop with a clear message if Chromium is missing."""
    if not CHROMIUM.exists():
        sys.exit(MISSING)
    if not LIGHTHOUSE.exists():
        subprocess.run(["npm", "ci", "--prefix", str(BENCH)], check=True)


def lighthouse_command(url: str, form_factor: str, slowdown: float | None = None) -> list[str]:
    """The Lighthouse CLI call for one URL and form factor (mobile with a CPU `slowdown` of its own if given), JSON on stdout."""
    flags = ["--output=json", "--output-path=stdout", "--quiet", f"--chrome-flags={CHROME_FLAGS}"]
    throttling = [f"--throttling.cpuSlowdownMultiplier={slowdown:.2f}"] if slowdown else []
    return [str(LIGHTHOUSE), url, *FORM_FACTORS[form_factor], *throttling, *flags]


def run_lighthouse(url: str, form_factor: str, slowdown: float | None = None) -> dict:
    """One Lighthouse run; its JSON report."""
    env = {**os.environ, "CHROME_PATH": str(CHROMIUM)}
    done = subprocess.run(lighthouse_command(url, form_factor, slowdown), env=env, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        sys.exit(f"lighthouse failed on {url} ({form_factor}):\n{done.stderr[-3000:]}")
    report = json.loads(done.stdout)
    if report.get("runtimeError"):
        sys.exit(f"lighthouse could not audit {url}: {report['runtimeError']}")
    return report


def median_run(reports: list[dict]) -> dict:
    """The run with the median performance score (Lighthouse's own advice for noisy runs)."""
    ordered = sorted(reports, key=lambda report: report["categories"]["performance"]["score"])
    return ordered[(len(ordered) - 1) // 2]


def page_path(report: dict) -> str:
    """The audited page's path under the site's prefix (`releases/2.14/`), from the report's own URL."""
    return report["requestedUrl"].split(PREFIX, 1)[1]


def benchmark_index(report: dict) -> float:
    """This machine's CPU benchmark index as Lighthouse measured it at the start of the run."""
    return report["environment"]["benchmarkIndex"]


def slower_phone_runs(url: str, runs: int, index: float) -> tuple[list[dict], float]:
    """`runs` mobile audits of `url` as on a phone of SLOW_INDEX, and this machine's latest benchmark index.

    Each run's CPU slowdown is Lighthouse's mobile one scaled by this machine's index over SLOW_INDEX (how Lighthouse's
    documentation calibrates the slowdown), taking the index the run before measured (`index` for the first): the
    machine's speed moves with its load, within minutes. A run that then stood for a phone faster than SLOW_INDEX allows
    is run again (up to SLOWER_PHONE_RETRIES times in all), so a page does not pass on a faster phone than the budget's.
    """
    reports: list[dict] = []
    retries = SLOWER_PHONE_RETRIES
    while len(reports) < runs:
        report = run_lighthouse(url, "mobile", MOBILE_SLOWDOWN * index / SLOW_INDEX)
        index = benchmark_index(report)
        if emulated_index(report) > SLOW_INDEX * (1 + SLOWER_PHONE_TOLERANCE) and retries:
            retries -= 1
            continue
        reports.append(report)
    return reports, index


def emulated_index(report: dict) -> float:
    """The benchmark index of the machine a run stood for: the index measured in it, over its slowdown beyond mobile's."""
    slowdown = report["configSettings"]["throttling"]["cpuSlowdownMultiplier"]
    return benchmark_index(report) * MOBILE_SLOWDOWN / slowdown


def release_pages(site: Path) -> dict[str, str]:
    """Every release page of every edition in a built site, by name ("Release 2.14", "Release 2.14 (zh)"): its path."""
    editions = [""] + [sitemap.parent.name for sitemap in site.glob("*/sitemap.xml")]  # a translated edition has its own
    found = [
        (edition, Version(index.parent.name), index.parent.relative_to(site).as_posix() + "/")
        for edition in editions
        for index in (site / edition / "releases").glob("*/index.html")
    ]
    return {f"Release {version}" + (f" ({edition})" if edition else ""): path for edition, version, path in sorted(found)}


def scores(report: dict) -> dict[str, int]:
    """The four category scores, 0-100."""
    return {category: round(report["categories"][category]["score"] * 100) for category in CATEGORIES}


def failed_audits(report: dict) -> list[tuple[str, str, dict]]:
    """(category, audit id, audit) for each audit that costs points: under 1, or under 0.9 for performance when it scores under 95."""
    found = []
    for category in CATEGORIES:
        score = report["categories"][category]["score"]
        if score == 1 or (category == "performance" and score >= 0.95):
            continue
        threshold = 0.9 if category == "performance" else 1
        for ref in report["categories"][category]["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if audit["score"] is not None and audit["scoreDisplayMode"] not in ("informative", "manual") and audit["score"] < threshold:
                found.append((category, ref["id"], audit))
    return found


def blame(audit_id: str, audit: dict) -> str:
    """Whose the cause is, read from the files and elements the audit names."""
    if audit_id in SERVER_AUDITS:
        return "test server"
    if audit_id in CONTENT_AUDITS:
        return "project (page content)"
    if audit_id in METRICS:
        return "metric: sum of the rest"
    details = json.dumps(audit.get("details", {}))
    owners = [name for name, marks in (("Material theme", MATERIAL), ("project", PROJECT_FILES)) if any(mark in details for mark in marks)]
    return " + ".join(owners) or "page as a whole"


def with_budget(form_factor: str, category: str, score: int) -> str:
    """A score as the table shows it: with its budget, and whether it meets it."""
    least = BUDGETS.get((form_factor, category))
    if least is None:
        return str(score)
    return f"{score} (≥ {least}: {'met' if score >= least else 'MISSED'})"


def loaded_kb(report: dict) -> float:
    """What a page transferred as it loaded, in KB (Lighthouse's total byte weight: compressed as served)."""
    return report["audits"]["total-byte-weight"]["numericValue"] / 1000


def missed_budgets(results: dict[str, dict[str, dict]]) -> list[str]:
    """Each page and category that scores under its budget, and each page that loads more than its budget."""
    return [
        f"{form_factor} {page} {category}: {value} < {BUDGETS[form_factor, category]}"
        for form_factor, pages in results.items()
        for page, report in pages.items()
        for category, value in scores(report).items()
        if (form_factor, category) in BUDGETS and value < BUDGETS[form_factor, category]
    ] + [
        f"mobile {page} loads {loaded_kb(report):.0f} KB > {LOADED_KB_BUDGETS[page]} KB"
        for page, report in results.get("mobile", {}).items()
        if page in LOADED_KB_BUDGETS and loaded_kb(report) > LOADED_KB_BUDGETS[page]
    ]


def machine() -> str:
    """CPU model, cores and memory of this machine."""
    cpuinfo = Path("/proc/cpuinfo").read_text()
    model = next((line.split(":", 1)[1].strip() for line in cpuinfo.splitlines() if line.startswith("model name")), platform.processor())
    mem_kib = int(next(line.split()[1] for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal")))
    return f"{os.cpu_count()} cores ({model}), {mem_kib / 1024**2:.1f} GiB memory, {platform.system()} {platform.release()}"


def tool_version(command: list[str]) -> str:
    """First line a tool prints for its version."""
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip().splitlines()[0]


def chinese_fonts() -> str:
    """The font families this machine renders Chinese text with, as fontconfig lists them."""
    found = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True, check=False).stdout.splitlines()
    families = sorted({re.sub(r" (SC|TC|HK|JP|KR)$", "", line.split(",")[0]) for line in found if line})  # one per regional cut
    return ", ".join(families) or "none (Chinese characters fall back glyph by glyph)"


def score_tables(results: dict[str, dict[str, dict]], level: str) -> list[str]:
    """One Markdown table of scores per form factor, each under a heading of `level` ("##"), budgets marked; then the
    slower phone's."""
    lines = []
    for form_factor, pages in results.items():
        if form_factor not in FORM_FACTORS:
            continue
        header = "| Page | Performance | Accessibility | Best practices | SEO |"
        lines += [f"{level} {form_factor.capitalize()}", "", header, "| --- |" + " ---: |" * 4]
        for page, report in pages.items():
            cells = [with_budget(form_factor, category, value) for category, value in scores(report).items()]
            lines.append(f"| {page} (`{page_path(report) or '/'}`) | " + " | ".join(cells) + " |")
        lines.append("")
    return lines + slow_table(results.get(SLOWER_PHONE, {}), level)


def slow_table(reports: dict[str, dict], level: str) -> list[str]:
    """The slower phone's audits: each release page's performance against its budget, its blocking time, and the machine
    each run stood for."""
    if not reports:
        return []
    slowdowns = [report["configSettings"]["throttling"]["cpuSlowdownMultiplier"] for report in reports.values()]
    stood_for = statistics.median(emulated_index(report) for report in reports.values())
    lines = [
        f"{level} Every release page on a slower phone",
        "",
        f"Mobile, with a CPU slowdown instead of Lighthouse's {MOBILE_SLOWDOWN}x that makes this machine a phone of benchmark "
        f"index {SLOW_INDEX}: {MOBILE_SLOWDOWN}x times the machine's index, as the run before measured it, over {SLOW_INDEX} "
        f"(here {min(slowdowns):.2f}x to {max(slowdowns):.2f}x, as the machine's speed moved). The index a run stood for is the one",
        f"Lighthouse measured at its start, scaled the same way; the median over the pages is {stood_for:.0f}. A run that stood for",
        f"a phone over {SLOWER_PHONE_TOLERANCE:.0%} faster was run again, up to {SLOWER_PHONE_RETRIES} times per page.",
        "",
        "| Page | Performance | Total blocking time | Benchmark index stood for |",
        "| --- | ---: | ---: | ---: |",
    ]
    for page, report in reports.items():
        performance = with_budget(SLOWER_PHONE, "performance", scores(report)["performance"])
        blocking = report["audits"]["total-blocking-time"]["numericValue"]
        lines.append(f"| {page} (`{page_path(report)}`) | {performance} | {blocking:.0f} ms | {emulated_index(report):.0f} |")
    return [*lines, ""]


def render(results: dict[str, dict[str, dict]], runs: int) -> str:
    """bench/LIGHTHOUSE.md from the median reports, keyed by form factor then page."""
    any_report = next(iter(next(iter(results.values())).values()))
    example = shlex.join(lighthouse_command(f"http://127.0.0.1:PORT{PREFIX}releases/1.10/", "mobile")).replace(f"{PROJECT}/", "")
    node = tool_version(["node", "--version"])
    lines = [
        "# Lighthouse scores",
        "",
        "Generated by `bench/lighthouse.py`: the real site is built with `mkdocs build --strict` and served on loopback under its",
        f"production prefix `{PREFIX}` the way GitHub Pages serves it: HTTP/1.1, gzip for text files, `Cache-Control: max-age=",
        f"{CACHE_SECONDS}`. Each page is audited {runs} time(s) per form factor and the run with the median performance score is kept.",
        "Budgets: " + ", ".join(f"{form} {category} at least {least}" for (form, category), least in BUDGETS.items()) + ".",
        "",
        f"- Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        f"- Machine: {machine()}",
        f"- Lighthouse: {any_report['lighthouseVersion']} (npm, pinned in `bench/package.json`), Node {node}",
        f"- Chromium: {tool_version([str(CHROMIUM), '--version'])} (`CHROME_PATH={CHROMIUM}`)",
        f"- Chinese fonts (a Chinese reader's device has some; `make browser` installs Debian's fonts-noto-cjk): {chinese_fonts()}",
        f"- Throttling: Lighthouse defaults (simulated); CPU benchmark index {any_report['environment']['benchmarkIndex']}",
        "- Reproduce (from the repository root): `.venv/bin/python bench/lighthouse.py`",
        f"- One audit by hand, with the site served: `CHROME_PATH={CHROMIUM} {example}` (add `--preset=desktop` for desktop)",
        "",
    ]
    lines += score_tables(results, level="##")
    lines += ["## What each page loads (mobile)", "", "| Page | KB transferred (gzip as served) |", "| --- | ---: |"]
    for page, report in results.get("mobile", {}).items():
        least = LOADED_KB_BUDGETS.get(page)
        verdict = f" (≤ {least}: {'met' if loaded_kb(report) <= least else 'MISSED'})" if least else ""
        lines.append(f"| {page} (`{page_path(report) or '/'}`) | {loaded_kb(report):.0f}{verdict} |")
    lines += ["", "Nothing is loaded from another host; the API index (about 200 KB gzip) loads only when a form is used.", ""]
    lines += [
        "## Audits that cost points",
        "",
        "| Category | Audit id | Title | Where (form factor: page, value) | Cause |",
        "|" + " --- |" * 5,
    ]
    failures: dict[tuple[str, str], dict] = {}
    for form_factor, pages in results.items():
        if form_factor not in FORM_FACTORS:
            continue  # the slower phone's audits are the mobile ones, slower: their table above is what they add
        for page, report in pages.items():
            for category, audit_id, audit in failed_audits(report):
                entry = failures.setdefault((category, audit_id), {"title": audit["title"], "where": [], "cause": blame(audit_id, audit)})
                entry["where"].append(f"{form_factor}: {page}" + (f", {audit['displayValue']}" if audit.get("displayValue") else ""))
    failures = dict(sorted(failures.items(), key=lambda item: CATEGORIES.index(item[0][0])))
    for (category, audit_id), entry in failures.items():
        title = entry["title"].replace("|", "\\|")
        lines.append(f"| {category} | `{audit_id}` | {title} | {'; '.join(entry['where'])} | {entry['cause']} |")
    if not failures:
        lines.append("| - | - | every category scores 100 (performance 95+) | - | - |")
    lines += ["", "## Where the cause is", ""]
    for category in dict.fromkeys(category for category, _ in failures):
        by_cause: dict[str, list[str]] = {}
        for (other, audit_id), entry in failures.items():
            if other == category and not entry["cause"].startswith("metric"):
                by_cause.setdefault(entry["cause"], []).append(f"`{audit_id}`")
        lines.append(f"- {category}: " + "; ".join(f"{cause}: {', '.join(ids)}" for cause, ids in by_cause.items()) + ".")
    lines += [
        "",
        '"test server" audits concern how files are served (HTTP/2, which GitHub Pages has and this server has not, or cache',
        'lifetimes, where Pages allows ten minutes). "Material theme" means the theme\'s own CSS/JS bundle or markup',
        '(`md-search`); "project" means `assets/atlas.css`, `assets/atlas.js` or the generated page content.',
    ]
    return "\n".join(lines) + "\n"


def audit(runs: int) -> dict[str, dict[str, dict]]:
    """Build the real site, serve it as GitHub Pages does, and audit every page in both form factors `runs` times, then
    every release page on the slower phone.

    Returns the median report, keyed by form factor ("mobile", "desktop", SLOWER_PHONE), then page.
    """
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as tmp:
        root, port = Path(tmp), free_port()
        built = build_site(root / PREFIX.strip("/"), f"http://127.0.0.1:{port}{PREFIX}")
        if built.returncode != 0:
            sys.exit(f"mkdocs build failed:\n{built.stdout}\n{built.stderr}")
        results: dict[str, dict[str, dict]] = {}
        with serve(root, port, PagesLikeHandler) as base_url:
            for form_factor in FORM_FACTORS:
                for page, path in PAGES.items():
                    report = median_run([run_lighthouse(base_url + path, form_factor) for _ in range(runs)])
                    results.setdefault(form_factor, {})[page] = report
                    print(f"{form_factor:8} {page:14} {scores(report)}", flush=True)
            index = statistics.median(benchmark_index(report) for report in results["mobile"].values())
            for page, path in release_pages(root / PREFIX.strip("/")).items():
                reports, index = slower_phone_runs(base_url + path, runs, index)
                report = median_run(reports)
                results.setdefault(SLOWER_PHONE, {})[page] = report
                print(f"slower phone (index {emulated_index(report):.0f}) {page:14} {scores(report)['performance']}", flush=True)
    return results


def main() -> None:
    """Build, serve, audit every page in both form factors, and write bench/LIGHTHOUSE.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="Lighthouse runs per page and form factor; the median is kept")
    parser.add_argument("--output", type=Path, default=BENCH / "LIGHTHOUSE.md")
    args = parser.parse_args()
    ensure_tools()
    results = audit(args.runs)
    args.output.write_text(render(results, args.runs))
    print(f"wrote {args.output.relative_to(PROJECT) if args.output.is_relative_to(PROJECT) else args.output}")
    missed = missed_budgets(results)
    if missed:
        sys.exit("budgets missed: " + "; ".join(missed))


if __name__ == "__main__":
    main()
