"""The views for reading the atlas at full size, used as a reader would at 1280 px and on a 375 px phone."""

from __future__ import annotations

import re

import pytest

from macros.data.loading import load_atlas
from macros.views import indexes
from tests.browser.conftest import PHONE, sideways_overflow
from tests.conftest import REAL_DATA

ATLAS = load_atlas(REAL_DATA)
LIFECYCLES = indexes.build_lifecycles(ATLAS)
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
NAMES_IN_VIEW = """grid => { const box = grid.closest('.atlas-grid-scroll').getBoundingClientRect();
    const name = grid.tBodies[0].rows[0].cells[0].getBoundingClientRect();
    const head = grid.tHead.rows[0].cells[1].getBoundingClientRect();
    return {nameLeft: name.left - box.left, headTop: head.top - box.top}; }"""


@pytest.mark.parametrize("options", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("path", ["matrix/", "topics/distributed/"])
def test_grid_keeps_names_and_releases_in_view_while_it_scrolls_inside_itself(new_visit, options, path):
    tab = new_visit(**options)
    tab.open(path)
    grid = tab.page.locator(".atlas-grid").first
    box = tab.page.locator(".atlas-grid-scroll").first
    box.scroll_into_view_if_needed()
    assert box.evaluate("b => b.scrollWidth > b.clientWidth"), "the grid is wider than its box"
    # it opens at its start: each feature with its first release and latest stage, oldest releases next
    assert box.evaluate("b => b.scrollLeft") == 0
    latest = grid.locator("tbody tr").first.locator("td.g-latest")
    assert latest.evaluate("(td, b) => td.getBoundingClientRect().right <= b.getBoundingClientRect().right", box.element_handle())
    box.evaluate("b => { b.scrollTop = 400; }")
    start = grid.evaluate(NAMES_IN_VIEW)
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    end = grid.evaluate(NAMES_IN_VIEW)
    assert abs(start["nameLeft"]) <= 1 and abs(end["nameLeft"]) <= 1, (start, end)  # the names column stays put
    assert abs(end["headTop"]) <= 1, end  # the release numbers stay at the top
    assert sideways_overflow(tab.page) <= 0
    assert not tab.console_errors


def test_grid_rows_sort_by_plain_title_and_cells_say_the_stage_in_words(visit):
    visit.open("matrix/")
    names = visit.page.eval_on_selector_all("#matrix-table tbody th a", "links => links.map(a => a.textContent)")
    assert names == sorted(names, key=lambda name: name.lstrip("\"'([").casefold())
    torch_fft = visit.page.locator("#matrix-table tbody tr", has=visit.page.locator("a[href$='features/torch-fft/']"))
    # A run of releases without the feature is one blank cell spanning them; spread each cell over its columns.
    cells = torch_fft.locator("td").evaluate_all("tds => tds.flatMap(td => Array(td.colSpan).fill(td.innerText.trim()))")
    columns = indexes.grid_columns(LIFECYCLES.values(), indexes.release_columns(ATLAS), indexes.missing_releases(ATLAS))
    labels = ["since", "latest", *(column.label for column in columns)]
    assert cells[labels.index("since")] == "1.7" and cells[labels.index("latest")] == "Stable 1.8"
    assert cells[labels.index("1.7")] == "Beta" and cells[labels.index("1.8")] == "Stable"
    assert cells[labels.index("1.6")] == ""


def test_component_filter_tells_core_from_domain_libraries(visit):
    visit.open("matrix/?component=domain-libraries")
    shown = visit.page.eval_on_selector_all("#matrix-table tbody tr:not([hidden])", "rows => rows.map(r => r.dataset.component)")
    assert shown and "pytorch" not in shown
    assert len(shown) == sum(lc.component != "pytorch" for lc in LIFECYCLES.values())


def test_feature_page_shows_the_whole_history_and_its_badge(visit):
    lifecycle = LIFECYCLES["zero-redundancy-optimizer"]
    visit.open("features/zero-redundancy-optimizer/")
    rows = visit.page.locator("#history ~ table tbody tr, table tbody tr").all_inner_texts()
    assert [row.split("\t")[0].strip() for row in rows][: len(lifecycle.stages)] == [f"PyTorch {s.version}" for s in lifecycle.stages]
    milestones = visit.page.locator(".atlas-milestones").inner_text()
    assert "Since PyTorch 1.8" in milestones and "Stable since PyTorch 1.10" in milestones
    badge = visit.page.locator("img[src$='badge.svg']")
    assert badge.evaluate("img => img.complete && img.naturalWidth > 0")
    assert not visit.console_errors


def test_previous_and_next_release_links_step_through_the_releases(visit):
    visit.open("releases/1.10/")
    visit.settle()
    visit.page.locator(".atlas-prevnext a[rel=next]").click()
    visit.page.wait_for_url(re.compile(r"/releases/1\.11/$"))
    # wait for 1.11's page itself, not only its address, before clicking its link
    visit.page.wait_for_function("() => document.querySelector('h1').textContent.startsWith('PyTorch 1.11')")
    visit.page.locator(".atlas-prevnext a[rel=prev]").click()
    visit.page.wait_for_url(re.compile(r"/releases/1\.10/$"))
    visit.page.wait_for_function("() => document.querySelector('h1').textContent.startsWith('PyTorch 1.10')")
    assert "Upgrading to 1.10 from 1.9" in visit.page.locator(".admonition").first.inner_text()


def test_upgrade_from_the_oldest_to_the_newest_release_shows_every_release_in_between(visit):
    first, last = ATLAS.releases[0].version, ATLAS.releases[-1].version
    visit.open(f"upgrade/?from={first}&to={last}")
    shown = visit.page.eval_on_selector_all(".atlas-step:not([hidden])", "steps => steps.map(s => s.dataset.version)")
    assert shown == [r.version for r in ATLAS.releases[1:]]


def _releases_mentioning(text: str) -> set[str]:
    """The release pages whose data mentions `text`, case-insensitively."""
    found = set()
    for release in ATLAS.releases:
        words = " ".join(f"{i.title} {i.summary} {i.details}" for i in release.features)
        words += " ".join(f"{e.code}" for e in (f.example for f in release.features) if e)
        words += " ".join(f"{c.title} {c.summary} {c.before} {c.after}" for c in release.changes)
        if text.casefold() in words.casefold():
            found.add(f"/releases/{release.version}/")
    return found


@pytest.mark.parametrize(
    "query", ["allow_tf32", "channels_last", "set_float32_matmul_precision", "torch.backends.cuda.matmul", "FlexAttention"]
)
def test_search_finds_api_identifiers_whole_or_in_part(visit, query):
    expected = _releases_mentioning(query)
    assert expected, f"the data mentions {query}"
    visit.open("")
    hrefs = [href.split("?")[0].split("#")[0] for href in visit.search(query)]
    on_a_page_about_it = [href for href in hrefs[:10] if "/features/" in href or any(href.endswith(page) for page in expected)]
    assert on_a_page_about_it, (expected, hrefs[:10])  # a release that mentions it, or the feature's own page
    assert "contributing" not in hrefs[0]


def test_breaking_changes_search_ranks_data_pages_above_the_guides(visit):
    visit.open("")
    first = visit.search("breaking")[0]
    assert "/releases/" in first or "/features/" in first, first  # a release or a feature's history, not a guide


def test_companion_lookup_answers_the_reverse_question(visit):
    visit.open("platforms/#torchvision-0-20")
    row = visit.page.locator("#torchvision-0-20").locator("xpath=ancestor::tr")
    assert row.inner_text().split("\t")[-1].strip() == "2.5"


def test_upgrade_summary_counts_each_kind_and_the_contents_follow_the_choice(visit):
    visit.open("upgrade/?from=1.12&to=2.0")
    steps = indexes.upgrade_path(indexes.upgrade_steps(ATLAS, LIFECYCLES), "1.12", "2.0")
    kinds = {kind: sum(c.kind == kind for s in steps for c in s.changes) for kind in ("breaking", "deprecation", "removal")}
    moved = sum(len(s.stage_changes) for s in steps)
    summary = visit.page.locator("output[name=summary]").evaluate("output => output.value")
    assert summary == (
        f"From 1.12 to 2.0: {kinds['breaking']} backwards-incompatible changes, {kinds['deprecation']} deprecations, "
        f"{kinds['removal']} removals, {moved} stage changes"
    )
    toc = visit.page.eval_on_selector_all(
        ".md-nav--secondary a[href*='#to-']", "links => links.filter(a => !a.closest('[hidden]')).map(a => a.hash)"
    )
    assert list(dict.fromkeys(toc)) == ["#to-1-13", "#to-2-0"]  # the theme repeats the contents for small screens


def test_a_code_block_has_its_copy_button_once_it_comes_into_view(visit):
    visit.open("releases/1.10/")
    block = visit.page.locator("article .highlight").last  # far below the first screen
    block.scroll_into_view_if_needed()
    block.locator("button.md-code__button[data-md-type=copy]").wait_for(state="visible", timeout=5000)
    assert not visit.console_errors
