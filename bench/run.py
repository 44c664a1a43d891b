"""Build, serve, page-weight and page-speed benchmark: the pipeline against plain Markdown at growing sizes, and the real data.

Run from the repository root: `make bench` (or `.venv/bin/python bench/run.py [--sizes 4 16 64] [--runs 5] [--edits 7]
[--template-edits 5] [--lighthouse-runs 3]`). Serve edits are timed in Debian's Chromium; Lighthouse runs through
bench/lighthouse.py. Results go to bench/RESULTS.md (every figure, against its budget) and bench/LIGHTHOUSE.md (the audits).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import jinja2
import yaml
from playwright.sync_api import sync_playwright

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

import lighthouse  # noqa: E402  (bench/lighthouse.py)

from macros.data.glossary import GLOSSARY  # noqa: E402
from macros.data.loading import load_atlas  # noqa: E402
from macros.data.texts import text_hash, visible_texts  # noqa: E402
from macros.data.translations import translated_languages, translation_dir  # noqa: E402
from macros.plugin.page_macros import LANGUAGE_AWARE, MACROS  # noqa: E402
from macros.render.pages import GeneratedSite, generate_site  # noqa: E402
from macros.views.edition import ENGLISH, translated_edition  # noqa: E402
from tests.support.chromium import launch_chromium  # noqa: E402
from tests.support.site import copy_site_sources, serve  # noqa: E402

FEATURES_PER_RELEASE = 60
CHANGES_PER_RELEASE = 10
NEW_FEATURES_PER_RELEASE = 20  # the rest carry over from the previous release, so lifecycles span releases
STAGES = ("Prototype", "Beta", "Stable")
BUILD_RATIO = 1.05  # the most a full build may take over the stack floor's
TOPICS = ("cuda", "mps", "distributed", "fft", "mobile", "compiler", "profiler", "cpu")
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SITE_URL": "http://127.0.0.1:8000/pytorch-release-atlas/"}
PEAK_RSS = (  # runs a command and prints its peak resident memory in KiB
    "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


SYNTHETIC_LABELS = {  # the synthetic releases (3.x) use the three-stage words, so features move through stages
    "schemes": [
        {
            "id": "synthetic",
            "title": "Stable, Beta and Prototype",
            "first": "3.0",
            "source": "https://example.org/labels",
            "intro": "The labels of the synthetic releases.",
            "labels": [{"name": stage, "meaning": f"The {stage} stage."} for stage in reversed(STAGES)],
        }
    ]
}


def synthetic_release(index: int) -> dict:
    """One schema-valid release with overlapping feature ids, so features move through stages."""
    version = f"3.{index}"
    source = f"https://example.org/releases/{version}"
    first_feature = index * NEW_FEATURES_PER_RELEASE
    features = [
        {
            "id": f"feature-{number}",
            "title": f"Feature {number} with `torch.api_{number}`",
            "stability": STAGES[min(index - number // NEW_FEATURES_PER_RELEASE, 2)],
            "topics": [TOPICS[number % len(TOPICS)]],
            "summary": f"Feature {number} does one thing well. It exists to exercise page size with realistic text, "
            f"including *emphasis*, `code` and a [link](https://example.org/{number}).",
            "example": {"code": f"import torch\nx = torch.ones(3)\nprint(torch.api_{number}(x))\n"},
            "sources": [source],
        }
        for number in range(first_feature - (FEATURES_PER_RELEASE - NEW_FEATURES_PER_RELEASE), first_feature + NEW_FEATURES_PER_RELEASE)
        if number >= 0
    ]
    changes = [
        {
            "id": f"change-{index}-{number}",
            "kind": ("breaking", "deprecation", "removal")[number % 3],
            "title": f"Change {number} of release {version}",
            "topics": [TOPICS[number % len(TOPICS)]],
            "summary": "A behaviour changed; update calls as shown.",
            "before": "old_call(x)\n",
            "after": "new_call(x)\n",
            "sources": [source],
        }
        for number in range(CHANGES_PER_RELEASE)
    ]
    return {
        "version": version,
        "summary": f"Synthetic release {version} for the benchmark.",
        "released": {"date": f"{2030 + index // 12}-{index % 12 + 1:02d}-15", "source": source},
        "python": {"versions": ["3.10", "3.11"], "source": source},
        "cuda": {"versions": ["12.1"], "source": source},
        "coverage": {"changes": "complete"},
        "sources": [{"url": source, "title": f"Notes {version}"}],
        "features": features,
        "changes": changes,
    }


def make_pipeline_project(root: Path, releases: int) -> Path:
    """A copy of the site whose data/ holds `releases` synthetic release files."""
    project = copy_site_sources(root / "pipeline", with_data=False)
    (project / "data" / "releases").mkdir(parents=True)
    shutil.copytree(PROJECT / "data" / "schema", project / "data" / "schema")
    shutil.copy(PROJECT / "data" / "topics.yaml", project / "data" / "topics.yaml")
    (project / "data" / "labels.yaml").write_text(yaml.safe_dump(SYNTHETIC_LABELS, sort_keys=False), encoding="utf-8")
    for index in range(releases):
        release = synthetic_release(index)
        text = yaml.safe_dump(release, sort_keys=False, allow_unicode=True).replace(
            f"version: '{release['version']}'", f'version: "{release["version"]}"'
        )
        (project / "data" / "releases" / f"{release['version']}.yaml").write_text(text, encoding="utf-8")
    write_synthetic_translations(project / "data")
    return project


def write_synthetic_translations(data: Path) -> None:
    """A Chinese translation of every visible text of the synthetic data (the English behind a Chinese word, so the
    code spans stay), with the project's glossary (the glosses of the labels the synthetic data uses) and interface
    catalogs: both editions are built, as on the real data."""
    folder = translation_dir(data, "zh")
    real = translation_dir(PROJECT / "data", "zh")
    shutil.copytree(real / "interface", folder / "interface")
    atlas = load_atlas(data)
    glossary = yaml.safe_load((real / GLOSSARY).read_text(encoding="utf-8"))
    glossary["labels"] = [label for label in glossary["labels"] if label["label"] in atlas.labels.order]
    (folder / GLOSSARY).write_text(yaml.safe_dump(glossary, allow_unicode=True, sort_keys=False), encoding="utf-8")
    for file, texts in visible_texts(atlas).items():
        entries = {key: {"from": text_hash(english), "zh": f"中文：{english}"} for key, english in texts.items()}
        (folder / f"{file}.yaml").parent.mkdir(parents=True, exist_ok=True)
        (folder / f"{file}.yaml").write_text(yaml.safe_dump(entries, allow_unicode=True, sort_keys=False), encoding="utf-8")


def make_baseline_project(root: Path, pipeline: Path, *, macros_plugin: bool) -> Path:
    """The very same pages as plain Markdown files, built by MkDocs + Material with no data, and no hook but the one that gives
    the theme overrides their globals (each page's edition).

    With `macros_plugin`, the build also runs mkdocs-macros-plugin (with no macros to call): the cost floor
    of the whole stack the site is made with. Without it, plain MkDocs + Material + the Markdown extensions.
    """
    project = root / ("baseline-stack" if macros_plugin else "baseline-bare")
    docs = project / "docs"
    shutil.copytree(pipeline / "docs", docs)
    shutil.copy(pipeline / "ARCHITECTURE.md", project / "ARCHITECTURE.md")
    shutil.copytree(pipeline / "overrides", project / "overrides")
    atlas = load_atlas(pipeline / "data")
    languages = translated_languages(pipeline / "data")
    translations = tuple(translated_edition(atlas, pipeline / "data", language) for language in languages)
    site = generate_site(atlas, site_url=ENV["SITE_URL"], translations=translations)
    for path, content in {**site.pages, **site.files}.items():
        (docs / path).parent.mkdir(parents=True, exist_ok=True)
        (docs / path).write_text(site.slots.fill(content).replace("render_macros: false\n", ""), encoding="utf-8")  # slots as raw HTML
    for language in (ENGLISH, *languages):  # the hand-written pages, as the pipeline's macros render them
        folder = docs if language == ENGLISH else docs / language
        for page in folder.glob("*.md"):
            page.write_text(with_macros_rendered(page.read_text(encoding="utf-8"), site, language), encoding="utf-8")
    config = (pipeline / "mkdocs.yml").read_text(encoding="utf-8")
    config = re.sub(r"\nhooks:\n(  - .*\n)+", "\nhooks:\n  - theme_globals.py\n", config)
    (project / "theme_globals.py").write_text(THEME_GLOBALS_HOOK.format(project=str(PROJECT), languages=languages), encoding="utf-8")
    floor_macros = "  - macros:\n      render_by_default: false\n"  # as the pipeline: only pages that ask are rendered
    config = re.sub(r"  - macros:\n(      .*\n)+", floor_macros if macros_plugin else "", config)
    config = re.sub(r"\nwatch:\n(  - .*\n)+", "\n", config)
    (project / "mkdocs.yml").write_text(config + "\nnav: " + json.dumps(site.nav, ensure_ascii=False) + "\n", encoding="utf-8")
    return project


# The baseline's one hook: the globals the theme overrides call to show a page in its edition, as the site's hook gives them.
THEME_GLOBALS_HOOK = """import sys
sys.path.insert(0, {project!r})
from macros.plugin.theme import theme_globals
from macros.views.urls import WORDS_SCRIPT


def on_env(env, config, files):
    env.globals |= theme_globals({languages!r}, WORDS_SCRIPT)
    return env
"""


def with_macros_rendered(markdown: str, site: GeneratedSite, language: str = ENGLISH) -> str:
    """A hand-written page of an edition with its macro calls replaced by what they give; what is left that looks like
    a macro (the examples on the contributing page) is marked raw, so the floor's macros plugin leaves it as it is."""

    def in_language(macro):
        return (lambda *args: macro(site, *args, language)) if macro in LANGUAGE_AWARE else functools.partial(macro, site)

    macros = {macro.__name__: in_language(macro) for macro in MACROS}
    _, front_matter, body = markdown.split("---\n", 2)
    body = jinja2.Environment().from_string(body).render(macros)
    if "{{" in body or "{%" in body:
        body = "{% raw %}" + body + "{% endraw %}"
    return f"---\n{front_matter}---\n{body}"


def timed_build(project: Path, out: Path) -> tuple[float, int]:
    """Wall time (s) and peak memory (KiB) of one `mkdocs build --strict`."""
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", PEAK_RSS, sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
        cwd=project,
        env=ENV,
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"build failed in {project}:\n{result.stderr[-2000:]}")
    return elapsed, int(result.stdout.strip().splitlines()[-1])


TEMPLATE = "macros/render/templates/release.md.j2"
# The release's summary, which every release page shows (an edit there is not interface text, whose translation would
# then be missing).
TEMPLATE_LINE = re.compile(r"\{\{ release\.summary \| inline \}\}[^\n]*")
SHOWN_AT = """document.addEventListener("DOMContentLoaded", () => requestAnimationFrame(() => {
  window.atlasShownAt = performance.timeOrigin + performance.now();
}));"""  # the page's first animation frame once its HTML is parsed: when it is painted, in ms since the epoch


@dataclass
class EditTimes:
    """Seconds from saving each edit until the browser painted the page holding it, and until Playwright found its text."""

    painted: list[float]
    found: list[float]


def serve_edit_latencies(project: Path, port: int, edits: int, template_edits: int = 0) -> tuple[EditTimes, EditTimes]:
    """How soon Chromium, open on a release page under `make serve`'s `mkdocs serve --dirty`, shows each edit.

    First `edits` one-line edits of the release's data file, then `template_edits` edits of the release page template.
    The page reloads itself through MkDocs's live-reload script, as in a maintainer's browser. The page's own clock
    says when it was painted; Playwright's locator, which retries at up to 0.5 s intervals, says when it found the text.
    """
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--dirty", "--dev-addr", f"127.0.0.1:{port}"],
        cwd=project,
        env={**ENV, "SITE_URL": f"http://127.0.0.1:{port}/pytorch-release-atlas/"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    release = sorted((project / "data" / "releases").glob("*.yaml"))[1]
    template = project / TEMPLATE
    url = f"http://127.0.0.1:{port}/pytorch-release-atlas/releases/{release.stem}/"
    edited = [(release, lambda text, marker: re.sub(r"(?m)^summary: .*$", f"summary: {marker}", text, count=1))] * edits
    edited += [(template, lambda text, marker: TEMPLATE_LINE.sub(f"{{{{ release.summary | inline }}}} {marker}", text, 1))] * template_edits
    painted, found = [], []
    try:
        _wait_until(lambda: "<h1" in _get(url), 600)
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            page = browser.new_page()
            page.add_init_script(SHOWN_AT)
            page.goto(url, wait_until="load")
            for path, edit in edited:
                marker = f"edited-{time.time_ns()}"
                text = path.read_text(encoding="utf-8")
                saved = time.time()
                path.write_text(edit(text, marker), encoding="utf-8")
                page.get_by_text(marker).first.wait_for(timeout=600_000)
                found.append(time.time() - saved)
                page.wait_for_function("window.atlasShownAt !== undefined")
                painted.append(page.evaluate("window.atlasShownAt") / 1000 - saved)
                if not 0 < painted[-1] <= found[-1] + 0.1:
                    raise SystemExit(f"the page's clock and this one disagree: painted {painted[-1]:.2f} s, found {found[-1]:.2f} s")
                time.sleep(1)  # let the server settle before the next edit
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    return EditTimes(painted[:edits], found[:edits]), EditTimes(painted[edits:], found[edits:])


def _get(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.read().decode("utf-8")
    except OSError:
        return ""


def _wait_until(condition, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit("timed out waiting for mkdocs serve")
        time.sleep(0.05)


@dataclass
class Weights:
    """What a built site weighs."""

    site_mib: float
    largest_page: str
    largest_raw_kb: float
    largest_gzip_kb: float
    release_gzip_kb: float  # the largest release page
    search_raw_kb: float
    search_gzip_kb: float


@dataclass
class Row:
    """The figures for one synthetic data size."""

    releases: int
    times: dict[str, list[float]]  # "pipeline", "stack", "bare" -> seconds of each build, round by round
    peak_mib: float
    stack_peak_mib: float
    serve_edits: EditTimes
    weights: Weights

    def median_s(self, build: str) -> float:
        """A build's median time."""
        return statistics.median(self.times[build])

    def ratio_to(self, build: str) -> float:
        """The pipeline's build time over another build's, the median of the rounds' ratios: a round's builds run one
        after the other, so their ratio cancels out the machine's speed drifting from minute to minute."""
        return statistics.median(ours / theirs for ours, theirs in zip(self.times["pipeline"], self.times[build], strict=True))

    @property
    def ratio(self) -> float:
        """Pipeline build time over the stack floor's (the budgeted figure)."""
        return self.ratio_to("stack")


@dataclass
class RealData:
    """The figures for the project's own data."""

    releases: int
    build_s: float
    peak_mib: float
    data_edits: EditTimes
    template_edits: EditTimes
    weights: Weights
    without_api_s: float  # the same data without the API index (data/api/), so without the reference's pages
    api_ratio: float  # the median of each round's ratio of the two builds
    lookup: Lookup
    checker: Checker
    resolver: Resolver


def page_weights(site: Path) -> Weights:
    """Site size; the largest HTML page; the largest release page; the search index."""
    total = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    largest = max(site.rglob("*.html"), key=lambda p: p.stat().st_size)
    largest_release = max((site / "releases").glob("*/index.html"), key=lambda p: p.stat().st_size)
    raw = largest.read_bytes()
    search = (site / "search" / "search_index.json").read_bytes()
    return Weights(
        total / 2**20,
        str(largest.relative_to(site)),
        len(raw) / 1000,
        _gzip_kb(raw),
        _gzip_kb(largest_release.read_bytes()),
        len(search) / 1000,
        _gzip_kb(search),
    )


def _gzip_kb(data: bytes) -> float:
    return len(gzip.compress(data, 9)) / 1000


def measure(releases: int, runs: int, port: int, edits: int) -> Row:
    """Build one data size with the pipeline and both baselines, weigh the result, and time serve edits."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        pipeline = make_pipeline_project(root, releases)
        stack = make_baseline_project(root, pipeline, macros_plugin=True)
        bare = make_baseline_project(root, pipeline, macros_plugin=False)
        times: dict[str, list[float]] = {"pipeline": [], "stack": [], "bare": []}
        peaks: dict[str, list[int]] = {"pipeline": [], "stack": [], "bare": []}
        builds = [("pipeline", pipeline), ("stack", stack), ("bare", bare)]
        for round_ in range(runs):  # interleaved, so all three see the same machine state, each going first in turn
            first = round_ % len(builds)
            for name, project in builds[first:] + builds[:first]:
                seconds, peak = timed_build(project, root / f"out-{name}")
                times[name].append(seconds)
                peaks[name].append(peak)
        weights = page_weights(root / "out-pipeline")
        serve_edits, _ = serve_edit_latencies(pipeline, port, edits=edits)
    return Row(releases, times, max(peaks["pipeline"]) / 1024, max(peaks["stack"]) / 1024, serve_edits, weights)


@dataclass
class Lookup:
    """The API lookup: the data it loads, and how long it takes to answer once loaded, on a CPU slowed as a phone's."""

    index_gzip_kb: float
    mentions_gzip_kb: float
    answers_ms: list[float]

    @property
    def data_gzip_kb(self) -> float:
        return self.index_gzip_kb + self.mentions_gzip_kb


LOOKUP_QUESTIONS = (
    "AttributeError: module 'torch' has no attribute 'compile'",
    "TypeError: load() got an unexpected keyword argument 'weights_only'",
    "ImportError: cannot import name 'scaled_dot_product_attention' from 'torch.nn.functional'",
    "'Tensor' object has no attribute 'nan_to_num'",
    "float8_e4m3fn",
    "attention",  # a part of a name: the search through every name
)
MOBILE_CPU_SLOWDOWN = 4  # Lighthouse's simulated mobile CPU
BETWEEN_QUESTIONS_MS = 1000  # a person types for longer; the page's idle time is when the browser collects garbage


def timed_submit(form: str, fill: str) -> str:
    """A page function of one argument (`value`) that fills the form `form` (the JavaScript `fill`, which sees `form`
    and `value`), submits it, and resolves to the milliseconds until the answer box after the form changes."""
    return f"""value => new Promise(resolve => {{
  const form = document.querySelector("{form}"), box = form.nextElementSibling;
  {fill}
  const started = performance.now();
  new MutationObserver((_, observer) => {{ observer.disconnect(); resolve(performance.now() - started); }})
    .observe(box, {{childList: true}});
  form.requestSubmit();
}})"""


ANSWER_TIME = timed_submit("form.atlas-lookup", 'form.querySelector("input").value = value;')


@contextmanager
def page_on(site: Path, port: int, path: str, ready: str) -> Iterator:
    """A Chromium page on the served site at `path`, once `ready` (a selector) shows that its data is loaded."""
    with serve(site.parent, port) as base_url, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_page()
        page.goto(base_url + path, wait_until="load")
        page.wait_for_selector(ready)
        yield page
        browser.close()


def slow_cpu(page) -> None:
    """Slow the page's CPU as Lighthouse's simulated phone's."""
    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": MOBILE_CPU_SLOWDOWN})


def idle_then(page, script: str, value: object) -> float:
    """One timed answer, after the page sat idle for a second, as between a person's questions."""
    page.wait_for_timeout(BETWEEN_QUESTIONS_MS)
    return page.evaluate(script, value)


def lookup_figures(site: Path, port: int) -> Lookup:
    """Weigh the lookup's files and time its answers in Chromium with the CPU slowed 4x (the index already loaded), each
    question asked after the page sat idle for a second, as between a person's questions."""
    sizes = [_gzip_kb((site / "api" / name).read_bytes()) for name in ("api-index.json", "api-mentions.json")]
    with page_on(site, port, "reference/?name=torch.load", ".atlas-lookup-answer li") as page:  # index and mentions loaded
        slow_cpu(page)
        answers = [idle_then(page, ANSWER_TIME, question) for _ in range(3) for question in LOOKUP_QUESTIONS]
    return Lookup(*sizes, answers)


@dataclass
class Checker:
    """The checker page ("which torch does my code need?"): how long it takes to answer a pasted 1 MB of Python once
    the index is loaded, with the CPU as it is and slowed as a phone's, and a 10 MB paste once."""

    one_mb_ms: list[float]
    one_mb_slowed_ms: list[float]
    ten_mb_ms: float


CHECKER_CODE = (
    "import torch\nimport torch.nn as nn\nfrom torch.nn import functional as F\n\n\nclass Block(nn.Module):\n"
    "    def forward(self, q, k, v):\n        x = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n"
    "        return torch.load('w.pt', weights_only=True), nn.Linear(4, 4, bias=False)(x).sum()  # a comment\n"
)
CHECKER_TIME = timed_submit(
    "form.atlas-checker",
    'const [size, text] = value; form.querySelector("textarea").value = text.repeat(Math.ceil(size / text.length)).slice(0, size);',
)


def checker_figures(site: Path, port: int) -> Checker:
    """Time the checker's answers in Chromium (the index already loaded), each paste after a second idle."""
    with page_on(site, port, "reference/needs/", "form.atlas-checker textarea") as page:
        page.evaluate(CHECKER_TIME, [1000, CHECKER_CODE])
        page.wait_for_selector(".atlas-checker-answer p")  # the index is loaded
        one_mb = [idle_then(page, CHECKER_TIME, [1_000_000, CHECKER_CODE]) for _ in range(3)]
        ten_mb = idle_then(page, CHECKER_TIME, [10_000_000, CHECKER_CODE])
        slow_cpu(page)
        slowed = [idle_then(page, CHECKER_TIME, [1_000_000, CHECKER_CODE]) for _ in range(3)]
    return Checker(one_mb, slowed, ten_mb)


@dataclass
class Resolver:
    """The "Will it run?" resolver: the data it loads, and how long it takes to answer once loaded, on a CPU slowed as a
    phone's."""

    data_gzip_kb: float
    answers_ms: list[float]


RESOLVER_MACHINES = (  # (GPU as typed, system, Python, driver)
    ("GTX 1080", "linux-x86_64", "3.12", "580.95.05"),
    ("RTX 5090", "windows-x86_64", "3.13", ""),
    ("RX 7900 XTX", "linux-x86_64", "3.11", ""),
)
RESOLVER_TIME = timed_submit(
    "form.atlas-resolver",
    "[form.elements.gpu.value, form.elements.os.value, form.elements.python.value, form.elements.driver.value] = value;",
)


def resolver_figures(site: Path, port: int) -> Resolver:
    """Weigh the resolver's data and time its answers in Chromium with the CPU slowed 4x (the data already loaded)."""
    size = _gzip_kb((site / "api" / "compatibility.json").read_bytes())
    with page_on(site, port, "will-it-run/?gpu=4090&os=linux-x86_64", ".atlas-resolver-summary") as page:  # data loaded
        slow_cpu(page)
        answers = [idle_then(page, RESOLVER_TIME, list(machine_)) for _ in range(3) for machine_ in RESOLVER_MACHINES]
    return Resolver(size, answers)


def measure_real_data(runs: int, port: int, edits: int, template_edits: int) -> RealData:
    """Build the project's own data, with and without the API index in turn, weigh it, time the lookup, and time data and
    template edits under `mkdocs serve --dirty`."""
    with tempfile.TemporaryDirectory() as tmp:
        project = copy_site_sources(Path(tmp) / "project", with_data=True)
        without_api = copy_site_sources(Path(tmp) / "without-api", with_data=True)
        shutil.rmtree(without_api / "data" / "api")
        registry = without_api / "data" / "published.txt"  # the reference's pages are not published without the index
        lines = registry.read_text(encoding="utf-8").splitlines()
        kept = [line for line in lines if not line.removeprefix("/zh").startswith("/reference/torch")]
        registry.write_text("\n".join(kept) + "\n", encoding="utf-8")
        builds, without, ratios = [], [], []
        for round_ in range(runs):
            pair = [(builds, project, "out"), (without, without_api, "out-without-api")]
            for found, source, out in pair if round_ % 2 == 0 else reversed(pair):
                found.append(timed_build(source, Path(tmp) / out))
            ratios.append(builds[-1][0] / without[-1][0])
        weights = page_weights(Path(tmp) / "out")
        site = Path(tmp) / "served" / "pytorch-release-atlas"
        shutil.copytree(Path(tmp) / "out", site)
        lookup = lookup_figures(site, port + 1)
        checker = checker_figures(site, port + 2)
        resolver = resolver_figures(site, port + 3)
        data_edits, template_edits = serve_edit_latencies(project, port, edits=edits, template_edits=template_edits)
    releases = len(list((PROJECT / "data" / "releases").glob("*.yaml")))
    build_s = statistics.median(seconds for seconds, _ in builds)
    without_s = statistics.median(seconds for seconds, _ in without)
    peak = max(peak for _, peak in builds) / 1024
    api_ratio = statistics.median(ratios)
    return RealData(releases, build_s, peak, data_edits, template_edits, weights, without_s, api_ratio, lookup, checker, resolver)


def machine() -> str:
    """Cores, memory and Python of this machine."""
    memory = next(line for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal"))
    gib = int(memory.split()[1]) / 2**20
    return f"{os.cpu_count()} cores, {gib:.0f} GiB memory, Python {platform.python_version()}, {platform.platform()}"


def budgets(rows: list[Row], real: RealData, lighthouse_results: dict) -> list[tuple[str, str]]:
    """Each budget of the benchmark with what this run measured against it."""
    by_size = {row.releases: row for row in rows}
    found = [
        (
            f"Full `--strict` build at most {BUILD_RATIO}x the stack floor at every size",
            _verdict(all(row.ratio <= BUILD_RATIO for row in rows), ", ".join(f"{row.ratio:.3f}x at {row.releases}" for row in rows)),
        )
    ]
    if 16 in by_size and 64 in by_size:
        growth = by_size[64].median_s("pipeline") / by_size[16].median_s("pipeline")
        found.append(("64 releases at most 4.4x the build time of 16", _verdict(growth <= 4.4, f"{growth:.2f}x")))
    if 64 in by_size:
        row = by_size[64]
        memory = row.peak_mib / row.stack_peak_mib
        figures = f"{row.peak_mib:.0f} MiB, {memory:.2f}x the floor's {row.stack_peak_mib:.0f} MiB"
        found.append(("Peak memory of a full build at 64 releases at most 2x the stack floor's", _verdict(memory <= 2, figures)))
    api_build = f"{real.api_ratio:.2f}x ({real.build_s:.2f} s against {real.without_api_s:.2f} s)"
    found.append(
        ("Real data: the full build with the API reference at most 2x the build without it", _verdict(real.api_ratio <= 2, api_build))
    )
    lookup = real.lookup
    sizes = f"{lookup.data_gzip_kb:.0f} KB gzip (index {lookup.index_gzip_kb:.0f}, mentions {lookup.mentions_gzip_kb:.0f})"
    found.append(("The API lookup's data at most 400 KB gzip", _verdict(lookup.data_gzip_kb <= 400, sizes)))
    slowest, median = max(lookup.answers_ms), statistics.median(lookup.answers_ms)
    answers = f"median {median:.1f} ms, slowest {slowest:.1f} ms of {len(lookup.answers_ms)} answers"
    found.append(("An API lookup answers within 50 ms on a CPU slowed 4x (simulated mobile)", _verdict(slowest <= 50, answers)))
    checker = real.checker
    slowed = max(checker.one_mb_slowed_ms)
    pastes = f"slowest {max(checker.one_mb_ms):.0f} ms of {len(checker.one_mb_ms)} (slowed 4x: slowest {slowed:.0f} ms)"
    found.append(("The checker answers a 1 MB paste in under a second, the first one too", _verdict(max(checker.one_mb_ms) < 1000, pastes)))
    resolver, answers = real.resolver, real.resolver.answers_ms
    data_kb = resolver.data_gzip_kb
    found.append(("The resolver's data at most 100 KB gzip", _verdict(data_kb <= 100, f"{data_kb:.0f} KB gzip")))
    slowest = f"median {statistics.median(answers):.0f} ms, slowest {max(answers):.0f} ms of {len(answers)}"
    found.append(("The resolver answers within 200 ms on a CPU slowed 4x (simulated mobile)", _verdict(max(answers) <= 200, slowest)))
    found.append(_latency_budget("A data edit visible in the browser under `make serve`, real data", real.data_edits.painted, 2.0))
    if 64 in by_size:
        latencies = by_size[64].serve_edits.painted
        found.append(_latency_budget("A data edit visible in the browser under `make serve`, 64 releases", latencies, 2.0))
    found.append(_latency_budget(f"A template edit (`{TEMPLATE}`) visible in the browser, real data", real.template_edits.painted, 5.0))
    heaviest = max([row.weights.release_gzip_kb for row in rows] + [real.weights.release_gzip_kb])
    found.append(("A release page under 100 KB gzip", _verdict(heaviest < 100, f"largest {heaviest:.0f} KB gzip")))
    index = max([row.weights.search_gzip_kb for row in rows] + [real.weights.search_gzip_kb])
    per_release = ", ".join(f"{row.weights.search_gzip_kb / row.releases:.1f}" for row in rows)
    growth = f"{index:.0f} KB gzip at most; KB gzip per release: {per_release}"
    found.append(("Search index under 1 MB gzip", _verdict(index < 1000, growth)))
    page_speed = (
        f"Lighthouse, mobile: performance at least 90 and accessibility 100 on every page; every release page's performance "
        f"at least 90 on a slower phone (benchmark index {lighthouse.SLOW_INDEX})"
    )
    if not lighthouse_results:
        return [*found, (page_speed, "Not measured: `--lighthouse-runs 0`")]
    missed = lighthouse.missed_budgets(lighthouse_results)
    pages = sum(len(reports) for reports in lighthouse_results.values())
    found.append((page_speed, _verdict(not missed, f"{pages} page audits" + (f"; missed: {'; '.join(missed)}" if missed else ""))))
    return found


def _latency_budget(what: str, latencies: list[float], most: float) -> tuple[str, str]:
    median = statistics.median(latencies)
    return f"{what}: median at most {most:.1f} s", _verdict(median <= most, f"median {median:.2f} s ({_seconds(latencies)})")


def _seconds(timings: list[float]) -> str:
    return ", ".join(f"{seconds:.2f}" for seconds in timings) + " s"


def _verdict(met: bool, figures: str) -> str:
    return f"{'Met' if met else 'Missed'}: {figures}"


def _weights_cells(weights: Weights) -> str:
    return (
        f"{weights.site_mib:.1f} | `{weights.largest_page}` | {weights.largest_raw_kb:.0f} / {weights.largest_gzip_kb:.0f} "
        f"| {weights.release_gzip_kb:.0f} | {weights.search_raw_kb:.0f} / {weights.search_gzip_kb:.0f}"
    )


def report(rows: list[Row], real: RealData, lighthouse_results: dict, runs: int, lighthouse_runs: int, command: str) -> str:
    """The results as Markdown."""
    lines = [
        "# Benchmark results",
        "",
        f"- Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        f"- Machine: {machine()}",
        f"- Command: `{command}` (every figure below comes from this one run)",
        f"- Synthetic data: schema-valid; {FEATURES_PER_RELEASE} features and {CHANGES_PER_RELEASE} changes per release, "
        f"{NEW_FEATURES_PER_RELEASE} new features per release (the rest carry over and change stage).",
        f"- Build times are the median of {runs} runs of `mkdocs build --strict`. The three builds run in {runs} rounds, one "
        "after the other and each first in turn; a ratio is the median of the rounds' ratios, which cancels out this "
        "machine's speed drifting from minute to minute. The baselines "
        "build the very same pages, both editions (English and Chinese; the synthetic releases get a Chinese text for each "
        "of theirs), written out as plain Markdown, with the same theme, extensions and configuration but no data and no "
        "hook but the one that gives the theme overrides their globals: the *stack floor* also runs mkdocs-macros-plugin "
        "(part of the stack the site is made with, here with nothing to render); *bare* is MkDocs + Material alone. "
        "Peak memory is the largest resident size of a build.",
        "- Serve: seconds from saving an edit until Chromium, open on a release page under `make serve` "
        "(`mkdocs serve --dirty`, the incremental preview), paints the page with the new text (MkDocs's live reload "
        "reloads it): the page's first animation frame once its HTML is parsed, read from the page's own clock. "
        "Playwright's locator, which waits for the text, retries at up to 0.5 s intervals; when it found the text "
        "is listed for the real data.",
        "",
        "## Full builds and serve edits, synthetic data",
        "",
        "| Releases | Pipeline build (s) | Stack floor (s) | Ratio | Bare MkDocs (s) | Ratio to bare | Peak memory (MiB) "
        "| Floor's peak memory (MiB) | Serve: data edit to browser, median (s) | Site (MiB) | Largest page | raw / gzip (KB) "
        "| Largest release page gzip (KB) | Search index raw / gzip (KB) |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |",
    ]
    for row in rows:
        lines.append(
            f"| {row.releases} | {row.median_s('pipeline'):.2f} | {row.median_s('stack'):.2f} | {row.ratio:.3f} "
            f"| {row.median_s('bare'):.2f} | {row.ratio_to('bare'):.3f} | {row.peak_mib:.0f} | {row.stack_peak_mib:.0f} "
            f"| {statistics.median(row.serve_edits.painted):.2f} "
            f"| {_weights_cells(row.weights)} |"
        )
    lines += [
        "",
        f"## The real data ({real.releases} releases)",
        "",
        "| Full build (s) | Without the API index (s) | Ratio | Peak memory (MiB) | Site (MiB) | Largest page | raw / gzip (KB) "
        "| Largest release page gzip (KB) | Search index raw / gzip (KB) |",
        "| ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |",
        f"| {real.build_s:.2f} | {real.without_api_s:.2f} | {real.api_ratio:.2f} | {real.peak_mib:.0f} | {_weights_cells(real.weights)} |",
        "",
        f"API lookup: data {real.lookup.index_gzip_kb:.0f} KB gzip (`api/api-index.json`) and "
        f"{real.lookup.mentions_gzip_kb:.0f} KB gzip (`api/api-mentions.json`), loaded on first use; answers with the CPU slowed "
        f"{MOBILE_CPU_SLOWDOWN}x, {len(LOOKUP_QUESTIONS)} questions 3 times, each after {BETWEEN_QUESTIONS_MS / 1000:g} s idle: "
        f"{', '.join(f'{ms:.1f}' for ms in real.lookup.answers_ms)} ms.",
        "",
        f"Checker (`reference/needs/`), the index loaded, each paste after 1 s idle: 1 MB of Python in "
        f"{', '.join(f'{ms:.0f}' for ms in real.checker.one_mb_ms)} ms; with the CPU slowed 4x, "
        f"{', '.join(f'{ms:.0f}' for ms in real.checker.one_mb_slowed_ms)} ms; 10 MB in {real.checker.ten_mb_ms:.0f} ms.",
        "",
        f"Resolver (`will-it-run/`): data {real.resolver.data_gzip_kb:.0f} KB gzip (`api/compatibility.json`), loaded on first use; "
        f"answers with the CPU slowed 4x for a GTX 1080 on Linux, an RTX 5090 on Windows and an RX 7900 XTX, 3 times each: "
        f"{', '.join(f'{ms:.0f}' for ms in real.resolver.answers_ms)} ms.",
        "",
        f"Serve, data edits (one line of a release file): painted {_seconds(real.data_edits.painted)}; "
        f"found by Playwright {_seconds(real.data_edits.found)}.",
        "",
        f"Serve, template edits (`{TEMPLATE}`, which every release page uses): painted {_seconds(real.template_edits.painted)}; "
        f"found by Playwright {_seconds(real.template_edits.found)}.",
        "",
        "## Page speed as hosted (Lighthouse, real data)",
        "",
        "The site served as GitHub Pages serves it (gzip, `Cache-Control: max-age=600`), each page audited "
        f"{lighthouse_runs} times per form factor, the median run kept; the audits that cost points, from the same run, "
        "are in [LIGHTHOUSE.md](LIGHTHOUSE.md)."
        if lighthouse_results
        else "Not measured in this run (`--lighthouse-runs 0`).",
        "",
        *lighthouse.score_tables(lighthouse_results, level="###"),
        "## Budgets",
        "",
        "| Budget | This run |",
        "| --- | --- |",
    ]
    lines += [f"| {budget} | {result} |" for budget, result in budgets(rows, real, lighthouse_results)]
    lines += ["", "Profiles, and how earlier figures were brought within budget: [PROFILE.md](PROFILE.md)."]
    return "\n".join(lines) + "\n"


def main() -> None:
    """Measure every size, the real data and its page speed; write bench/RESULTS.md and bench/LIGHTHOUSE.md."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 16, 64])
    parser.add_argument("--runs", type=int, default=5, help="builds of each kind per data set (this machine's timings vary by 30%%)")
    parser.add_argument("--edits", type=int, default=7, help="serve edits timed for each data set")
    parser.add_argument("--template-edits", type=int, default=5, help="template edits timed on the real data")
    parser.add_argument("--lighthouse-runs", type=int, default=3, help="Lighthouse runs per page and form factor (0: none)")
    parser.add_argument("--out", type=Path, default=PROJECT / "bench" / "RESULTS.md")
    args = parser.parse_args()
    if args.lighthouse_runs:
        lighthouse.ensure_tools()
    real = measure_real_data(args.runs, port=8099, edits=args.edits, template_edits=args.template_edits)
    edits = f"data edits painted {_seconds(real.data_edits.painted)}, template edits painted {_seconds(real.template_edits.painted)}"
    print(f"real data: build {real.build_s:.2f}s, {edits}", flush=True)
    rows = []
    for releases in args.sizes:
        row = measure(releases, args.runs, port=8100 + releases, edits=args.edits)
        medians = f"pipeline {row.median_s('pipeline'):.2f}s, stack floor {row.median_s('stack'):.2f}s"
        print(f"{releases} releases: {medians} (ratio {row.ratio:.3f})", flush=True)
        rows.append(row)
    lighthouse_results = lighthouse.audit(args.lighthouse_runs) if args.lighthouse_runs else {}
    if lighthouse_results:
        (PROJECT / "bench" / "LIGHTHOUSE.md").write_text(lighthouse.render(lighthouse_results, args.lighthouse_runs), encoding="utf-8")
    command = "make bench" if vars(args) == vars(parser.parse_args([])) else " ".join([".venv/bin/python bench/run.py", *sys.argv[1:]])
    args.out.write_text(report(rows, real, lighthouse_results, args.runs, args.lighthouse_runs, command), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
