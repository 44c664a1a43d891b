"""Shared fixtures: project paths and the mini data set."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

PROJECT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_DIR))

from macros.loading import load_atlas  # noqa: E402
from macros.model import Atlas  # noqa: E402

MINI_DATA = PROJECT_DIR / "tests" / "fixtures" / "mini"
REAL_DATA = PROJECT_DIR / "data"


@pytest.fixture(scope="session")
def mini_atlas() -> Atlas:
    """The hand-written fixture data set (releases 2.0, 2.1, 2.10)."""
    return load_atlas(MINI_DATA)


@pytest.fixture(scope="session")
def real_atlas() -> Atlas:
    """The project's real release data."""
    return load_atlas(REAL_DATA)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The real site, built once with `mkdocs build --strict` and served on loopback under its path prefix."""
    yield from _built_and_served(tmp_path_factory.mktemp("served"), PROJECT_DIR)


def _built_and_served(root: Path, project: Path):
    """Build `project` with `mkdocs build --strict` into `root` under the path prefix, and serve it while in use."""
    from tests.support.site import PREFIX, BuiltSite, build_site, free_port, serve

    files = root / PREFIX.strip("/")
    port = free_port()
    base_url = f"http://127.0.0.1:{port}{PREFIX}"
    result = build_site(files, base_url, project=project)
    assert result.returncode == 0, result.stdout + result.stderr
    with serve(root, port) as url:
        assert url == base_url
        yield BuiltSite(root=root, files=files, base_url=base_url, log=result.stdout + result.stderr)


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium (Debian's, driven by Playwright) for the whole run, shared by every test that opens pages."""
    from playwright.sync_api import sync_playwright

    from tests.support.chromium import CHROMIUM, MISSING, launch_chromium

    if not CHROMIUM.exists():
        pytest.fail(MISSING)
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        yield browser
        browser.close()
