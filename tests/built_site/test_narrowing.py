"""Grids that show where features happened, and release pages a reader can narrow: checked in the built HTML."""

from __future__ import annotations

import html
import re

import pytest

from macros.data.loading import load_atlas
from macros.views import indexes
from tests.conftest import REAL_DATA
from tests.support.html import parse

ATLAS = load_atlas(REAL_DATA)
LIFECYCLES = indexes.build_lifecycles(ATLAS)


def _table(page_html: str, table_id: str) -> str:
    return re.search(rf'<table class="atlas-grid" id="{table_id}">(.*?)</table>', page_html, re.S).group(1)


def _expand(gap: str) -> list[str]:
    """The releases a gap's label such as "2.0–2.4" stands for."""
    first, _, last = gap.partition("–")
    versions = indexes.release_columns(ATLAS)
    return versions[versions.index(first) : versions.index(last or first) + 1]


def _text(cell: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()


@pytest.mark.parametrize("topic", [topic.id for topic in ATLAS.topics])
def test_a_topic_grid_shows_the_releases_its_features_have_stages_in_and_folds_the_rest(built_site, topic):
    chosen = indexes.topic_lifecycles(ATLAS, LIFECYCLES, topic)
    assert chosen, f"no feature is about {topic}"
    table = _table(built_site.page(f"topics/{topic}/").read_text(encoding="utf-8"), f"grid-{topic}")
    cells = re.findall(r'<th scope="col"( class="g-gap")?[^>]*>(.*?)</th>', table, re.S)
    headings = [_text(cell) for _, cell in cells]
    assert headings[:3] == ["Feature", "Since", "Latest"]
    staged = {stage.version for lifecycle in chosen for stage in lifecycle.stages}
    releases = [_text(cell) for gap, cell in cells[3:] if not gap]
    gaps = [_text(cell) for gap, cell in cells[3:] if gap]
    assert set(releases) - set(indexes.missing_releases(ATLAS)) <= staged, "a release column where no feature has a stage"
    assert staged <= set(releases), "a release where a feature has a stage is missing"
    assert headings[3] == min(staged, key=lambda v: tuple(map(int, v.split("."))))  # the grid starts at the first stage
    newest = ATLAS.newest_first[0].version
    assert headings[-1] == newest or headings[-1].endswith(newest)  # and reaches the newest release
    assert not any(_text(cell) == "–" for cell in re.findall(r"<td[^>]*>(.*?)</td>", table, re.S))  # blank, not a dash
    assert not {version for gap in gaps for version in _expand(gap)} & staged  # no gap hides a release with a stage


def test_the_fft_grid_folds_the_releases_after_its_last_stage_into_one_column(built_site):
    page_html = built_site.page("topics/fft/").read_text(encoding="utf-8")
    headings = [_text(cell) for cell in re.findall(r"<th scope=\"col\"[^>]*>(.*?)</th>", _table(page_html, "grid-fft"), re.S)]
    assert headings[-1] == f"1.13–{ATLAS.newest_first[0].version}", headings
    assert "hatched column: releases that mention none of these features" in page_html
    assert "blank: not mentioned in that release" in page_html


def test_matrix_rows_carry_the_first_release_and_latest_stage_they_sort_by(built_site):
    rows = [e.attrs for e in parse(built_site.page("matrix/")).elements if e.tag == "tr" and "data-since" in e.attrs]
    lifecycles = sorted(LIFECYCLES.values(), key=lambda lifecycle: lifecycle.sort_key)  # the matrix's own order
    assert len(rows) == len(lifecycles)
    order = indexes.stage_order(ATLAS)
    for attrs, lifecycle in zip(rows, lifecycles, strict=True):
        rank, version = attrs["data-latest"].split()
        assert attrs["data-since"] == lifecycle.stages[0].version, lifecycle.id
        assert (order[int(rank)], version) == (lifecycle.latest.stage, lifecycle.latest.version), lifecycle.id


@pytest.mark.parametrize("version", ["1.0", "1.10", "2.0", "2.14"])
def test_every_entry_of_a_release_page_carries_its_topics_and_kind_for_the_filters(built_site, version):
    release = ATLAS.release(version)
    page = parse(built_site.page(f"releases/{version}/"))
    entries = {e.attrs["id"]: e.attrs for e in page.elements if e.tag == "h3" and "data-kind" in e.attrs}
    assert sorted(entries) == sorted(entry.id for entry in release.entries)  # features by stage, then changes
    moved = {item.feature_id for item in indexes.stage_changes(ATLAS, LIFECYCLES)[version]}
    for entry in release.entries:
        attrs = entries[entry.id]
        assert attrs["data-topics"].split() == (list(entry.topics) or ["none"])
        kind = getattr(entry, "kind", "feature")
        assert attrs["data-kind"].split() == [kind, *(["moved"] if entry.id in moved else [])]
    assert "release-filters" in page.ids and "overview" in page.ids


def test_a_release_overview_counts_what_the_page_holds_by_topic(built_site):
    release = ATLAS.release("2.14")
    page_html = built_site.page("releases/2.14/").read_text(encoding="utf-8")
    overview = re.search(r'id="overview".*?<tbody>(.*?)</tbody>', page_html, re.S).group(1)
    rows = {
        _text(cells[0]): [_text(cell) for cell in cells[1:]]
        for cells in (re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in re.findall(r"<tr>(.*?)</tr>", overview, re.S))
    }
    cuda = [entry for entry in release.entries if "cuda" in entry.topics]
    features = sum(1 for entry in cuda if not hasattr(entry, "kind"))
    shown = sum(int(count) for count in re.findall(r"(\d+) ", rows["CUDA"][0] + " "))
    assert shown == features > 0
    assert f"{len(release.features)} features and {len(release.changes)} changes" in page_html


def test_a_release_recorded_without_entries_states_it_and_offers_no_empty_filter(built_site):
    empty = [release for release in ATLAS.releases if not release.entries]
    assert empty, "every release has entries: this test has nothing to check"
    for release in empty:
        page_html = built_site.page(f"releases/{release.version}/").read_text(encoding="utf-8")
        assert 'id="overview"' not in page_html and 'id="release-filters"' not in page_html
        assert "<td>none recorded</td>" in page_html
        assert release.coverage.note and not release.coverage.changes_complete
