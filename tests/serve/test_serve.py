"""`mkdocs serve` rebuilds on data, template and theme edits, survives a bad edit, and recovers by itself."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.support.site import PREFIX, copy_site_sources, free_port


def _fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, ""
    except OSError:
        return 0, ""


def _wait_for(condition, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.25)
    pytest.fail(f"timed out waiting for {what}")


@pytest.fixture
def served_copy(tmp_path):
    """A copy of the project served by `mkdocs serve`, with its log file."""
    copy_site_sources(tmp_path, with_data=True)
    port = free_port()
    log = (tmp_path / "serve.log").open("w")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", f"127.0.0.1:{port}"],
        cwd=tmp_path,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}{PREFIX}"
    try:
        _wait_for(lambda: _fetch(base)[0] == 200, "the first build")
        yield tmp_path, base, tmp_path / "serve.log"
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_serve_follows_data_and_template_edits_and_survives_bad_data(served_copy):
    project, base, log = served_copy
    page = base + "releases/1.10/"
    release_file = project / "data/releases/1.10.yaml"

    _edit(release_file, "title: ", "title: Edited title one, ")
    _wait_for(lambda: "Edited title one" in _fetch(page)[1], "the data edit to show")

    _edit(project / "macros/templates/release.md.j2", "## Release facts", "## Release facts, edited")
    _wait_for(lambda: "Release facts, edited" in _fetch(page)[1], "the template edit to show")

    # Theme templates are compiled once per serve session; an edited override must still be picked up.
    _edit(project / "overrides/main.html", 'title="{{ config.site_name }}: releases"', 'title="{{ config.site_name }}: edited feed"')
    _wait_for(lambda: "PyTorch Release Atlas: edited feed" in _fetch(page)[1], "the theme override edit to show")

    _edit(release_file, "stability: Beta", "stability: Betta")
    _wait_for(lambda: "stability: expected one of" in log.read_text(), "the data error in the log")
    status, body = _fetch(page)
    assert status == 200 and "Edited title one" in body, "the last good site is still served"
    assert "Traceback" not in log.read_text()

    _edit(release_file, "stability: Betta", "stability: Beta")
    _edit(release_file, "Edited title one", "Edited title two")
    _wait_for(lambda: "Edited title two" in _fetch(page)[1], "recovery after the fix")
