"""Search, the feature matrix filters and the upgrade view, used as a reader would."""

from __future__ import annotations

import re

import pytest

from macros.data.loading import load_atlas
from macros.views import indexes
from macros.views.urls import site_path
from tests.browser.conftest import PHONE, in_view
from tests.conftest import REAL_DATA

ATLAS = load_atlas(REAL_DATA)
LIFECYCLES = indexes.build_lifecycles(ATLAS)


@pytest.mark.parametrize(
    ("query", "version", "feature_id"),
    [
        ("ZeroRedundancyOptimizer", "1.10", "zero-redundancy-optimizer"),
        ("CUDA Graphs", "1.10", "cuda-graphs"),
        ("torch.fft", "1.7", "torch-fft"),
    ],
)
def test_search_finds_a_feature_and_opens_it(visit, query, version, feature_id):
    assert ATLAS.release(version).feature(feature_id)
    visit.open("")
    target = re.compile(rf"/releases/{re.escape(version)}/(\?[^#]*)?#{feature_id}$")
    hrefs = visit.search(query)
    position = next(i for i, href in enumerate(hrefs) if target.search(href))
    result = visit.page.locator(".md-search-result__link").nth(position)
    if not result.is_visible():  # sections beyond the first few sit under "more on this page"
        result.locator("xpath=ancestor::details/summary").click()
    result.click()
    visit.page.wait_for_url(target)
    assert in_view(visit.page, feature_id)
    assert not visit.console_errors


def _search_index_requests(visit) -> list[str]:
    return [url for url in visit.requests if url.endswith("/search/search_index.json")]


def test_the_search_index_is_downloaded_only_once_a_phone_reader_taps_the_search(new_visit):
    visit = new_visit(**PHONE)
    visit.open("zh/releases/2.14/")
    visit.settle()
    assert _search_index_requests(visit) == [], "a reader who never searches does not download the index"
    visit.page.locator("label.md-header__button[for=__search]").tap()
    visit.page.locator("input.md-search__input").press_sequentially("TorchScript", delay=30)
    visit.page.locator(".md-search-result__link").first.wait_for(timeout=15000)
    assert _search_index_requests(visit) == [visit.base_url + "zh/search/search_index.json"]
    hrefs = visit.page.eval_on_selector_all(".md-search-result__link", "links => links.map(a => a.href)")
    assert all("/zh/" in href for href in hrefs)
    assert not visit.console_errors


def test_the_search_key_and_a_search_address_load_the_index_and_find(visit):
    visit.open("releases/1.10/")
    visit.settle()
    assert _search_index_requests(visit) == []
    visit.page.keyboard.press("/")  # the theme's key for the search
    visit.page.keyboard.type("ZeroRedundancyOptimizer", delay=30)
    visit.page.locator(".md-search-result__link").first.wait_for(timeout=15000)
    assert _search_index_requests(visit) == [visit.base_url + "search/search_index.json"]
    visit.open("?q=cuda+graphs")  # an address that asks for a search is answered on arrival
    visit.page.locator(".md-search-result__link").first.wait_for(timeout=15000)


def test_a_result_address_highlights_its_words_without_opening_the_search(visit):
    visit.open("releases/1.10/?h=graphs#cuda-graphs")  # where a search result leads: the theme marks the words searched
    visit.page.locator("mark[data-md-highlight]").first.wait_for(timeout=15000)
    assert "graph" in visit.page.locator("mark[data-md-highlight]").first.inner_text().lower()
    assert not visit.page.evaluate("document.querySelector('[data-md-toggle=search]').checked")


def test_markup_in_a_highlighting_address_stays_text(visit):
    # `?h=` now loads the search index, and so runs the theme's highlighter, on arrival, without the reader's action
    visit.open("releases/1.10/?h=graphs+%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D1%3E#cuda-graphs")
    visit.page.locator("mark[data-md-highlight]").first.wait_for(timeout=15000)
    assert visit.page.evaluate("() => window.__pwned") is None
    assert visit.page.locator("article img[src=x], mark img").count() == 0
    assert not visit.console_errors


def _row_link(visit, lifecycle: indexes.Lifecycle) -> str:
    """The address a matrix row's feature name links to."""
    return visit.base_url + site_path(lifecycle.doc_path)


def _visible_matrix_rows(page) -> list[str]:
    return page.eval_on_selector_all("#matrix-table tbody tr:not([hidden]) th a", "links => links.map(a => a.href)")


def test_matrix_filters_live_in_the_url(visit):
    visit.open("matrix/")
    all_rows = _visible_matrix_rows(visit.page)
    assert len(all_rows) == len(LIFECYCLES)
    visit.page.select_option("select[name=topic]", "cuda")
    assert "topic=cuda" in visit.page.url
    expected = sorted(_row_link(visit, lc) for lc in LIFECYCLES.values() if "cuda" in lc.topics)
    assert sorted(_visible_matrix_rows(visit.page)) == expected
    visit.page.select_option("select[name=stage]", "Beta")
    shared = visit.page.url
    assert "stage=Beta" in shared
    expected_beta = sorted(
        _row_link(visit, lc) for lc in LIFECYCLES.values() if "cuda" in lc.topics and any(s.stage == "Beta" for s in lc.stages)
    )
    visit.page.goto(shared)  # a shared link restores the same view
    assert visit.page.input_value("select[name=topic]") == "cuda"
    assert sorted(_visible_matrix_rows(visit.page)) == expected_beta
    assert not visit.console_errors


def test_the_matrix_narrows_to_the_names_typed_and_keeps_them_in_the_url(visit):
    visit.open("matrix/")
    visit.page.fill("input[name=text]", "fft")
    expected = sorted(_row_link(visit, lc) for lc in LIFECYCLES.values() if "fft" in lc.title.lower())
    assert expected and sorted(_visible_matrix_rows(visit.page)) == expected
    assert "text=fft" in visit.page.url
    visit.page.goto(visit.page.url)
    assert visit.page.input_value("input[name=text]") == "fft" and sorted(_visible_matrix_rows(visit.page)) == expected


def test_a_wide_table_keeps_its_first_column_in_view_on_a_phone(new_visit):
    tab = new_visit(**PHONE)
    tab.open("platforms/")
    table = tab.page.locator("#by-release ~ .atlas-table-scroll table").first
    first, second = (table.locator("tbody tr").first.locator("td").nth(n) for n in (0, 1))
    before, second_before = first.bounding_box()["x"], second.bounding_box()["x"]
    scroller = table.evaluate_handle("t => t.closest('.md-typeset__scrollwrap')")  # the theme's box that scrolls a table
    assert scroller.evaluate("box => box.scrollWidth - box.clientWidth") > 200  # the table is wider than the phone
    scroller.evaluate("box => { box.scrollLeft = 200; }")
    assert 0 <= first.bounding_box()["x"] <= before  # the first column stays at the box's left edge
    assert second.bounding_box()["x"] < second_before - 150  # while the others scroll under it


def test_matrix_reads_fully_without_javascript(new_visit):
    tab = new_visit(java_script_enabled=False)
    tab.open("matrix/")
    assert tab.page.locator("#matrix-table tbody tr").count() == len(LIFECYCLES)
    assert tab.page.locator("#matrix-table tbody tr:visible").count() == len(LIFECYCLES)


def _expected_upgrade_links(start: str, target: str) -> list[str]:
    steps = indexes.upgrade_path(indexes.upgrade_steps(ATLAS, LIFECYCLES), start, target)
    links = []
    for step in steps:
        links += [f"releases/{step.release.version}/#{c.id}" for c in step.changes]
        links += [f"releases/{step.release.version}/#{m.feature_id}" for m in step.stage_changes]
    return links


@pytest.mark.parametrize(("start", "target"), [("1.4", "1.7"), ("1.7", "1.12"), ("1.4", "1.12"), ("1.10", "1.12")])
def test_upgrade_view_for_a_pair_matches_the_data(visit, start, target):
    visit.open(f"upgrade/?from={start}&to={target}")
    visit.page.wait_for_function("() => document.querySelector('output[name=summary]').value !== ''")
    shown = visit.page.eval_on_selector_all(".atlas-step:not([hidden]) li a", "links => links.map(a => a.href)")
    shown = [re.sub(r"^.*?/pytorch-release-atlas/", "", href) for href in shown]
    assert shown == _expected_upgrade_links(start, target)
    assert visit.page.input_value("select[name=from]") == start
    assert visit.page.input_value("select[name=to]") == target
    assert not visit.console_errors


def test_upgrade_choice_updates_the_url(visit):
    visit.open("upgrade/")
    visit.page.select_option("select[name=from]", "1.7")
    visit.page.select_option("select[name=to]", "1.10")
    assert re.search(r"\?from=1\.7&to=1\.10", visit.page.url)
    between = indexes.upgrade_path(indexes.upgrade_steps(ATLAS, LIFECYCLES), "1.7", "1.10")
    assert visit.page.locator(".atlas-step:not([hidden])").count() == len(between) == 3  # 1.8, 1.9 and 1.10
