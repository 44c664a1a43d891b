"""One build: load the data, generate the site, check that it serves every published URL.

The hook and the page macros both ask for the site of the current data; it is generated once while the
data files and templates stay as they are.
"""

from __future__ import annotations

from pathlib import Path

from .api.catalog import load_catalog
from .builds.catalog import load_builds
from .generate import TEMPLATE_DIR, GeneratedSite, generate_site
from .i18n.edition import translated_edition
from .i18n.store import translated_languages
from .kept_pages import InputStates
from .loading import load_atlas
from .registry import check_registry

_last: tuple[tuple, GeneratedSite] | None = None


def _inputs_state(data_dir: Path) -> tuple:
    """Each data file and template with its size and modification time: a change to any of them changes this."""
    paths = sorted(path for folder in (data_dir, TEMPLATE_DIR) for path in folder.rglob("*") if path.is_file())
    return tuple((str(path), path.stat().st_mtime_ns, path.stat().st_size) for path in paths)


def generate_checked(
    data_dir: Path, *, site_url: str, repository: str = "", check_published: bool = True, keep_pages: bool = False
) -> GeneratedSite:
    """The site generated from `data_dir`, after checking the published URLs (unless told not to); raises DataErrors.

    With `keep_pages` (the serve preview), the pages that read nothing changed since an earlier call of this process
    (release, feature and topic pages, the grids) are given again instead of rendered (macros/kept_pages.py); the site
    is the same either way."""
    global _last
    states = _inputs_state(data_dir)
    key = (data_dir, site_url, repository, check_published, states)
    if _last is not None and _last[0] == key:
        return _last[1]
    atlas = load_atlas(data_dir)
    site = generate_site(
        atlas,
        site_url=site_url,
        repository=repository,
        catalog=load_catalog(data_dir),
        builds=load_builds(data_dir),
        translations=tuple(translated_edition(atlas, data_dir, language) for language in translated_languages(data_dir)),
        input_states=InputStates.of(states, data_dir, TEMPLATE_DIR) if keep_pages else None,
    )
    if check_published:
        check_registry(site.published, site.atlas.redirects, data_dir)
    _last = (key, site)
    return site
