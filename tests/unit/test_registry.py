"""Published URLs keep working: aliases keep old anchors, redirects keep moved pages."""

from __future__ import annotations

import pytest

from macros.render.registry import read_registry, write_registry
from macros.render.site import generate_checked
from tests.conftest import REAL_DATA
from tests.support.site import copy_mini_data


@pytest.fixture
def mini_copy(tmp_path):
    return copy_mini_data(tmp_path / "data")


def _site(data_dir, **options):
    return generate_checked(data_dir, site_url="/", **options)


def test_a_renamed_feature_with_its_old_id_as_alias_still_builds(mini_copy):
    write_registry(mini_copy, _site(mini_copy).published)
    release = mini_copy / "releases/2.1.yaml"
    release.write_text(release.read_text().replace("  - id: alpha\n", "  - id: alpha-renamed\n    aliases: [alpha]\n", 1))
    site = _site(mini_copy)
    assert "/releases/2.1/#alpha" in site.published and "/releases/2.1/#alpha-renamed" in site.published


def test_a_moved_page_with_a_redirect_still_builds(mini_copy):
    (mini_copy / "published.txt").write_text("/releases/1.9/\n")
    (mini_copy / "redirects.yaml").write_text("/releases/1.9/: /releases/2.0/\n")
    site = _site(mini_copy)
    page = site.files["releases/1.9/index.html"]
    assert 'http-equiv="refresh" content="0; url=../../releases/2.0/"' in page
    assert "/releases/1.9/" not in site.published  # a redirect is not a page the registry could count on


def test_registry_only_grows(mini_copy):
    (mini_copy / "published.txt").write_text("/releases/1.9/\n")
    (mini_copy / "redirects.yaml").write_text("/releases/1.9/: /releases/2.0/\n")
    published = _site(mini_copy).published
    added = write_registry(mini_copy, published)
    registry = read_registry(mini_copy)
    assert registry == sorted({"/releases/1.9/", *published})
    assert added == len(published)


def test_the_site_publishes_every_kind_of_address(mini_copy):
    published = _site(mini_copy).published
    expected = {"/", "/about/", "/releases/", "/releases/2.10/#delta", "/topics/", "/matrix/", "/feed.xml", "/api/releases.json"}
    assert expected <= published
    assert any(url.startswith("/features/") and url.endswith("/badge.svg") for url in published)


def test_committed_registry_covers_what_the_site_publishes():
    """Every URL of the current data is recorded, so a later rename cannot silently break it (run `make published`)."""
    missing = _site(REAL_DATA).published - set(read_registry(REAL_DATA))
    assert not missing, f"run `make published` to record: {sorted(missing)[:10]}"
