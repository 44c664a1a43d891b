"""Accessibility (axe-core), colour schemes, and a 375 px phone screen, on every page a reader reaches."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from macros.data.loading import load_atlas
from macros.views.indexes import build_lifecycles
from tests.browser.conftest import PHONE, sideways_overflow
from tests.conftest import REAL_DATA

# Rules whose violations come from the Material theme's own markup, not from this project's content, each with the
# reason; any other serious or critical violation fails the test. None left: the search dialog that had no name
# (aria-dialog-name) is named by overrides/partials/search.html.
THEME_RULES: dict[str, str] = {}
AXE = Axe()
ATLAS = load_atlas(REAL_DATA)
LIFECYCLES = build_lifecycles(ATLAS)


def _nav_urls(tab, home: str = "") -> list[str]:
    """Every page the navigation of an edition (its home: "" or "zh/") links to."""
    tab.open(home)
    return tab.page.eval_on_selector_all(
        "nav.md-nav--primary a.md-nav__link[href]", "links => [...new Set(links.map(a => a.href.split('#')[0]))]"
    )


def _serious_violations(page) -> list[str]:
    results = AXE.run(page, options={"resultTypes": ["violations"], "rules": {"target-size": {"enabled": True}}})  # off in axe by default
    found = []
    for violation in results.response["violations"]:
        if violation["impact"] in ("serious", "critical") and violation["id"] not in THEME_RULES:
            targets = [node["target"] for node in violation["nodes"]][:5]
            found.append(f"{page.url}: {violation['id']} ({violation['impact']}) {targets}")
    return found


def _one_page_of_each_kind(urls: list[str]) -> list[str]:
    """The nav pages with the release pages cut down to the largest, the oldest and the newest: release pages
    share one template, and axe on every one of them would take minutes."""
    releases = sorted(ATLAS.releases, key=lambda r: len(r.features) + len(r.changes))
    chosen = {f"releases/{r.version}/" for r in (releases[-1], ATLAS.releases[0], ATLAS.releases[-1])}
    return [url for url in urls if "/releases/" not in url or url.endswith("/releases/") or any(url.endswith(c) for c in chosen)]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_axe_violation_on_any_page(new_visit, scheme):
    tab = new_visit(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    history = next(lc for lc in LIFECYCLES.values() if lc.has_history)
    urls = [*_one_page_of_each_kind(_nav_urls(tab)), tab.base_url + f"features/{history.id}/", tab.base_url + "releases/0.1/"]
    if scheme == "dark":  # colours are the only difference: one page of each template is enough
        urls = [
            url
            for url in urls
            if url.endswith(("/releases/0.1/", "/matrix/", "/topics/cuda/", f"/{ATLAS.releases[-1].version}/", "/platforms/", "/upgrade/"))
        ]
        urls.append(tab.base_url + f"features/{history.id}/")
    found = []
    for url in urls:
        tab.page.goto(url, wait_until="load")
        expected = "slate" if scheme == "dark" else "default"
        assert tab.page.evaluate("() => document.body.getAttribute('data-md-color-scheme')") == expected
        found += _serious_violations(tab.page)
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    "path",
    [
        "releases/1.10/",
        f"releases/{ATLAS.releases[-1].version}/",
        "matrix/?sort=latest",
        "will-it-run/",
        "platforms/",
        "reference/needs/",
        "reference/diff/?from=2.0&to=2.1",
    ],
)
def test_no_serious_axe_violation_on_a_phone(new_visit, path):
    """On a 375 px screen tables scroll inside their boxes, which a keyboard must reach, and grids sort with buttons."""
    tab = new_visit(**PHONE)
    tab.open(path)
    tab.page.wait_for_timeout(300)  # the theme sets up the page after load
    found = _serious_violations(tab.page)
    assert not found, "\n".join(found)


def test_palette_toggle_switches_scheme(visit):
    visit.open("releases/1.10/")
    scheme = "() => document.body.getAttribute('data-md-color-scheme')"
    before = visit.page.evaluate(scheme)
    visit.page.locator("form.atlas-palette label:visible").first.click()
    visit.page.wait_for_function(f"() => ({scheme})() !== {before!r}")
    after = visit.page.evaluate(scheme)
    assert after in ("default", "slate")
    # The theme eases colours into the new scheme: audit the colours it arrives at, not those of the way there
    visit.page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    assert _serious_violations(visit.page) == []
    visit.open("matrix/")  # the choice is kept from page to page
    assert visit.page.evaluate(scheme) == after
    assert visit.page.locator("form.atlas-palette label:visible").count() == 1


# Each element with role=dialog (shown or not) and its accessible name: aria-label, else the text of the elements its
# aria-labelledby names.
DIALOG_NAMES = """dialogs => dialogs.map(dialog => {
  const labelledBy = (dialog.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean);
  const byIds = labelledBy.map(id => document.getElementById(id)?.textContent.trim() || '').join(' ').trim();
  return [dialog.className, (dialog.getAttribute('aria-label') || '').trim() || byIds];
})"""


@pytest.mark.parametrize(("path", "name"), [("releases/1.10/", "Search"), ("zh/releases/2.14/", "查找")])
def test_every_dialog_has_a_name_in_the_page_language(visit, path, name):
    """Material's search overlay is a dialog (role=dialog): it has a name, in the page's language (Lighthouse's and
    axe's `aria-dialog-name`; overrides/partials/search.html). Dialogs hidden until opened are read as well."""
    visit.open(path)
    dialogs = visit.page.get_by_role("dialog", include_hidden=True)
    assert dialogs.count() >= 1
    named = dialogs.evaluate_all(DIALOG_NAMES)
    assert [label for _, label in named if not label] == [], named
    assert named == [["md-search", name]]


def test_stability_is_told_in_text_not_only_colour(visit):
    visit.open("releases/1.10/")
    labels = visit.page.eval_on_selector_all(".atlas-stage", "badges => badges.map(b => b.textContent.trim())")
    assert labels and set(labels) <= {*map(ATLAS.labels.shown, ATLAS.labels.order), "Deprecated", "Removed"}


# Each visible field inside a page's content, with the contrast of its edge against the page (WCAG 1.4.11).
FIELD_EDGES = """() => {
  const rgba = text => { const [r, g, b, a = 1] = text.match(/[\\d.]+/g).map(Number); return [r, g, b, a]; };
  const over = ([r, g, b, a], [R, G, B]) => [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a)];
  const luminance = rgb => { const [r, g, b] = rgb.map(c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
                             return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const page = over(rgba(getComputedStyle(document.body).backgroundColor), [255, 255, 255]);
  const fields = document.querySelectorAll('.md-content :is(input:not([type=hidden], [type=checkbox], [type=radio]), select, textarea)');
  return [...fields].filter(field => field.getClientRects().length).map(field => {
    const style = getComputedStyle(field);
    const edge = over(rgba(style.borderTopColor), page);
    const [light, dark] = [luminance(edge), luminance(page)].sort((x, y) => y - x);
    const visible = style.borderTopStyle !== 'none' && parseFloat(style.borderTopWidth) >= 1;
    return [field.name || field.id, visible ? (light + 0.05) / (dark + 0.05) : 0];
  });
}"""


@pytest.mark.parametrize(
    "path", ["", "matrix/", "upgrade/", "releases/2.14/", "will-it-run/", "reference/", "reference/needs/", "zh/matrix/"]
)
def test_every_form_field_shows_its_edge(visit, path):
    """A text box or a menu is told from the page by a border a reader can see: 3:1 against the page at least."""
    visit.open(path)
    edges = visit.page.evaluate(FIELD_EDGES)
    assert edges and [(name, round(ratio, 2)) for name, ratio in edges if ratio < 3] == []


# Page kinds the navigation does not list: a feature's history, an API module, an error.
UNLISTED_KINDS = ["features/torch-compile/", "reference/torch.nn.functional/", "errors/no-kernel-image/"]


@pytest.mark.parametrize("home", ["", "zh/"])
def test_no_page_scrolls_sideways_on_a_phone(new_visit, home):
    """Every page of each edition's navigation, and one of each kind it does not list, fits a 375 px screen."""
    tab = new_visit(**PHONE)
    urls = _nav_urls(tab, home)
    assert len(urls) > 40 and all(url.startswith(tab.base_url + home) for url in urls)
    urls += [tab.base_url + home + path for path in UNLISTED_KINDS]
    tab.page.set_viewport_size({"width": 375, "height": 740})
    wide = []
    for url in urls:
        tab.page.goto(url, wait_until="load")
        overflow = sideways_overflow(tab.page)
        if overflow > 0:
            wide.append(f"{url}: {overflow}px")
    assert not wide, wide
    assert not tab.console_errors


def test_wide_tables_scroll_inside_their_box_on_a_phone(new_visit):
    tab = new_visit(viewport={"width": 375, "height": 740}, is_mobile=True)
    tab.open("platforms/")
    box = tab.page.evaluate(
        """() => { const box = document.querySelector('.atlas-table-scroll');
                   return [box.scrollWidth > box.clientWidth, getComputedStyle(box).overflowX]; }"""
    )
    assert box == [True, "auto"]
