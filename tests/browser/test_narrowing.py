"""Narrowing long views as a reader would: sorting a grid, filtering a release page and the upgrade page, kept in the URL."""

from __future__ import annotations

import re

import pytest

from macros.data.loading import load_atlas
from macros.views import indexes
from tests.browser.conftest import PHONE, sideways_overflow
from tests.conftest import REAL_DATA

ATLAS = load_atlas(REAL_DATA)
LIFECYCLES = indexes.build_lifecycles(ATLAS)
SHOWN_ENTRIES = "h3[data-kind]:not(.atlas-off)"


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def _shown_entries(visit) -> list[str]:
    """The ids of the entries a release page shows, sorted (the page orders features by stage)."""
    return sorted(visit.page.eval_on_selector_all(SHOWN_ENTRIES, "hs => hs.map(h => h.id)"))


def _row_attribute(visit, table: str, name: str) -> list[str]:
    return visit.page.eval_on_selector_all(f"{table} tbody tr:not([hidden])", f"rows => rows.map(r => r.dataset.{name})")


def test_the_matrix_sorts_by_first_release_both_ways_and_keeps_the_order_in_the_address(visit):
    visit.open("matrix/")
    heading = visit.page.locator("#matrix-table th[data-sort=since] button")
    heading.click()
    assert visit.page.url.endswith("?sort=since")
    since = _row_attribute(visit, "#matrix-table", "since")
    assert since == sorted(since, key=_version_key) and since[0] == "1.0"
    assert visit.page.locator("#matrix-table th[data-sort=since]").get_attribute("aria-sort") == "ascending"
    heading.click()  # a second click: newest first
    assert "sort=-since" in visit.page.url
    since = _row_attribute(visit, "#matrix-table", "since")
    newest = max((lc.stages[0].version for lc in LIFECYCLES.values()), key=_version_key)
    assert since == sorted(since, key=_version_key, reverse=True) and since[0] == newest
    assert not visit.console_errors


def test_a_linked_sort_by_latest_stage_groups_rows_in_the_legends_order_newest_first(visit):
    visit.open("matrix/?sort=latest&topic=fft")
    ranks = [value.split() for value in _row_attribute(visit, "#matrix-table", "latest")]
    keys = [(int(rank), tuple(-part for part in _version_key(version))) for rank, version in ranks]
    assert keys == sorted(keys) and len(keys) == sum("fft" in lc.topics for lc in LIFECYCLES.values())
    order = indexes.stage_order(ATLAS)
    legend = visit.page.locator(".atlas-grid-legend .atlas-stage").all_inner_texts()
    shown = [ATLAS.labels.shown(order[int(rank)]) for rank, _ in ranks]
    assert [stage for stage in legend if stage in shown] == list(dict.fromkeys(shown))


def test_a_topic_grid_sorts_on_a_phone_with_a_touch(new_visit):
    tab = new_visit(**PHONE)
    tab.open("topics/distributed/")
    button = tab.page.locator("#grid-distributed th[data-sort=since] button")
    box = button.bounding_box()
    assert box["height"] >= 24  # a touch target
    button.tap()
    since = _row_attribute(tab, "#grid-distributed", "since")
    assert since == sorted(since, key=_version_key)
    assert sideways_overflow(tab.page) <= 0


def test_a_release_page_shows_one_topic_and_one_kind_kept_in_the_address(visit):
    release = ATLAS.release("2.14")
    visit.open("releases/2.14/?topic=mps")
    about_mps = [entry.id for entry in release.entries if "mps" in entry.topics]
    assert _shown_entries(visit) == sorted(about_mps)
    assert visit.page.locator("#release-filters output").inner_text() == f"{len(about_mps)} of {len(release.entries)} entries shown"
    visit.page.select_option("#release-filters select[name=kind]", "breaking")
    assert re.search(r"\?topic=mps&kind=breaking", visit.page.url)
    wanted = [c.id for c in release.changes if "mps" in c.topics and c.kind == "breaking"]
    assert _shown_entries(visit) == sorted(wanted)
    # sections without a shown entry go, and so do their entries in the table of contents
    assert not visit.page.locator("#api-unstable-features").is_visible()
    toc = visit.page.locator(f'.md-nav--secondary a[href$="#{release.features[0].id}"]')
    assert toc.count() == 0 or not toc.first.is_visible()
    visit.page.select_option("#release-filters select[name=topic]", "")
    visit.page.select_option("#release-filters select[name=kind]", "")
    assert "?" not in visit.page.url
    assert visit.page.locator(SHOWN_ENTRIES).count() == len(release.entries)
    assert not visit.console_errors


def test_a_link_into_an_entry_that_the_filter_would_hide_shows_the_whole_page(visit):
    release = ATLAS.release("2.14")
    outside = next(f for f in release.features if "mps" not in f.topics)
    visit.open(f"releases/2.14/?topic=mps#{outside.id}")
    assert visit.page.locator(f"#{outside.id}").is_visible()
    assert visit.page.locator(SHOWN_ENTRIES).count() == len(release.entries)


def test_the_overview_links_a_topic_to_its_entries_on_the_page(visit):
    release = ATLAS.release("2.0")
    visit.open("releases/2.0/")
    visit.settle()
    visit.page.locator("#overview ~ table a, #overview ~ div table a", has_text="Distributed training").first.click()
    visit.page.wait_for_url(re.compile(r"\?topic=distributed#overview$"))
    wanted = [entry.id for entry in release.entries if "distributed" in entry.topics]
    visit.page.wait_for_function(f"() => document.querySelectorAll('{SHOWN_ENTRIES}').length === {len(wanted)}")
    assert _shown_entries(visit) == sorted(wanted)


def test_the_upgrade_page_shows_one_topic_kept_in_the_address(visit):
    visit.open("upgrade/?from=1.13&to=2.6&kind=breaking&topic=distributed")
    steps = indexes.upgrade_path(indexes.upgrade_steps(ATLAS, LIFECYCLES), "1.13", "2.6")
    wanted = [c.id for step in steps for c in step.changes if c.kind == "breaking" and "distributed" in c.topics]
    shown = visit.page.eval_on_selector_all(
        ".atlas-step:not([hidden]) li:not([hidden]) a[data-topics]", "links => links.map(a => a.hash.slice(1))"
    )
    assert shown == wanted and wanted
    summary = visit.page.locator("#upgrade-form output").inner_text()
    assert f"{len(wanted)} backwards-incompatible changes" in summary
    visit.page.select_option("#upgrade-form select[name=topic]", "")
    assert "topic=" not in visit.page.url


@pytest.mark.parametrize("path", ["releases/2.14/?topic=cuda&kind=feature", "upgrade/?topic=cuda", "matrix/?sort=-latest"])
def test_narrowed_views_fit_a_phone(new_visit, path):
    tab = new_visit(**PHONE)
    tab.open(path)
    assert sideways_overflow(tab.page) <= 0
    assert not tab.console_errors
