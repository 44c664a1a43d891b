"""One build: load the data, generate the site, check that it serves every published URL.

The hook and the page macros both ask for the site of the current data; it is generated once while the
data files and templates stay as they are, and the data is read once while its files stay as they are (an edit of a
template under `make serve` generates the site again from the data already read).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from macros.data.api_catalog import ApiCatalog, load_catalog
from macros.data.builds_catalog import Builds, load_builds
from macros.data.loading import load_atlas
from macros.data.model import Atlas
from macros.data.translations import translated_languages
from macros.render.kept_pages import InputStates
from macros.render.pages import TEMPLATE_DIR, GeneratedSite, generate_site
from macros.render.registry import check_registry
from macros.views.edition import Edition, translated_edition


class _Data(NamedTuple):
    """What the site is generated from, read from the data folder."""

    atlas: Atlas
    catalog: ApiCatalog
    builds: Builds | None
    translations: tuple[Edition, ...]


_last: tuple[tuple, GeneratedSite] | None = None
_last_data: tuple[tuple, _Data] | None = None


def _files_state(folder: Path) -> tuple:
    """Each file under `folder` with its size and modification time: a change to any of them changes this."""
    paths = sorted(path for path in folder.rglob("*") if path.is_file())
    return tuple((str(path), path.stat().st_mtime_ns, path.stat().st_size) for path in paths)


def _read_data(data_dir: Path, states: tuple) -> _Data:
    """The data of `data_dir`, whose files are in `states`: read again only when they changed since the last call.
    Each translated edition is given with no interface words asked for yet, which the next generation records."""
    global _last_data
    if _last_data is None or _last_data[0] != (data_dir, states):
        atlas = load_atlas(data_dir)
        translations = tuple(translated_edition(atlas, data_dir, language) for language in translated_languages(data_dir))
        _last_data = ((data_dir, states), _Data(atlas, load_catalog(data_dir), load_builds(data_dir), translations))
    data = _last_data[1]
    return data._replace(translations=tuple(replace(edition, unknown_words=set()) for edition in data.translations))


def generate_checked(
    data_dir: Path, *, site_url: str, repository: str = "", check_published: bool = True, keep_pages: bool = False
) -> GeneratedSite:
    """The site generated from `data_dir`, after checking the published URLs (unless told not to); raises DataErrors.

    With `keep_pages` (the serve preview), the pages that read nothing changed since an earlier call of this process
    (release, feature and topic pages, the grids) are given again instead of rendered (macros/render/kept_pages.py); the site
    is the same either way."""
    global _last
    data_states, template_states = _files_state(data_dir), _files_state(TEMPLATE_DIR)
    key = (data_dir, site_url, repository, check_published, data_states, template_states)
    if _last is not None and _last[0] == key:
        return _last[1]
    data = _read_data(data_dir, data_states)
    site = generate_site(
        data.atlas,
        site_url=site_url,
        repository=repository,
        catalog=data.catalog,
        builds=data.builds,
        translations=data.translations,
        input_states=InputStates.of(data_states + template_states, data_dir, TEMPLATE_DIR) if keep_pages else None,
    )
    if check_published:
        check_registry(site.published, site.atlas.redirects, data_dir)
    _last = (key, site)
    return site
