"""Loading builds the typed model; the real data satisfies every rule."""

from __future__ import annotations

from macros.data.loading import structure
from macros.data.model import Count, Feature


def test_mini_data_loads_into_the_model(mini_atlas):
    release = mini_atlas.release("2.1")
    assert release.date.isoformat() == "2030-04-15"
    assert release.python.versions == ("3.10", "3.11")
    assert [f.id for f in release.features_with("Beta")] == ["alpha"]
    assert release.stability_counts(mini_atlas.labels.order) == {"Stable": 1, "Beta": 1}
    assert release.changes[0].before == "old()"


def test_real_data_has_the_four_releases(real_atlas):
    versions = [r.version for r in real_atlas.releases]
    assert {"1.4", "1.7", "1.10", "1.12"} <= set(versions)
    assert versions == sorted(versions, key=lambda v: tuple(map(int, v.split("."))))


def test_real_data_defines_the_four_core_topics(real_atlas):
    assert {"cuda", "mps", "distributed", "fft"} <= {t.id for t in real_atlas.topics}


def test_every_real_feature_is_labelled_and_sourced(real_atlas):
    for release in real_atlas.releases:
        # a release without features is one whose announcement could not be read: its record says so
        assert release.features or (not release.coverage.changes_complete and "announcement" in release.coverage.note), release.version
        for feature in release.features:
            assert feature.stability in real_atlas.labels.order
            assert feature.sources and all(url.startswith("https://") for url in feature.sources)


def test_labels_follow_each_release_era(real_atlas):
    """Experimental belongs to releases up to 1.5; Beta and Prototype to the releases after it."""
    for release in real_atlas.releases:
        labels = {f.stability for f in release.features}
        if release.number.release < (1, 6):
            assert not labels & {"Beta", "Prototype"}, release.version
        else:
            assert "Experimental" not in labels, release.version


def test_structure_builds_nested_records_and_keeps_defaults():
    raw = {"id": "x", "title": "X", "stability": "Beta", "summary": "s", "sources": ["https://a.example/"], "example": {"code": "pass"}}
    feature = structure(Feature, raw)
    assert feature.sources == ("https://a.example/",)
    assert feature.example.code == "pass" and feature.example.caption is None
    assert feature.component == "pytorch" and feature.aliases == ()
    assert structure(Count, {"count": 3, "source": "https://a.example/"}).more_than is False
