"""`make serve RELEASES=… EDITION=en API=no` previews part of the site: the scope narrows what is generated."""

from __future__ import annotations

import pytest

from macros.data.yamlfile import DataErrors
from macros.render.site import Scope, generate_checked
from tests.conftest import MINI_DATA, REAL_DATA


def test_a_scope_of_releases_generates_their_pages_and_no_other_release_s():
    whole = generate_checked(MINI_DATA, site_url="/", check_published=False)
    scoped = generate_checked(MINI_DATA, site_url="/", scope=Scope(frozenset({"2.10"})))
    releases = sorted(path for path in whole.pages if path.startswith("releases/") and path != "releases/index.md")
    assert releases == ["releases/2.0.md", "releases/2.1.md", "releases/2.10.md"]
    assert [path for path in scoped.pages if path.startswith("releases/")] == ["releases/index.md", "releases/2.10.md"]
    assert [release.version for release in scoped.atlas.releases] == ["2.10"]


def test_a_release_the_data_lacks_is_refused_by_name():
    with pytest.raises(DataErrors, match=r"RELEASES: no release 2\.99 in the data; expected some of: 2\.0, 2\.1, 2\.10"):
        generate_checked(MINI_DATA, site_url="/", scope=Scope(frozenset({"2.10", "2.99"})))


def test_the_english_edition_alone_without_the_api_reference():
    scoped = generate_checked(REAL_DATA, site_url="/", scope=Scope(frozenset({"2.6"}), english_only=True, api_reference=False))
    assert list(scoped.editions) == ["en"] and not any(path.startswith("zh/") for path in scoped.pages)
    assert [path for path in scoped.pages if path.startswith("reference/torch")] == []
    assert "features/torch-compile.md" in scoped.pages  # a record that 2.6's entries are about
    assert str(Scope(frozenset({"2.6", "2.5"}), english_only=True, api_reference=False)) == (
        "releases 2.5, 2.6; the English edition only; no API reference"
    )
