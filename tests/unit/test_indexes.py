"""Lifecycles, upgrade paths, topic indexes and platform lookups, checked against hand-written expectations."""

from __future__ import annotations

import pytest

from macros.views import indexes


def _stages(lifecycle: indexes.Lifecycle) -> list[tuple[str, str]]:
    return [(s.version, s.stage) for s in lifecycle.stages]


def test_releases_sort_numerically(mini_atlas):
    assert [r.version for r in mini_atlas.releases] == ["2.0", "2.1", "2.10"]
    assert [r.version for r in mini_atlas.newest_first] == ["2.10", "2.1", "2.0"]


def test_lifecycles_follow_one_id_across_releases(mini_atlas):
    lifecycles = indexes.build_lifecycles(mini_atlas)
    assert _stages(lifecycles["alpha"]) == [("2.0", "Prototype"), ("2.1", "Beta"), ("2.10", "Stable")]
    assert _stages(lifecycles["beta-thing"]) == [("2.0", "Beta"), ("2.1", "Stable")]
    assert _stages(lifecycles["gamma"]) == [("2.0", "Stable"), ("2.10", "Deprecated")]
    assert _stages(lifecycles["delta"]) == [("2.10", "Prototype")]
    assert set(lifecycles) == {"alpha", "beta-thing", "gamma", "delta"}


def _path(mini_atlas, start: str, target: str) -> tuple[list[str], list[tuple[str, str, str]]]:
    steps = indexes.upgrade_steps(mini_atlas, indexes.build_lifecycles(mini_atlas))
    chosen = indexes.upgrade_path(steps, start, target)
    changes = [c.id for step in chosen for c in step.changes]
    moved = [(m.feature_id, m.before, m.after) for step in chosen for m in step.stage_changes]
    return changes, moved


@pytest.mark.parametrize(
    ("start", "target", "changes", "moved"),
    [
        ("2.0", "2.1", ["c-one"], [("alpha", "Prototype", "Beta"), ("beta-thing", "Beta", "Stable")]),
        ("2.1", "2.10", ["gamma", "c-two"], [("alpha", "Beta", "Stable"), ("gamma", "Stable", "Deprecated")]),
        (
            "2.0",
            "2.10",
            ["c-one", "gamma", "c-two"],
            [
                ("alpha", "Prototype", "Beta"),
                ("beta-thing", "Beta", "Stable"),
                ("alpha", "Beta", "Stable"),
                ("gamma", "Stable", "Deprecated"),
            ],
        ),
    ],
)
def test_upgrade_path_lists_changes_and_stage_moves(mini_atlas, start, target, changes, moved):
    assert _path(mini_atlas, start, target) == (changes, moved)


def test_upgrade_path_refuses_a_downgrade(mini_atlas):
    steps = indexes.upgrade_steps(mini_atlas, indexes.build_lifecycles(mini_atlas))
    with pytest.raises(ValueError, match="older release to a newer one"):
        indexes.upgrade_path(steps, "2.10", "2.1")


def test_topic_lifecycles_put_the_newest_first(mini_atlas):
    lifecycles = indexes.build_lifecycles(mini_atlas)
    assert [lc.id for lc in indexes.topic_lifecycles(mini_atlas, lifecycles, "cuda")] == ["alpha"]
    assert [lc.id for lc in indexes.topic_lifecycles(mini_atlas, lifecycles, "fft")] == ["beta-thing"]


def test_topic_entries_group_by_release_newest_first(mini_atlas):
    entries = indexes.topic_entries(mini_atlas, "cuda")
    assert [(r.version, [f.id for f in fs], [c.id for c in cs]) for r, fs, cs in entries] == [
        ("2.10", ["alpha"], []),
        ("2.1", ["alpha"], ["c-one"]),
        ("2.0", ["alpha"], []),
    ]


def _releases(lookup: dict[str, list[indexes.Support]]) -> dict[str, list[str]]:
    return {version: [s.release + (" (experimental)" if s.experimental else "") for s in found] for version, found in lookup.items()}


def test_platform_reverse_lookup(mini_atlas):
    assert _releases(indexes.platform_lookup(mini_atlas, "cuda")) == {"11.8": ["2.0", "2.1"], "12.1": ["2.1"]}
    python = {"3.9": ["2.0"], "3.10": ["2.0", "2.1"], "3.11": ["2.1", "2.10"], "3.12": ["2.1"]}  # 3.12 came with patch 2.1.1
    assert _releases(indexes.platform_lookup(mini_atlas, "python")) == python
    assert _releases(indexes.platform_lookup(mini_atlas, "rocm")) == {"6.0": ["2.1"]}


def test_platform_lookups_count_experimental_builds_and_free_threaded_pythons(real_atlas):
    cuda = _releases(indexes.platform_lookup(real_atlas, "cuda"))
    assert "2.7 (experimental)" in cuda["12.8"] and "2.8" in cuda["12.8"]  # 2.7's own title names CUDA 12.8
    python = _releases(indexes.platform_lookup(real_atlas, "python"))
    assert {"2.2 (experimental)", "2.3 (experimental)", "2.4"} <= set(python["3.12"])
    assert python["3.13t"][0] == "2.6" and "2.12" in python["3.13t"]  # free-threaded wheels, in their own row
    versions = list(python)
    assert versions.index("3.13") + 1 == versions.index("3.13t")  # right after the regular build


def test_only_a_feature_with_a_history_has_a_page_of_its_own(mini_atlas):
    lifecycles = indexes.build_lifecycles(mini_atlas)
    assert lifecycles["alpha"].doc_path == "features/alpha.md"
    assert lifecycles["gamma"].doc_path == "features/gamma.md"  # one release, then deprecated by a later one
    assert lifecycles["delta"].doc_path == "releases/2.10.md#delta"


def test_grid_rows_merge_neighbouring_releases_without_the_feature(mini_atlas):
    lifecycles = indexes.build_lifecycles(mini_atlas)
    versions = ["1.8", "1.9", "2.0", "2.1", "2.5", "2.6", "2.10"]
    columns = [indexes.GridColumn((version,)) for version in versions]
    row = indexes.grid_row(lifecycles["gamma"], columns, not_covered=["2.5"])
    assert [(c.version, c.stage, c.span, c.not_covered) for c in row] == [
        ("1.8", None, 2, False),
        ("2.0", "Stable", 1, False),
        ("2.1", None, 1, False),
        ("2.5", None, 1, True),  # a release outside the atlas keeps its own "n/c" cell
        ("2.6", None, 1, False),
        ("2.10", "Deprecated", 1, False),
    ]
    assert sum(cell.span for cell in row) == len(columns)


def test_grid_columns_fold_releases_where_no_row_has_a_stage_into_one_gap(mini_atlas):
    lifecycles = indexes.build_lifecycles(mini_atlas)
    versions = ["2.0", "2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "2.7", "2.8", "2.9", "2.10", "2.11"]
    columns = indexes.grid_columns([lifecycles["gamma"], lifecycles["beta-thing"]], versions, not_covered=["2.5"])
    assert [(c.label, c.gap) for c in columns] == [
        ("2.0", False),
        ("2.1", False),
        ("2.2–2.4", True),
        ("2.5", False),  # not covered: its own "n/c" column, never folded into a gap
        ("2.6–2.9", True),
        ("2.10", False),
        ("2.11", True),  # a gap of one release after the last stage: the grid still reaches the newest release
    ]
    row = indexes.grid_row(lifecycles["beta-thing"], columns, not_covered=["2.5"])
    assert [(c.version, c.stage, c.gap, c.not_covered) for c in row] == [
        ("2.0", "Beta", False, False),
        ("2.1", "Stable", False, False),
        ("2.2–2.4", None, True, False),  # a gap is a cell of its own, never merged with a release's blank cell
        ("2.5", None, False, True),
        ("2.6–2.9", None, True, False),
        ("2.10", None, False, False),
        ("2.11", None, True, False),
    ]


def test_a_release_overview_counts_entries_by_topic_then_those_about_none(mini_atlas):
    overview = indexes.release_overview(mini_atlas, mini_atlas.release("2.10"))
    assert [(o.topic, o.stages, o.kinds) for o in overview] == [
        ("cuda", {"Stable": 1}, {}),
        (None, {"Prototype": 1}, {"breaking": 1, "deprecation": 1}),
    ]
