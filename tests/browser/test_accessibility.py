"""Accessibility (axe-core), colour schemes, and a 375 px phone screen, on every page a reader reaches."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

# Rules whose violations come from the Material theme's own markup, not from this project's content.
# Each is listed with the reason; any other serious or critical violation fails the test.
THEME_RULES = {
    "aria-dialog-name": "Material's search overlay (.md-search) has role=dialog without an accessible name.",
}
AXE = Axe()


def _nav_urls(tab) -> list[str]:
    tab.open("")
    return tab.page.eval_on_selector_all(
        "nav.md-nav--primary a.md-nav__link[href]", "links => [...new Set(links.map(a => a.href.split('#')[0]))]"
    )


def _serious_violations(page) -> list[str]:
    results = AXE.run(page, options={"resultTypes": ["violations"]})
    found = []
    for violation in results.response["violations"]:
        if violation["impact"] in ("serious", "critical") and violation["id"] not in THEME_RULES:
            targets = [node["target"] for node in violation["nodes"]][:5]
            found.append(f"{page.url}: {violation['id']} ({violation['impact']}) {targets}")
    return found


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_axe_violation_on_any_page(new_visit, mini_site, scheme):
    tab = new_visit(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    # The real data has no feature in several releases yet, so a feature history page comes from the mini data set.
    urls = [*_nav_urls(tab), mini_site.base_url + "features/alpha/", tab.base_url + "releases/0.1/"]
    found = []
    for url in urls:
        tab.page.goto(url, wait_until="load")
        expected = "slate" if scheme == "dark" else "default"
        assert tab.page.evaluate("() => document.body.getAttribute('data-md-color-scheme')") == expected
        found += _serious_violations(tab.page)
    assert not found, "\n".join(found)


def test_palette_toggle_switches_scheme(visit):
    visit.open("releases/1.10/")
    scheme = "() => document.body.getAttribute('data-md-color-scheme')"
    before = visit.page.evaluate(scheme)
    visit.page.locator("form[data-md-component=palette] label:visible").first.click()
    visit.page.wait_for_function(f"() => ({scheme})() !== {before!r}")
    assert visit.page.evaluate(scheme) in ("default", "slate")
    assert _serious_violations(visit.page) == []


def test_stability_is_told_in_text_not_only_colour(visit):
    visit.open("releases/1.10/")
    labels = visit.page.eval_on_selector_all(".atlas-stage", "badges => badges.map(b => b.textContent.trim())")
    assert labels and set(labels) <= {"Stable", "Beta", "Prototype", "Experimental", "Unlabeled", "Deprecated", "Removed"}


def test_no_page_scrolls_sideways_on_a_phone(new_visit):
    tab = new_visit(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    urls = _nav_urls(tab)
    tab.page.set_viewport_size({"width": 375, "height": 740})
    wide = []
    for url in urls:
        tab.page.goto(url, wait_until="load")
        overflow = tab.page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        if overflow > 0:
            wide.append(f"{url}: {overflow}px")
    assert not wide, wide


def test_wide_tables_scroll_inside_their_box_on_a_phone(new_visit):
    tab = new_visit(viewport={"width": 375, "height": 740}, is_mobile=True)
    tab.open("matrix/")
    box = tab.page.evaluate(
        """() => { const box = document.querySelector('.atlas-table-scroll');
                   return [box.scrollWidth > box.clientWidth, getComputedStyle(box).overflowX]; }"""
    )
    assert box == [True, "auto"]
