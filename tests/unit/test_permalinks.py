"""Published URLs keep working: aliases keep old anchors, redirects keep moved pages."""

from __future__ import annotations

import pytest

from macros.permalinks import current_urls, load_published_atlas, read_registry, redirect_pages, write_registry
from tests.conftest import PROJECT_DIR, REAL_DATA
from tests.support.site import copy_mini_data


@pytest.fixture
def mini_copy(tmp_path):
    return copy_mini_data(tmp_path / "data")


def test_a_renamed_feature_with_its_old_id_as_alias_still_builds(mini_copy):
    write_registry(mini_copy, load_published_atlas(mini_copy))
    release = mini_copy / "releases/2.1.yaml"
    release.write_text(release.read_text().replace("  - id: alpha\n", "  - id: alpha-renamed\n    aliases: [alpha]\n", 1))
    atlas = load_published_atlas(mini_copy)
    assert "/releases/2.1/#alpha" in current_urls(atlas)


def test_a_moved_page_with_a_redirect_still_builds(mini_copy):
    (mini_copy / "published.txt").write_text("/releases/1.9/\n")
    (mini_copy / "redirects.yaml").write_text("/releases/1.9/: /releases/2.0/\n")
    load_published_atlas(mini_copy)
    page = redirect_pages(mini_copy)["releases/1.9/index.html"]
    assert 'http-equiv="refresh" content="0; url=../../releases/2.0/"' in page


def test_registry_only_grows(mini_copy):
    (mini_copy / "published.txt").write_text("/releases/1.9/\n")
    (mini_copy / "redirects.yaml").write_text("/releases/1.9/: /releases/2.0/\n")
    added = write_registry(mini_copy, load_published_atlas(mini_copy))
    registry = read_registry(mini_copy)
    assert "/releases/1.9/" in registry and "/releases/2.10/#delta" in registry
    assert added == len(registry) - 1


def test_committed_registry_covers_what_the_site_publishes(real_atlas):
    """Every URL of the current data is recorded, so a later rename cannot silently break it (run `make published`)."""
    missing = current_urls(real_atlas) - set(read_registry(REAL_DATA))
    assert not missing, f"run `make published` to record: {sorted(missing)[:10]}"
    assert (PROJECT_DIR / "data/published.txt").exists()
