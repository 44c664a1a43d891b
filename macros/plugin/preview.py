"""The preview of `make serve` (`mkdocs serve --dirty`): a rebuild renders again only the pages whose source changed.

Loaded only by `mkdocs serve --dirty`; `mkdocs build` never imports it. A page's HTML depends on its Markdown and on what
every page shares: the configuration and the set of files (what links resolve to), and the navigation and the theme
overrides (what wraps the page). Between rebuilds of one session the preview keeps a fingerprint of each and every page's
rendered state. A rebuild
- renders a page again when its Markdown changed (for a hand-written page, its source or any macro's output), and every
  page when the configuration or the set of files changed;
- writes every page again when the navigation or the theme overrides changed;
- gives the pages it skipped their last state, so the navigation titles, the anchor checks and the search index see the
  whole site, as in a full build, and deletes the files no longer generated.
tests/serve/test_preview.py compares what a rebuild serves with a full build after each kind of edit.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

log = logging.getLogger("mkdocs.plugins.atlas")


class PreviewFile(File):
    """A page or generated file whose `is_modified`, which MkDocs asks in a dirty build, the preview decides."""

    changed: bool = True

    def is_modified(self) -> bool:
        return self.changed


@dataclass(frozen=True, slots=True)
class RenderedPage:
    """What a later rebuild needs of a page it does not render again."""

    markdown: str
    meta: dict
    title: str | None
    content: str
    toc: object
    anchors: frozenset[str]
    links_to_anchors: dict[str, dict[str, str]]  # linked file's src_uri -> {anchor: link as written}

    @classmethod
    def of(cls, page: Page) -> RenderedPage:
        links = {file.src_uri: dict(anchors) for file, anchors in (page.links_to_anchors or {}).items()}
        return cls(page.markdown, page.meta, page.title, page.content, page.toc, frozenset(page.present_anchor_ids or ()), links)

    def restore(self, page: Page, files: Files) -> None:
        page.markdown, page.meta, page.title = self.markdown, self.meta, self.title
        page.content, page.toc, page.present_anchor_ids = self.content, self.toc, set(self.anchors)
        page.links_to_anchors = {files.get_file_from_path(uri): dict(anchors) for uri, anchors in self.links_to_anchors.items()}


@dataclass(slots=True)
class SiteState:
    """What the site folder holds after a build: fingerprints, and every page's rendered state and search entries."""

    sources: str = ""  # the configuration and the set of files
    frame: str = ""  # the navigation and the theme overrides
    digests: dict[str, str] = field(default_factory=dict)  # src_uri -> digest of its source
    destinations: dict[str, str] = field(default_factory=dict)  # src_uri -> the file written
    pages: dict[str, RenderedPage] = field(default_factory=dict)  # src_uri -> rendered state
    search_entries: dict[str, list] = field(default_factory=dict)  # page URL -> its entries in the search index


class Preview:
    """One serve session's state, kept between its rebuilds."""

    def __init__(self) -> None:
        self.last = SiteState()
        self.next: SiteState | None = None
        self.files: list[PreviewFile] = []
        self.search_index: object | None = None  # Material's, once a rebuild has completed it
        self.site_dir = ""

    def add_files(self, files: Files, generated: dict[str, str], config: MkDocsConfig, macro_outputs: str) -> Files:
        """Add the generated pages and files, and mark which files (hand-written pages too) this rebuild renders."""
        for file in files.documentation_pages():
            files.remove(file)
            files.append(PreviewFile(file.src_uri, file.src_dir, file.dest_dir, file.use_directory_urls, inclusion=file.inclusion))
        for path, content in generated.items():
            files.append(PreviewFile.generated(config, path, content=content))
        self.files = [file for file in files if isinstance(file, PreviewFile)]
        uris = sorted(file.src_uri for file in files)
        state = self.next = SiteState(sources=digest(Path(config.config_file_path).read_bytes(), config.site_url, *uris))
        everything = state.sources != self.last.sources
        for file in self.files:
            uri = file.src_uri
            state.destinations[uri] = file.abs_dest_path
            source = generated.get(uri)
            state.digests[uri] = digest(source) if source is not None else digest(Path(file.abs_src_path).read_bytes(), macro_outputs)
            file.changed = everything or state.digests[uri] != self.last.digests.get(uri)
        return files

    def restore(self, nav: Navigation, files: Files, config: MkDocsConfig) -> None:
        """Keep the state of the pages this rebuild converted, give the others their last state, and write every page
        again when the navigation or the theme overrides changed."""
        state = self.next
        if state is None:
            return
        for file in self.files:
            if file.page is None:
                continue
            if file.changed:
                state.pages[file.src_uri] = RenderedPage.of(file.page)
            else:
                state.pages[file.src_uri] = self.last.pages[file.src_uri]
                state.pages[file.src_uri].restore(file.page, files)
        state.frame = digest(repr(_outline(nav.items)), *_folder_bytes(config.theme.custom_dir))
        if state.frame != self.last.frame:
            for file in self.files:
                file.changed = file.changed or file.page is not None
        pages = [file for file in self.files if file.page is not None]
        log.info(f"Preview: writing {sum(file.changed for file in pages)} of {len(pages)} pages again")

    def finish(self, search_index: object, site_dir: str) -> None:
        """Give Material's search index every page's entries, delete the files no longer generated, keep this state."""
        state, self.next = self.next, None
        if state is None:
            return
        fresh: dict[str, list] = {}
        for entry in search_index.entries:
            fresh.setdefault(entry["location"].partition("#")[0], []).append(entry)
        for file in self.files:
            if file.page is not None:
                url = file.page.url
                state.search_entries[url] = fresh.get(url, []) if file.changed else self.last.search_entries.get(url, [])
        search_index.entries = [entry for entries in state.search_entries.values() for entry in entries]
        self.search_index, self.site_dir = search_index, site_dir
        for uri, destination in self.last.destinations.items():
            if uri not in state.destinations:
                _remove_with_empty_folders(Path(destination), Path(site_dir))
        self.last = state

    def write_search_index(self) -> None:
        """Write this rebuild's search index as a full build writes it. Material's plugin merges a dirty rebuild's entries
        with the last index as if one page had changed; its file is written again here, once the rebuild is over."""
        if self.search_index is not None:
            path = Path(self.site_dir) / "search" / "search_index.json"
            path.write_text(self.search_index.generate_search_index(None), encoding="utf-8")
            self.search_index = None

    def failed(self) -> None:
        """Forget a failed rebuild: the next one renders everything again."""
        self.next, self.last, self.search_index = None, SiteState(), None


def _remove_with_empty_folders(path: Path, site_dir: Path) -> None:
    """Delete a file the site no longer has, and the folders it leaves empty, as a full build would not have made them."""
    path.unlink(missing_ok=True)
    folder = path.parent
    while folder != site_dir and folder.is_relative_to(site_dir) and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent


def _outline(items: list) -> list:
    """The navigation as every page shows it: titles, URLs and nesting."""
    return [(item.title, getattr(item, "url", None), _outline(getattr(item, "children", None) or [])) for item in items]


def _folder_bytes(folder: str | None) -> list[bytes]:
    """The path and bytes of every file under a folder (the theme overrides), in a stable order."""
    if not folder:
        return []
    return [part for path in sorted(Path(folder).rglob("*")) if path.is_file() for part in (str(path).encode(), path.read_bytes())]


def digest(*parts: str | bytes | None) -> str:
    """A fingerprint of the given parts, in order."""
    hasher = hashlib.blake2b(digest_size=16)
    for part in parts:
        data = part if isinstance(part, bytes) else str(part).encode()
        hasher.update(len(data).to_bytes(8, "little") + data)
    return hasher.hexdigest()
