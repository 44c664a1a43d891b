"""The duplicate-id check finds one feature filed under two ids, and the real data passes it."""

from __future__ import annotations

import dataclasses

from macros.data.model import DistinctPair
from macros.views.joins import likely_duplicates


def _retitled(atlas, version: str, feature_id: str, title: str):
    """The atlas with one feature of one release given another title."""
    releases = []
    for release in atlas.releases:
        if release.version == version:
            features = tuple(dataclasses.replace(f, title=title) if f.id == feature_id else f for f in release.features)
            release = dataclasses.replace(release, features=features)
        releases.append(release)
    return dataclasses.replace(atlas, releases=tuple(releases))


def test_mini_data_has_no_likely_duplicates(mini_atlas):
    assert likely_duplicates(mini_atlas) == []


def test_a_look_alike_title_in_a_later_release_is_reported(mini_atlas):
    atlas = _retitled(mini_atlas, "2.10", "delta", "gamma")
    [duplicate] = likely_duplicates(atlas)
    assert (duplicate.first, duplicate.second) == ("delta", "gamma")
    assert duplicate.reason == "the titles are nearly the same"


def test_the_same_api_name_under_two_ids_is_reported(mini_atlas):
    atlas = _retitled(_retitled(mini_atlas, "2.0", "gamma", "`torch.widget` module"), "2.10", "delta", "Faster `torch.widget()`")
    [duplicate] = likely_duplicates(atlas)
    assert (duplicate.first, duplicate.second, duplicate.reason) == ("delta", "gamma", "both titles name `torch.widget`")


def test_a_reviewed_homonym_is_not_reported(mini_atlas):
    atlas = _retitled(mini_atlas, "2.10", "delta", "Gamma")
    reviewed = dataclasses.replace(atlas, distinct=(DistinctPair(ids=("gamma", "delta"), reason="two different things"),))
    assert likely_duplicates(reviewed) == []


def test_features_of_one_release_are_never_duplicates_of_each_other(mini_atlas):
    assert likely_duplicates(_retitled(mini_atlas, "2.0", "gamma", "Alpha")) == []


def test_real_data_has_no_likely_duplicate_ids(real_atlas):
    duplicates = likely_duplicates(real_atlas)
    assert not duplicates, "one feature under two ids (fix the ids, or review the pair in data/distinct.yaml):\n" + "\n".join(
        map(str, duplicates)
    )


def test_an_api_name_that_many_features_mention_is_context_not_identity(mini_atlas):
    atlas = _retitled(mini_atlas, "2.0", "gamma", "Faster `torch.compile` warm-up")
    atlas = _retitled(atlas, "2.10", "delta", "`torch.compile` on Windows")
    atlas = _retitled(atlas, "2.0", "beta-thing", "`torch.compile` for optimizers")
    assert likely_duplicates(atlas) == []
