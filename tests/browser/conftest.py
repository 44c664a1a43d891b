"""Real Chromium (Debian's /usr/bin/chromium) driven by Playwright against the built, served site."""

from __future__ import annotations

import time
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

IN_VIEW = """id => { const e = document.getElementById(id); if (!e) return false;
                      const header = document.querySelector('.md-header').getBoundingClientRect().bottom;
                      const r = e.getBoundingClientRect(); return r.top >= header - 1 && r.top < window.innerHeight; }"""


def in_view(page, element_id: str) -> bool:
    """Wait (up to 5 s) until the element's top edge shows below the sticky header; False if it never does."""
    try:
        page.wait_for_function(IN_VIEW, arg=element_id, timeout=5000)
    except PlaywrightTimeout:
        return False
    return True


PHONE = {"viewport": {"width": 375, "height": 740}, "is_mobile": True, "has_touch": True}  # new_visit(**PHONE)

SIDEWAYS_OVERFLOW = """() => { const all = document.createElement('style');
                               all.textContent = '* { content-visibility: visible !important; }';
                               document.head.append(all);
                               const extra = document.documentElement.scrollWidth - document.documentElement.clientWidth;
                               all.remove(); return extra; }"""


def sideways_overflow(page) -> int:
    """How many px the page is wider than its window, measured with every box laid out: the text the browser renders
    only near the screen (`content-visibility: auto`) would otherwise be neither drawn nor measured."""
    return page.evaluate(SIDEWAYS_OVERFLOW)


class Visit:
    """A browser tab on the site that records console errors and every request it makes."""

    def __init__(self, browser, base_url: str, **context_options) -> None:
        self.base_url = base_url
        self.context = browser.new_context(**context_options)
        self.page = self.context.new_page()
        self.console_errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.console_errors.append(f"{self.page.url}: {m.text}") if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.console_errors.append(f"{self.page.url}: {e}"))
        self.context.on("request", lambda r: self.requests.append(r.url))

    def open(self, path: str) -> None:
        """Load a site path, e.g. "releases/1.10/#cuda-graphs", cold."""
        self.page.goto(self.base_url + path, wait_until="load")

    def settle(self) -> None:
        """Wait until the page's requests are over: before counting what it asked for, or before following a link, as a
        reader does."""
        self.page.wait_for_load_state("networkidle")

    def search(self, query: str) -> list[str]:
        """Type `query` into the site search and give the addresses of its results, best first. The theme searches as
        the query is typed, and the results of a prefix ("Torch w") can arrive after the last key: they are read once
        they stop changing."""
        self.page.locator("label.md-search__icon, .md-search__input").first.click()
        self.page.locator("input.md-search__input").press_sequentially(query, delay=30)
        self.page.locator(".md-search-result__link").first.wait_for(timeout=15000)
        found, deadline = None, time.monotonic() + 15
        while time.monotonic() < deadline:
            self.page.wait_for_timeout(400)
            now = self.page.eval_on_selector_all(".md-search-result__link", "links => links.map(a => a.href)")
            if now == found:
                return now
            found = now
        raise AssertionError(f"the results for {query!r} were still changing after 15 s")

    def foreign_requests(self) -> list[str]:
        """Requests that left loopback."""
        return [
            url
            for url in self.requests
            if urlsplit(url).hostname not in ("127.0.0.1", "localhost") and not url.startswith(("data:", "blob:"))
        ]


@pytest.fixture
def visit(browser, built_site):
    """A fresh tab; after the test, no request may have left loopback."""
    tab = Visit(browser, built_site.base_url, viewport={"width": 1280, "height": 900})
    yield tab
    foreign = tab.foreign_requests()
    tab.context.close()
    assert not foreign, f"requests left loopback: {foreign}"


@pytest.fixture
def new_visit(browser, built_site):
    """A factory of tabs with custom context options (viewport, colour scheme, JavaScript)."""
    tabs = []

    def make(**options) -> Visit:
        tab = Visit(browser, built_site.base_url, **options)
        tabs.append(tab)
        return tab

    yield make
    for tab in tabs:
        foreign = tab.foreign_requests()
        tab.context.close()
        assert not foreign, f"requests left loopback: {foreign}"
