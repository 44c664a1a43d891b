"""Shared fixtures: project paths and the mini data set."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

PROJECT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_DIR))

from macros.data.loading import load_atlas  # noqa: E402
from macros.data.model import Atlas  # noqa: E402

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
def built_site(tmp_path_factory, worker_id):
    """The real site, built once per test run with `mkdocs build --strict` (whichever worker asks first builds it, the
    others wait) and served on loopback under its path prefix."""
    from tests.support.site import shared_site

    run_folder = tmp_path_factory.getbasetemp() if worker_id == "master" else tmp_path_factory.getbasetemp().parent
    with shared_site(run_folder / "real-site") as site:
        yield site


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
