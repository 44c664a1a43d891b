"""The red team's findings, each reproduced against a real `mkdocs build --strict`.

Every test here names the defence it holds to; each fails when that defence is taken out (SECURITY.md
says how that was checked). The hostile files of `tests/bad_data/cases.py` cover the refusals that
name a file, a line and a field; these cover what must stay inert, and what must never hang. A hang fails its test
through pytest-timeout (`HANG_SECONDS`, or a subprocess's own timeout); no test times itself, so a slow machine is not a
failure.
"""

from __future__ import annotations

import copy
import html
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from macros.data.markup import front_matter_problem
from tests.support.html import parse
from tests.support.site import build_site, copy_mini_data, copy_site_sources

HANG_SECONDS = 300  # a hang guard, not a speed test: each of these builds takes seconds (34 s at most, seen on a loaded machine)
TEMPLATE_PAYLOAD = "{{ lipsum.__globals__['os'].makedirs('pwned') }}"
SHOWN_PAYLOAD = "['os'].makedirs('pwned') }}"  # as a reader sees it: Markdown shows __globals__ in bold
TITLE_PAYLOAD = "`</title><script>alert(2)</script>`"
N = 49_000  # just under the 50,000 characters a field may hold


def _project(root: Path) -> Path:
    """A copy of the site's sources with the mini data set."""
    project = copy_site_sources(root / "project", with_data=False)
    copy_mini_data(project / "data")
    return project


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _hostile_release(project: Path) -> None:
    """In release 2.10, feature alpha's title closes <title> inside a code span, and its example's code is a template
    that would make a folder (code blocks keep their text as written, braces included)."""
    path = project / "data" / "releases" / "2.10.yaml"
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    alpha = next(feature for feature in document["features"] if feature["id"] == "alpha")
    alpha |= {"title": TITLE_PAYLOAD, "example": {"code": TEMPLATE_PAYLOAD}}
    path.write_text(yaml.safe_dump(document, allow_unicode=True), encoding="utf-8")


def _without_front_matter(project: Path) -> None:
    """The copy's release and feature pages lose their front matter, as a page did when MkDocs could not read it: the
    templates' front matter is removed, and so is the generator's check that would stop such a build."""
    for name in ("release.md.j2", "feature.md.j2"):
        template = project / "macros" / "render" / "templates" / name
        text = template.read_text(encoding="utf-8")
        template.write_text(text[text.index("---\n", 4) + 4 :], encoding="utf-8")
    _edit(project / "macros" / "render" / "pages.py", "    _check_front_matter(pages)\n", "")


@pytest.mark.parametrize("plugin_default", ["as configured", "render_by_default removed"])
def test_a_page_that_lost_its_front_matter_runs_no_template_and_its_title_stays_text(tmp_path, plugin_default):
    """Defences: the hook that turns the macros plugin off for every generated page (alone, in the second case),
    `render_by_default: false`, and the title block of overrides/main.html."""
    project = _project(tmp_path)
    _hostile_release(project)
    _without_front_matter(project)
    if plugin_default != "as configured":
        _edit(project / "mkdocs.yml", "      render_by_default: false\n", "")
    out = tmp_path / "out"
    result = build_site(out, "http://127.0.0.1/atlas/", project=project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert not list(tmp_path.rglob("pwned")), "the example's template ran during the build"
    page = (out / "releases" / "2.10" / "index.html").read_text(encoding="utf-8")
    assert TEMPLATE_PAYLOAD in html.unescape(re.sub(r"<[^>]+>", "", page)), "the template is shown as written"
    feature = out / "features" / "alpha" / "index.html"
    assert "<script>alert(2)" not in feature.read_text(encoding="utf-8")
    assert parse(feature).title.startswith("</title><script>alert(2)</script>")


def test_a_hand_written_page_runs_templates_only_when_it_asks(tmp_path):
    """Defence: `render_by_default: false`; the pages of docs/ that call macros say `render_macros: true`."""
    project = _project(tmp_path)
    (project / "docs" / "plain.md").write_text(f"# Plain\n\n{TEMPLATE_PAYLOAD}\n", encoding="utf-8")
    out = tmp_path / "out"
    result = build_site(out, "http://127.0.0.1/atlas/", project=project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert not list(tmp_path.rglob("pwned"))
    assert SHOWN_PAYLOAD in html.unescape((out / "plain" / "index.html").read_text(encoding="utf-8"))


def test_the_sanitizer_cleans_every_page_before_it_is_indexed_or_written(tmp_path):
    """Defence: the allowlist sanitizer (macros/render/sanitize.py), which a full build runs on a second core and applies in
    `on_env`, before the search index or the theme reads a page. Raw HTML in a hand-written page is the one way to get
    markup past the data's checks, so it stands in for whatever those checks might miss."""
    project = _project(tmp_path)
    hostile = '<p onclick="steal()">Raw paragraph</p>\n\n<script>steal()</script>\n\n<a href="javascript:steal()">raw link</a>\n'
    (project / "docs" / "raw.md").write_text(f"# Raw\n\n{hostile}", encoding="utf-8")
    out = tmp_path / "out"
    result = build_site(out, "http://127.0.0.1/atlas/", project=project)
    assert result.returncode == 0, result.stdout + result.stderr
    article = (out / "raw" / "index.html").read_text(encoding="utf-8").split("<article", 1)[1].split("</article>", 1)[0]
    assert "Raw paragraph" in article and "raw link" in article
    assert not re.search(r"onclick|<script|javascript:", article), article
    index = (out / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "Raw paragraph" in index and "steal()" not in index


def test_an_include_line_in_a_code_block_publishes_nothing(tmp_path):
    """Defence: no include extension (pymdownx.snippets) in the Markdown configuration."""
    project = _project(tmp_path)
    secret = project / "data" / "secret.txt"
    secret.write_text("SECRET-TOKEN-1234\n", encoding="utf-8")
    (project / "data" / "link-to-config").symlink_to(project / "mkdocs.yml")
    lines = '--8<-- "mkdocs.yml"\n--8<-- "data/secret.txt"\n--8<-- "data/link-to-config"\n--8<-- "no/such/file"'
    _edit(project / "data" / "releases" / "2.1.yaml", "    after: new()", f"    after: {yaml.safe_dump(lines).strip()}")
    out = tmp_path / "out"
    result = build_site(out, "http://127.0.0.1/atlas/", project=project)
    assert result.returncode == 0, result.stdout + result.stderr
    page = html.unescape(re.sub(r"<[^>]+>", "", (out / "releases" / "2.1" / "index.html").read_text(encoding="utf-8")))
    assert '--8<-- "mkdocs.yml"' in page
    published = [p.read_text(encoding="utf-8", errors="replace") for p in out.rglob("*") if p.suffix in (".html", ".json", ".xml")]
    assert not [text for text in published if "SECRET-TOKEN-1234" in text or "markdown_extensions:" in text]


def test_front_matter_that_would_not_read_back_is_caught():
    """Defence: generate.py reads every generated page's front matter back as MkDocs will, before the build goes on."""
    assert front_matter_problem('---\ntitle: "PyTorch 2.1"\nrender_macros: false\n---\n# x\n') is None
    assert front_matter_problem('---\ntitle: "a\x7fb"\nrender_macros: false\n---\n# x\n') is not None
    assert front_matter_problem('---\ntitle: "a"\n---\n# x\n') is not None
    assert front_matter_problem("# no front matter\n") is not None


HOSTILE_FIELDS = {
    "backtick runs": "`a" * (N // 2),
    "one long backtick run": "`" * N,
    "unequal backtick runs": "``x`" * (N // 4),
    "open brackets": "[" * N,
    "unclosed links": "[a](" * (N // 4),
    "emphasis and brackets": "*[" * (N // 2),
    "angle brackets": "<" * N,
    "table pipes": "|" * N,
    "nested references in a link": "[x](&amp;" + "amp;" * (N // 5) + "#106;avascript:x)",
}


@pytest.mark.timeout(HANG_SECONDS)
@pytest.mark.parametrize("name", HOSTILE_FIELDS)
def test_hostile_markup_is_refused_at_once_or_built_without_hanging(tmp_path, name):
    """Defences: linear tokenizing (markup.tokens), no unbalanced bracket or backtick reaches Markdown, and the limits on
    syntax characters per field and per file."""
    project = _project(tmp_path)
    release = project / "data" / "releases" / "2.1.yaml"
    document = yaml.safe_load(release.read_text(encoding="utf-8"))
    document["summary"] = HOSTILE_FIELDS[name]
    release.write_text(yaml.safe_dump(document, width=10**9), encoding="utf-8")
    result = build_site(tmp_path / "out", "http://127.0.0.1/atlas/", project=project)
    output = result.stdout + result.stderr
    assert "Traceback" not in output
    assert result.returncode == 0 or "data/releases/2.1.yaml:" in output, output[-2000:]


@pytest.mark.timeout(HANG_SECONDS)
def test_a_file_at_every_limit_builds_without_hanging(tmp_path):
    """A release file of almost 2 MB whose text fields each hold the most syntax allowed, and whose code blocks are long
    runs of quotes, backslashes and backticks: the build accepts it and finishes (a hang guard, not a speed test)."""
    project = _project(tmp_path)
    release = project / "data" / "releases" / "2.1.yaml"
    document = yaml.safe_load(release.read_text(encoding="utf-8"))
    feature, change = document["features"][0], document["changes"][0]
    patterns = ["[a](https://e.example/b)" * 40, "`x`" * 333, "[[]]" * 250, "<" * 999, "*_" * 499, "|" * 999, "{" * 999]
    document["features"] = [
        {**copy.deepcopy(feature), "id": f"f{index}", "summary": "word " * 9000 + patterns[index % len(patterns)]} for index in range(19)
    ]
    document["changes"] = [
        {**copy.deepcopy(change), "id": f"c{index}", "before": "'\"\\`" * 12000, "after": '"""\\' * 12000} for index in range(9)
    ]
    text = yaml.safe_dump(document, width=10**9)
    assert 1_500_000 < len(text.encode()) < 2_000_000
    release.write_text(text, encoding="utf-8")
    result = build_site(tmp_path / "out", "http://127.0.0.1/atlas/", project=project)
    assert result.returncode == 0, (result.stdout + result.stderr)[-2000:]


def test_make_check_reports_a_hostile_file_without_a_traceback(tmp_path):
    """`make check` reads the same files; an integer past Python's digit limit and a key YAML reads as a boolean."""
    data_dir = copy_mini_data(tmp_path / "data")
    _edit(
        data_dir / "releases" / "2.1.yaml",
        "released:",
        f"on: push\ncommits: {{count: {'9' * 5000}, source: https://example.org/2.1}}\nreleased:",
    )
    result = subprocess.run([sys.executable, "-m", "macros.check", str(data_dir)], capture_output=True, text=True, timeout=HANG_SECONDS)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "data/releases/2.1.yaml:4: a number of 5,000 characters" in result.stderr
