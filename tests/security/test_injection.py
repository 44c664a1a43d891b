"""No injection vector in any text field reaches a reader as something that runs.

Each vector goes into every kind of text field (feature, change, release, topic, label, source
title, coverage note, patch, example code). The loader refuses some with a precise error; the
rest are built into one real site with `mkdocs build --strict`, whose HTML is then searched for
anything a browser would execute.
"""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import pytest
import yaml

from macros.loading import load_atlas
from macros.markup import as_browser_reads
from macros.yamlfile import DataErrors
from tests.support.html import parse
from tests.support.site import PREFIX, build_site, copy_mini_data, copy_site_sources

from .vectors import VECTORS

SOURCE = "https://example.org/inject"
RELEASE_FIELDS = (
    ("title",),
    ("summary",),
    ("features", 0, "title"),
    ("features", 0, "summary"),
    ("features", 0, "details"),
    ("features", 0, "example", "caption"),
    ("features", 0, "example", "code"),
    ("changes", 0, "title"),
    ("changes", 0, "summary"),
    ("changes", 0, "before"),
    ("changes", 0, "after"),
    ("sources", 0, "title"),
    ("coverage", "note"),
    ("patches", 0, "summary"),
)
TOPIC_FIELDS = (("title",), ("intro",))
URL_ATTRIBUTES = ("href", "src", "action", "formaction", "data", "xlink:href", "poster", "background", "srcdoc")
MINI_TOPICS = 2
FORBIDDEN_TAGS = ("iframe", "object", "embed", "base", "frame", "applet")


def _release(index: int) -> dict:
    """A harmless release, 3.<index>, with one of every kind of text field."""
    return {
        "version": f"3.{index}",
        "title": "Injection release",
        "summary": "A release for injection tests.",
        "released": {"date": "2031-01-15", "source": SOURCE},
        "coverage": {"changes": "partial", "note": "Harmless note."},
        "patches": [{"version": f"3.{index}.1", "date": "2031-02-01", "summary": "Harmless patch.", "source": SOURCE}],
        "sources": [{"url": SOURCE, "title": "Injection source"}],
        "features": [
            {
                "id": f"inject-{index}",
                "title": "Harmless title",
                "stability": "Beta",
                "topics": [f"inject-{index}"],
                "summary": "Harmless summary.",
                "details": "Harmless details.",
                "example": {"caption": "Harmless caption", "code": "print(1)"},
                "sources": [SOURCE],
            }
        ],
        "changes": [
            {
                "id": f"inject-change-{index}",
                "kind": "breaking",
                "title": "Harmless change",
                "summary": "Harmless change summary.",
                "before": "old()",
                "after": "new()",
                "sources": [SOURCE],
            }
        ],
    }


def _set(document: dict, path: tuple, value: str) -> None:
    """Write `value` at the field path `path` of a nested document."""
    for key in path[:-1]:
        document = document[key]
    document[path[-1]] = value


def _write(data_dir: Path, releases: list[dict], topics: list[dict]) -> None:
    """Write the injected releases and topics beside the mini data set."""
    for release in releases:
        (data_dir / "releases" / f"{release['version']}.yaml").write_text(yaml.safe_dump(release, allow_unicode=True), encoding="utf-8")
    base = yaml.safe_load((data_dir / "topics.yaml").read_text(encoding="utf-8"))
    base["topics"] += topics
    (data_dir / "topics.yaml").write_text(yaml.safe_dump(base, allow_unicode=True), encoding="utf-8")


def _injected_data(data_dir: Path) -> tuple[Path, list[str]]:
    """The mini data set plus one release and one topic per vector, every field that the loader accepts carrying it.

    Returns the data folder and the loader's refusals; each refused field is put back to its harmless text.
    """
    releases = [_release(index) for index in range(len(VECTORS))]
    topics = [{"id": f"inject-{index}", "title": "Harmless topic", "intro": "Harmless intro."} for index in range(len(VECTORS))]
    for index, vector in enumerate(VECTORS):
        for path in RELEASE_FIELDS:
            _set(releases[index], path, vector)
        for path in TOPIC_FIELDS:
            _set(topics[index], path, vector)
    refusals: list[str] = []
    for _ in range(6):  # a schema error hides the file's later checks, so refuse until the data loads
        scratch = copy_mini_data(data_dir.parent / f"round-{len(refusals)}" / "data")
        _write(scratch, releases, topics)
        try:
            load_atlas(scratch)
            return scratch, refusals
        except DataErrors as raised:
            for error in raised.errors:
                refusals.append(str(error))
                _restore(error, releases, topics)
    raise AssertionError("the injected data never loaded:\n" + "\n".join(refusals))


def _restore(error, releases: list[dict], topics: list[dict]) -> None:
    """Put the harmless text back into the field a loader error names (injected topics follow the mini data's own)."""
    if error.file.endswith("topics.yaml"):
        index, field = error.path[1] - MINI_TOPICS, error.path[2]
        topics[index][field] = "Harmless topic" if field == "title" else "Harmless intro."
        return
    index = int(Path(error.file).stem.split(".")[1])
    path = next(p for p in RELEASE_FIELDS if tuple(error.path[: len(p)]) == p)
    _set(
        releases[index], path, yaml.safe_load(yaml.safe_dump(_release(index)))["features"][0]["title"] if False else _harmless(index, path)
    )


def _harmless(index: int, path: tuple) -> str:
    """The harmless text of one field."""
    document = _release(index)
    for key in path:
        document = document[key]
    return document


@pytest.fixture(scope="module")
def injected_site(tmp_path_factory):
    """The real site built from data carrying every accepted vector, and the loader's refusals."""
    root = tmp_path_factory.mktemp("inject")
    data_dir, refusals = _injected_data(root / "data")
    project = copy_site_sources(root / "project", with_data=False)
    shutil.copytree(data_dir, project / "data")
    out = root / "site" / PREFIX.strip("/")
    result = build_site(out, f"http://127.0.0.1:8000{PREFIX}", project=project)
    assert result.returncode == 0, result.stdout + result.stderr
    return out, refusals


def test_there_are_at_least_forty_vectors_in_every_field():
    assert len(VECTORS) >= 40
    assert len(RELEASE_FIELDS) + len(TOPIC_FIELDS) >= 16


def test_every_refusal_names_the_file_line_and_field(injected_site):
    _, refusals = injected_site
    assert refusals, "some vectors must be refused by the loader"
    for refusal in refusals:
        assert re.match(r"data/(releases/3\.\d+\.yaml|topics\.yaml):\d+: \S+: ", refusal), refusal


def test_accepted_vectors_are_shown_as_text(injected_site):
    site, _ = injected_site
    code = (site / "releases" / "3.45" / "index.html").read_text(encoding="utf-8")
    assert "alert(46)" in html.unescape(re.sub(r"<[^>]+>", "", code)), "a vector inside a code span is shown as text"


def test_no_page_can_run_data(injected_site):
    site, _ = injected_site
    theme_scripts = len(_inline_scripts(site / "404.html"))
    problems = []
    for page in sorted(site.rglob("*.html")):
        parsed = parse(page)
        name = page.relative_to(site)
        if len(_inline_scripts(page)) != theme_scripts and "http-equiv" not in page.read_text(encoding="utf-8"):
            problems.append(f"{name}: inline scripts beyond the theme's own")
        for element in parsed.elements:
            for attribute, value in element.attrs.items():
                if attribute.startswith("on"):
                    problems.append(f"{name}: <{element.tag} {attribute}=...>")
                if attribute in URL_ATTRIBUTES or (attribute == "content" and element.attrs.get("http-equiv")):
                    scheme = re.match(r"([a-z][a-z0-9+.-]*):", as_browser_reads(value).lower().split("url=")[-1])
                    if scheme and scheme.group(1) not in ("http", "https", "mailto"):
                        problems.append(f"{name}: <{element.tag} {attribute}={value!r}>")
            if element.tag in FORBIDDEN_TAGS:
                problems.append(f"{name}: <{element.tag}>")
            if element.tag == "script" and "src" in element.attrs and not element.attrs["src"].startswith(("../", "assets/", PREFIX)):
                problems.append(f"{name}: external script {element.attrs['src']}")
    assert not problems, "\n".join(problems)


def _inline_scripts(page: Path) -> list[str]:
    """The text of a page's inline scripts, which only the theme writes."""
    return re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", page.read_text(encoding="utf-8"), re.DOTALL)
