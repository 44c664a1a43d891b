"""Feature records (data/features.yaml): one feature as a whole, its entries across releases, its parts, its page."""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import replace

import pytest

from macros.data.loading import load_atlas
from macros.data.model import DistinctPair
from macros.render.pages import generate_site
from macros.views import indexes
from macros.views.joins import likely_records
from tests.conftest import MINI_DATA, PROJECT_DIR
from tests.support.site import copy_mini_data

RECORDS = """\
features:
  - id: alpha
    name: Alpha engine
    description: What alpha is, as a whole.
    topics: [cuda]
    apis: [torch.alpha]
  - id: alpha-turbo
    name: Alpha turbo
    description: A part of alpha.
    part_of: alpha
"""


@pytest.fixture
def recorded_atlas(tmp_path):
    """The mini data set with two records: alpha, and its part alpha-turbo, which 2.10's delta entry names."""
    data = shutil.copytree(MINI_DATA, tmp_path / "data")
    (data / "features.yaml").write_text(RECORDS, encoding="utf-8")
    release = data / "releases" / "2.10.yaml"
    release.write_text(release.read_text(encoding="utf-8").replace("  - id: delta\n", "  - id: delta\n    feature: alpha-turbo\n"))
    return load_atlas(data)


def test_entries_belong_to_the_record_with_their_id_or_the_one_they_name(recorded_atlas):
    histories = indexes.feature_histories(recorded_atlas, indexes.build_lifecycles(recorded_atlas))
    alpha, turbo = histories["alpha"], histories["alpha-turbo"]
    assert [(a.release.version, a.item.id, a.stage) for a in alpha.appearances] == [
        ("2.0", "alpha", "Prototype"),
        ("2.1", "alpha", "Beta"),
        ("2.10", "alpha", "Stable"),
    ]
    assert [(a.release.version, a.item.id) for a in turbo.appearances] == [("2.10", "delta")]
    assert alpha.parts == (turbo,)
    assert [a.item.id for a in alpha.everything] == ["alpha", "alpha", "alpha", "delta"]
    assert alpha.first_with(["Beta"]).release.version == "2.1"
    grouped = [(version, [a.item.id for a in found]) for version, found in alpha.by_release]
    assert grouped == [("2.0", ["alpha"]), ("2.1", ["alpha"]), ("2.10", ["alpha", "delta"])]


def test_a_lifecycle_takes_its_records_name_and_a_recorded_feature_gets_a_page(recorded_atlas):
    lifecycles = indexes.build_lifecycles(recorded_atlas)
    assert lifecycles["alpha"].title == "Alpha engine"
    assert lifecycles["delta"].title != "Alpha turbo"  # delta names a record; its own lifecycle keeps its title
    assert not lifecycles["delta"].has_page
    site = generate_site(recorded_atlas, site_url="https://example.org/atlas/")
    turbo = site.pages["features/alpha-turbo.md"]
    assert "# Alpha turbo" in turbo and "Part of [Alpha engine](../features/alpha.md)" in turbo
    alpha = site.pages["features/alpha.md"]
    assert "What alpha is, as a whole." in alpha
    assert "## Its parts { #parts }" in alpha and "[Alpha turbo](../features/alpha-turbo.md)" in alpha
    assert "(part)" in alpha  # the part's entry is in the history table, marked as a part's
    assert "features/alpha-turbo/badge.svg" in site.files
    assert "features/delta/index.html" in site.files  # one release, no record: still a redirect to its entry


def test_an_id_that_several_releases_give_to_a_records_part_leads_to_the_records_page(tmp_path):
    """An entry id that two releases use while naming a record (`feature:`) gets no page named after its latest entry:
    its address leads to the record's page, which tells the whole history."""
    data = shutil.copytree(MINI_DATA, tmp_path / "data")
    (data / "features.yaml").write_text(RECORDS, encoding="utf-8")
    for version in ("2.0", "2.10"):
        release = data / "releases" / f"{version}.yaml"
        text = release.read_text(encoding="utf-8").replace("  - id: gamma\n", "  - id: gamma\n    feature: alpha-turbo\n")
        release.write_text(text, encoding="utf-8")
    atlas = load_atlas(data)
    gamma = indexes.build_lifecycles(atlas)["gamma"]
    assert (gamma.has_page, gamma.doc_path) == (False, "features/alpha-turbo.md")
    site = generate_site(atlas, site_url="https://example.org/atlas/")
    assert "features/gamma.md" not in site.pages and "features/alpha-turbo.md" in site.pages
    assert 'content="0; url=../../features/alpha-turbo/"' in site.files["features/gamma/index.html"]
    assert [a.item.id for a in indexes.feature_histories(atlas, site.lifecycles)["alpha-turbo"].appearances] == ["gamma", "gamma"]


def test_every_feature_that_several_releases_of_the_atlas_announce_has_a_record(real_atlas):
    """The atlas's own data: no history page is named after its latest entry (`make check` lists any that would be)."""
    histories = indexes.feature_histories(real_atlas, indexes.build_lifecycles(real_atlas))
    assert len(histories) > 150 and [feature_id for feature_id, history in histories.items() if not history.recorded] == []


def test_make_check_lists_the_features_of_several_releases_that_have_no_record(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "macros.check", str(copy_mini_data(tmp_path / "data"))], cwd=PROJECT_DIR, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert "3 features that several releases announce have no record" in result.stdout
    assert "\n  beta-thing\n" in result.stdout


def test_unrecorded_features_of_several_releases_keep_a_page_named_after_their_latest_entry(mini_atlas):
    site = generate_site(mini_atlas, site_url="https://example.org/atlas/")
    histories = indexes.feature_histories(mini_atlas, site.lifecycles)
    assert set(histories) == {"alpha", "beta-thing", "gamma"}
    assert not histories["gamma"].recorded
    assert "features/gamma.md" in site.pages


def test_make_check_suggests_a_record_for_an_entry_whose_title_names_it(recorded_atlas):
    suggestions = [str(s) for s in likely_records(recorded_atlas)]
    assert suggestions == []  # no unattached title names a record yet
    renamed = recorded_atlas.releases[0].features[1]
    assert renamed.id == "beta-thing"
    patched = _retitled(recorded_atlas, "beta-thing", "Beta thing for the Alpha engine")
    assert [str(s) for s in likely_records(patched)] == ["2.0 beta-thing -> alpha (its title names Alpha engine)"]
    reviewed = replace(patched, distinct=(DistinctPair(ids=("beta-thing", "alpha"), reason="a tool for it, not a part"),))
    assert likely_records(reviewed) == []  # a pair reviewed in data/distinct.yaml is not suggested again


def _retitled(atlas, item_id: str, title: str):
    """The atlas with one feature of its first release retitled."""
    first = atlas.releases[0]
    features = tuple(replace(f, title=title) if f.id == item_id else f for f in first.features)
    return replace(atlas, releases=(replace(first, features=features), *atlas.releases[1:]))
