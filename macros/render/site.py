"""One build: read the data, generate the site, check that it serves every published URL.

`generate_checked` reads and generates anew on each call. A process that builds again and again (`make serve`) hands
down one `SiteCache`, which gives the same site again while the data files and templates are unchanged, and reads the
data again only when a data file changed (a template edit generates the site from the data already read).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from macros.data.api_catalog import ApiCatalog, load_catalog
from macros.data.builds_catalog import Builds, load_builds
from macros.data.loading import load_atlas
from macros.data.model import Atlas
from macros.data.remembered import Remembered
from macros.data.translations import translated_languages
from macros.data.yamlfile import DataError, DataErrors
from macros.render.pages import TEMPLATE_DIR, GeneratedSite, generate_site
from macros.render.registry import check_registry
from macros.views.edition import Edition, translated_edition


@dataclass(frozen=True, slots=True)
class SiteData:
    """Everything the site is generated from, read from the data folder."""

    atlas: Atlas
    catalog: ApiCatalog | None
    builds: Builds | None
    translations: tuple[Edition, ...]


def read_site_data(data_dir: Path, remembered: Remembered | None = None) -> SiteData:
    """Read and check every file under `data_dir`, the one way the site reads data/; raises DataErrors with every
    mistake found. With `remembered`, a file whose bytes are unchanged since an earlier read is not parsed again."""
    atlas = load_atlas(data_dir, remembered)
    languages = translated_languages(data_dir)
    translations = tuple(translated_edition(atlas, data_dir, language, remembered) for language in languages)
    return SiteData(atlas, load_catalog(data_dir, remembered), load_builds(data_dir, remembered), translations)


@dataclass(frozen=True, slots=True)
class Scope:
    """Part of the site, for a quicker preview (`make serve RELEASES="2.5 2.6" EDITION=en API=no`): only these
    releases (with the feature records their entries are about), only the English edition, or no API reference."""

    releases: frozenset[str] = frozenset()  # none: every release
    english_only: bool = False
    api_reference: bool = True

    def __str__(self) -> str:
        parts = [f"releases {', '.join(sorted(self.releases))}" if self.releases else "every release"]
        parts += ["the English edition only"] if self.english_only else []
        parts += [] if self.api_reference else ["no API reference"]
        return "; ".join(parts)

    def apply(self, data: SiteData) -> SiteData:
        """The data narrowed to this scope; raises DataErrors for a release the data lacks."""
        unknown = sorted(self.releases - {release.version for release in data.atlas.releases})
        if unknown:
            known = ", ".join(release.version for release in data.atlas.releases)
            raise DataErrors([DataError("RELEASES", f"no release {', '.join(unknown)} in the data; expected some of: {known}")])
        translations = () if self.english_only else tuple(replace(e, atlas=self._narrowed(e.atlas)) for e in data.translations)
        catalog = data.catalog if self.api_reference else None
        return replace(data, atlas=self._narrowed(data.atlas), catalog=catalog, translations=translations)

    def _narrowed(self, atlas: Atlas) -> Atlas:
        if not self.releases:
            return atlas
        releases = tuple(release for release in atlas.releases if release.version in self.releases)
        kept: set[str] = set()
        for record_id in {atlas.record_of(entry) for release in releases for entry in release.entries} - {None}:
            while record_id and record_id not in kept:  # the record, and every record it is a part of
                kept.add(record_id)
                record_id = atlas.records_by_id[record_id].part_of
        return replace(atlas, releases=releases, records=tuple(record for record in atlas.records if record.id in kept))


class SiteCache:
    """The last site generated and the data it was read from, for a process that builds again (`make serve`)."""

    def __init__(self) -> None:
        self.remembered = Remembered()  # what reading the data and rendering the API reference made
        self.scope: Scope | None = None  # the part of the site to preview (`make serve RELEASES=…`), or all of it
        self.site_key: tuple | None = None
        self.site: GeneratedSite | None = None
        self.data_key: tuple | None = None
        self.data: SiteData | None = None

    def data_of(self, data_dir: Path, states: tuple) -> SiteData:
        """The data of `data_dir`, whose files are in `states`: read again only when they changed since the last call.
        Each translated edition is given with no interface words asked for yet, which the next generation records."""
        if self.data is None or self.data_key != (data_dir, states):
            self.data, self.data_key = read_site_data(data_dir, self.remembered), (data_dir, states)
        return replace(self.data, translations=tuple(replace(edition, unknown_words=set()) for edition in self.data.translations))


def files_state(folder: Path) -> tuple:
    """Each file under `folder` with its size and modification time: a change to any of them changes this."""
    paths = sorted(path for path in folder.rglob("*") if path.is_file())
    return tuple((str(path), path.stat().st_mtime_ns, path.stat().st_size) for path in paths)


def generate_checked(
    data_dir: Path,
    *,
    site_url: str,
    repository: str = "",
    check_published: bool = True,
    cache: SiteCache | None = None,
    scope: Scope | None = None,
) -> GeneratedSite:
    """The site generated from `data_dir`, after checking the published URLs (unless told not to); raises DataErrors.

    With a `cache`, the site of an earlier call is given again while nothing it was made from changed. With a `scope`,
    only that part of the site is generated, and the published URLs are not checked (most of them are left out)."""
    data_states, template_states = files_state(data_dir), files_state(TEMPLATE_DIR)
    scope = scope if scope is not None else (cache.scope if cache is not None else None)
    key = (data_dir, site_url, repository, check_published, scope, data_states, template_states)
    if cache is not None and cache.site_key == key:
        return cache.site
    data = cache.data_of(data_dir, data_states) if cache is not None else read_site_data(data_dir)
    if scope is not None:
        data, check_published = scope.apply(data), False
    site = generate_site(
        data.atlas,
        site_url=site_url,
        repository=repository,
        catalog=data.catalog,
        builds=data.builds,
        translations=data.translations,
        remembered=cache.remembered if cache is not None else None,
    )
    if check_published:
        check_registry(site.published, site.atlas.redirects, data_dir)
    if cache is not None:
        cache.site_key, cache.site = key, site
    return site
