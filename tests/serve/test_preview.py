"""`mkdocs serve` follows every kind of edit and serves exactly what a full `mkdocs build --strict` would.

After each edit, the folder that `mkdocs serve` serves is compared, file by file and byte by byte, with a
fresh full build of the same sources: nav, search index, cross-links, JSON and feed included. With `--dirty`
(`make serve`), the incremental preview must also render only part of the site for a one-file edit.
"""

from __future__ import annotations

import filecmp
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.site import PREFIX, build_site, copy_rich_data, copy_site_sources, free_port

FIXED_DATE = "1893456000"  # SOURCE_DATE_EPOCH for both sides, so the sitemap's dates and gzip headers agree
# A build ends with "Serving on" (the first) or "Reloading browsers" (each rebuild, good or failed). MkDocs logs
# "Documentation built in ..." only once per distinct text, so that line cannot count builds.
FINISHED = ("Serving on", "Reloading browsers")


@dataclass
class Served:
    """A project under `mkdocs serve`, the folder it serves, and its log."""

    project: Path
    log: Path
    tmp: Path
    site_url: str

    def builds_finished(self) -> int:
        """How many builds, good or failed, the server has finished."""
        text = self.log.read_text(encoding="utf-8")
        return sum(text.count(marker) for marker in FINISHED)

    def settled_after(self, finished_before: int, timeout: float = 90) -> None:
        """Wait until a build that started after an edit has finished and no other is running."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.log.read_text(encoding="utf-8")
            started = text.count("Building documentation...")
            finished = self.builds_finished()
            if finished > finished_before and finished >= started:
                time.sleep(0.5)  # a second file event from the same save starts its build within the debounce
                if (
                    self.builds_finished() == finished
                    and self.log.read_text(encoding="utf-8").count("Building documentation...") == started
                ):
                    return
            time.sleep(0.1)
        pytest.fail(f"mkdocs serve did not finish a rebuild within {timeout} s; its log:\n{self.log.read_text()[-3000:]}")

    def site_dir(self) -> Path:
        """The temporary folder `mkdocs serve` builds into (it lives under TMPDIR)."""
        (folder,) = self.tmp.glob("mkdocs_*")
        return folder

    def last_rendered(self) -> tuple[int, int]:
        """The preview's last report: (pages written again, pages in the site)."""
        found = re.findall(r"Preview: writing (\d+) of (\d+) pages again", self.log.read_text(encoding="utf-8"))
        assert found, "the preview reported no build"
        return tuple(int(number) for number in found[-1])

    def edit(self, relative: str, old: str, new: str) -> None:
        """Replace `old` by `new` in a project file and wait for the rebuild it causes."""
        path = self.project / relative
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{relative} does not contain {old!r}"
        self.write(relative, text.replace(old, new, 1))

    def write(self, relative: str, text: str | None) -> None:
        """Write (or, with None, delete) a project file and wait for the rebuild it causes."""
        before = self.builds_finished()
        path = self.project / relative
        if text is None:
            path.unlink()
        else:
            path.write_text(text, encoding="utf-8")
        self.settled_after(before)


def _differences(served: Path, reference: Path) -> list[str]:
    """Every file that is missing, extra or different in `served` compared with `reference`."""
    found = []
    comparison = filecmp.dircmp(served, reference)
    stack = [(comparison, "")]
    while stack:
        current, prefix = stack.pop()
        found += [f"only in the preview: {prefix}{name}" for name in current.left_only]
        found += [f"missing from the preview: {prefix}{name}" for name in current.right_only]
        _, mismatch, errors = filecmp.cmpfiles(current.left, current.right, current.common_files, shallow=False)
        found += [f"differs: {prefix}{name}" for name in mismatch + errors]
        stack += [(sub, f"{prefix}{name}/") for name, sub in current.subdirs.items()]
    return sorted(found)


def assert_same_as_full_build(served: Served, tmp_path: Path, step: str) -> None:
    """The served folder holds exactly the files a full `mkdocs build` of the same sources writes (not `--strict`: an
    English edit leaves its Chinese translation stale, which a strict build refuses and the preview reports)."""
    reference = tmp_path / ("reference-" + re.sub(r"\W+", "-", step))
    result = build_site(reference, served.site_url, project=served.project, strict=False, SOURCE_DATE_EPOCH=FIXED_DATE)
    assert result.returncode == 0, f"{step}: the full build failed:\n{result.stderr[-3000:]}"
    differences = _differences(served.site_dir(), reference)
    assert not differences, f"after {step}, the preview differs from a full build:\n" + "\n".join(differences[:40])


def _serve(tmp_path: Path, *options: str):
    """Serve a copy of the project with the rich data set (translations, a feature record, an API index, builds); yields
    a Served."""
    project = copy_site_sources(tmp_path / "project", with_data=False)
    copy_rich_data(project / "data")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    port = free_port()
    log = tmp_path / "serve.log"
    served = Served(project, log, tmp, f"http://127.0.0.1:{port}{PREFIX}")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": FIXED_DATE, "TMPDIR": str(tmp)}
    with log.open("w") as output:
        command = [sys.executable, "-m", "mkdocs", "serve", *options, "--dev-addr", f"127.0.0.1:{port}"]
        process = subprocess.Popen(command, cwd=project, env=env, stdout=output, stderr=subprocess.STDOUT)
        try:
            served.settled_after(0)
            yield served
        finally:
            process.terminate()
            process.wait(timeout=30)


@pytest.fixture
def preview(tmp_path):
    """The project under `mkdocs serve --dirty`, as `make serve` runs it."""
    yield from _serve(tmp_path, "--dirty")


@pytest.fixture
def plain_serve(tmp_path):
    """The project under plain `mkdocs serve`, the habit of every MkDocs user: it rebuilds everything."""
    yield from _serve(tmp_path)


NEW_RELEASE = """version: "2.11"
summary: A release added while the preview runs.
released: {date: 2030-11-15, source: https://example.org/2.11}
coverage: {changes: complete}
sources:
  - {url: https://example.org/2.11, title: Notes 2.11}
features:
  - id: alpha
    title: Alpha
    stability: Stable
    topics: [cuda]
    summary: Alpha is still stable.
    sources: [https://example.org/2.11]
  - id: epsilon
    title: Epsilon
    stability: Beta
    summary: A new feature, in a new release.
    sources: [https://example.org/2.11]
"""


def test_the_preview_serves_what_a_full_build_would_after_every_kind_of_edit(preview, tmp_path):
    assert_same_as_full_build(preview, tmp_path, "the first build")
    total = preview.last_rendered()[1]

    preview.edit("data/releases/2.10.yaml", "summary: Alpha is stable.", "summary: Alpha is stable, and edited.")
    assert_same_as_full_build(preview, tmp_path, "a release edit")
    rendered, _ = preview.last_rendered()
    assert rendered < total, f"a one-feature edit rendered all {total} pages again"

    preview.edit("data/releases/2.10.yaml", "stability: Stable", "stability: Beta")  # alpha's lifecycle: 2.0's and 2.1's pages too
    assert_same_as_full_build(preview, tmp_path, "a stage edit in one release")

    preview.edit("data/topics.yaml", "title: CUDA", "title: CUDA, renamed")  # a nav title: every page's sidebar changes
    assert_same_as_full_build(preview, tmp_path, "a topic edit")
    assert preview.last_rendered()[0] == total, "a nav title change must wrap every page again"

    preview.edit("macros/render/templates/release.md.j2", '## {{ _("Release facts") }}', '## {{ _("Release facts") }}, edited')
    assert_same_as_full_build(preview, tmp_path, "a template edit")

    preview.edit("macros/render/templates/release.md.j2", "{{ release.summary | inline }}", "{{ release.summary | inline }} (edited)")
    assert_same_as_full_build(preview, tmp_path, "a template edit of one paragraph")

    # A template that other templates import: the release pages and the features index use it (the feature pages
    # are given again, and must not be stale).
    preview.edit("macros/render/templates/_macros.md.j2", "{% if not loop.last %} → {% endif %}", "{% if not loop.last %} ⟶ {% endif %}")
    assert_same_as_full_build(preview, tmp_path, "an edit of a template that others import")

    # The Chinese interface words: only the Chinese pages read them.
    preview.edit("data/translations/zh/interface/features.yaml", '"提及该功能的所有版本"', '"提及该功能的每个版本"')
    assert_same_as_full_build(preview, tmp_path, "an interface translation edit")

    preview.edit("overrides/main.html", ": releases", ": release feed")
    assert_same_as_full_build(preview, tmp_path, "a theme override edit")

    preview.write("overrides/added-by-hand.txt", "A file the overrides folder gains while the preview runs.\n")
    assert_same_as_full_build(preview, tmp_path, "a file added to the theme overrides")
    assert (preview.site_dir() / "added-by-hand.txt").is_file()

    preview.edit("docs/about.md", "# About the atlas\n", "# About the atlas\n\nAn edited line.\n")
    assert_same_as_full_build(preview, tmp_path, "a hand-written page edit")

    preview.write("data/releases/2.11.yaml", NEW_RELEASE)
    assert_same_as_full_build(preview, tmp_path, "adding a release file")

    good = (preview.project / "data/releases/2.11.yaml").read_text(encoding="utf-8")
    preview.edit("data/releases/2.11.yaml", "stability: Beta", "stability: Betta")
    assert "stability: expected one of" in preview.log.read_text(encoding="utf-8")
    assert "Traceback" not in preview.log.read_text(encoding="utf-8")
    preview.write("data/releases/2.11.yaml", good.replace("Alpha is still stable.", "Alpha is still stable, fixed."))
    assert_same_as_full_build(preview, tmp_path, "a bad edit followed by a fix")

    preview.write("data/releases/2.11.yaml", None)
    assert_same_as_full_build(preview, tmp_path, "removing a release file")


def test_a_bad_edit_keeps_the_last_good_site_served(preview, tmp_path):
    preview.edit("data/releases/2.10.yaml", "summary: Alpha is stable.", "summary: Alpha, before the bad edit.")
    before = tmp_path / "before"
    result = build_site(before, preview.site_url, project=preview.project, SOURCE_DATE_EPOCH=FIXED_DATE)
    assert result.returncode == 0, result.stderr[-3000:]

    preview.edit("data/releases/2.10.yaml", "stability: Prototype", "stability: Prototyp")
    assert "stability: expected one of" in preview.log.read_text(encoding="utf-8")
    assert not _differences(preview.site_dir(), before), "the last good site must stay served after a bad edit"


def test_plain_serve_builds_everything_and_recovers_from_a_bad_edit(plain_serve, tmp_path):
    """Plain `mkdocs serve` (no `--dirty`) has no preview: each rebuild is a full one, and a bad edit is reported."""
    plain_serve.edit("data/releases/2.10.yaml", "summary: Alpha is stable.", "summary: Alpha, edited under plain serve.")
    assert_same_as_full_build(plain_serve, tmp_path, "a release edit")
    assert "Preview:" not in plain_serve.log.read_text(encoding="utf-8")
    plain_serve.edit("data/releases/2.10.yaml", "stability: Prototype", "stability: Prototyp")
    assert "stability: expected one of" in plain_serve.log.read_text(encoding="utf-8")
    plain_serve.edit("data/releases/2.10.yaml", "stability: Prototyp", "stability: Prototype")
    assert_same_as_full_build(plain_serve, tmp_path, "the fix")
