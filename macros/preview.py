"""Incremental preview for `mkdocs serve --dirty`: a rebuild renders again only the pages whose output changes.

A page's HTML depends on its own Markdown, on what every page shares, and on nothing else. What pages share
comes in two layers:
- what Markdown becomes HTML against: the configuration and the set of files that links resolve to;
- what the theme wraps around the HTML: the navigation (its titles and order) and the theme templates.

The preview keeps, from one build of a serve session to the next, a fingerprint of each of these and the
rendered state of every page. A rebuild then
- converts again only the pages whose Markdown changed, or every page when the first layer changed;
- wraps again in the theme only those pages, or every page when the second layer changed;
- writes again only the generated files whose content changed, and deletes those no longer generated;
- restores the pages it skipped, so that the navigation titles, the anchor checks and the search index see
  the whole site, as in a full build.

Hand-written pages call macros that read the data: one renders again when its source or any macro output changes.
When several pages render again, a forked process converts and indexes part of them on the second core
(macros/forking.py) and hands back their rendered state and search entries, which the build restores like those of a
skipped page.
A rebuild thus serves the same files as a full build; tests/serve/test_preview.py compares them.
"""

from __future__ import annotations

import hashlib
import logging
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mkdocs.commands.build import _populate_page
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from .forking import CAN_FORK, ForkedWork
from .page_parts import page_parts
from .searching import read_piece, segmented

log = logging.getLogger("mkdocs.plugins.atlas")
FORKED_SHARE = 0.45  # of the Markdown to convert and index: a forked process pays for copying the memory it writes to
FEWEST_PAGES_TO_SHARE = 2
LEARNT = (page_parts, read_piece, segmented)  # what converting pages teaches a process, kept from a forked one


class PreviewFile(File):
    """A page or generated file whose `is_modified`, which MkDocs asks in a dirty build, the preview decides."""

    changed: bool = True
    converted_elsewhere: bool = False  # by the forked process, until its results are restored

    def is_modified(self) -> bool:
        """Whether this build must render or write the file again (here)."""
        return self.changed and not self.converted_elsewhere


@dataclass(frozen=True, slots=True)
class _RenderedPage:
    """What a later build needs from a page it does not render again."""

    markdown: str
    meta: dict
    title: str | None
    content: str
    toc: object
    anchors: frozenset[str]
    links_to_anchors: dict[str, dict[str, str]]  # linked file's src_uri -> {anchor: link as written}

    @classmethod
    def of(cls, page: Page, content: str) -> _RenderedPage:
        """The state of a page that has just been converted into `content`."""
        links = {file.src_uri: dict(anchors) for file, anchors in (page.links_to_anchors or {}).items()}
        return cls(page.markdown, page.meta, page.title, content, page.toc, frozenset(page.present_anchor_ids or ()), links)

    def restore(self, page: Page, files: Files) -> None:
        """Give a page that this build skipped the state its last conversion left."""
        page.markdown, page.meta, page.title = self.markdown, self.meta, self.title
        page.content, page.toc, page.present_anchor_ids = self.content, self.toc, set(self.anchors)
        by_uri = files.src_uris  # the keys are the URIs kept here: no path to normalise (thousands of links per build)
        page.links_to_anchors = {by_uri.get(uri): dict(anchors) for uri, anchors in self.links_to_anchors.items()}


@dataclass(slots=True)
class _SiteState:
    """What the site directory holds after a build: the fingerprints, every page's rendered state and search entries."""

    source_frame: str = ""
    theme_frame: str = ""
    digests: dict[str, str] = field(default_factory=dict)  # src_uri -> digest of the generated content written
    generated: dict[str, str] = field(default_factory=dict)  # src_uri -> the generated content, whose digest is known
    sizes: dict[str, int] = field(default_factory=dict)  # src_uri -> length of the page's source, to share the work
    destinations: dict[str, str] = field(default_factory=dict)  # src_uri -> absolute path written
    pages: dict[str, _RenderedPage] = field(default_factory=dict)  # src_uri -> rendered state
    search_entries: dict[str, list] = field(default_factory=dict)  # page URL -> its entries in the search index
    navigations: dict[str, tuple[tuple, bytes]] = field(default_factory=dict)  # page URL -> (what it shows, its HTML)


class Preview:
    """The state of one `mkdocs serve --dirty` session, kept between its rebuilds."""

    def __init__(self) -> None:
        self.active = False
        self._last = _SiteState()
        self._next: _SiteState | None = None
        self._files: list[PreviewFile] = []
        self._nav: Navigation | None = None
        self._writing = False
        self._forked: ForkedWork | None = None
        self._sharing = False  # whether a forked process converts part of this build's pages
        self._search_index: object = None  # Material's, for this build
        self._index_page = None  # its way to add a page, which the preview's own way falls back on
        self._indexed_early: dict[str, list] = {}  # page URL -> its search entries, made when it was converted

    def start(self, *, command: str, dirty: bool) -> None:
        """Turn the preview on for a dirty serve session; every other command builds in full."""
        self.active = command == "serve" and dirty
        self._last = _SiteState()

    def add_files(self, files: Files, generated: dict[str, str], config: MkDocsConfig, macro_outputs: str) -> Files:
        """Add the generated pages and files; decide which of them, and of the hand-written pages, this build renders.

        `macro_outputs` is everything the page macros can give: a hand-written page renders again when it or they change.
        """
        if not self.active:
            for path, content in generated.items():
                files.append(File.generated(config, path, content=content))
            return files
        for file in files.documentation_pages():
            files.remove(file)
            files.append(PreviewFile(file.src_uri, file.src_dir, file.dest_dir, file.use_directory_urls, inclusion=file.inclusion))
        for path, content in generated.items():
            files.append(PreviewFile.generated(config, path, content=content))
        self._files = [file for file in files if isinstance(file, PreviewFile)]
        uris = sorted(file.src_uri for file in files)
        state = self._next = _SiteState(source_frame=_digest(Path(config.config_file_path).read_bytes(), config.site_url, *uris))
        reconvert_all = state.source_frame != self._last.source_frame
        for file in self._files:
            uri = file.src_uri
            state.destinations[uri] = file.abs_dest_path
            if uri in generated:
                source = state.generated[uri] = generated[uri]
                known = source is self._last.generated.get(uri)  # the last build's very text: a kept page (kept_pages.py)
                state.digests[uri] = self._last.digests[uri] if known else _digest(source)
            else:
                source = Path(file.abs_src_path).read_bytes()
                state.digests[uri] = _digest(source, macro_outputs)
            state.sizes[uri] = len(source)
            # A digest the last build kept is of a file it wrote: the serve session's site folder is its own.
            file.changed = reconvert_all or state.digests[uri] != self._last.digests.get(uri)
        return files

    def converted(self, page: Page, content: str) -> None:
        """Keep the state of a page this build converted into `content` (its final HTML); while sharing the work, index
        it now too, so that each process indexes the pages it converts."""
        if self._next is None:
            return
        self._next.pages[page.file.src_uri] = _RenderedPage.of(page, content)
        if self._sharing:
            page.content, indexed = content, len(self._search_index.entries)
            self._index_page(page)
            self._indexed_early[page.url] = self._search_index.entries[indexed:]
            del self._search_index.entries[indexed:]

    def navigation(self, nav: Navigation, config: MkDocsConfig, files: Files) -> None:
        """Note the navigation of this build (its titles are read once every page has its title), and let a forked
        process convert and index part of the pages to render again while this one converts and indexes the others."""
        self._nav = nav
        if self._next is None:
            return
        for memory in LEARNT:  # a forked child sends back what it learns from here on, not what this process knows
            memory.take_made()
        to_render = [file for file in self._files if file.page is not None and file.changed]
        if not CAN_FORK or len(to_render) < FEWEST_PAGES_TO_SHARE:
            return
        shared = _share(to_render, self._next.sizes, FORKED_SHARE)
        if not shared:
            return

        def convert_and_index(file: PreviewFile) -> tuple[_RenderedPage, list, list]:
            _populate_page(file.page, config, files)  # the hooks' on_page_content calls self.converted
            learnt = [memory.take_made() for memory in LEARNT]
            return self._next.pages[file.src_uri], self._indexed_early.pop(file.page.url), learnt

        for file in shared:
            file.converted_elsewhere = True
        self._sharing = True
        self._forked = ForkedWork(convert_and_index, shared, key=lambda file: file.src_uri)

    def before_writing(self, files: Files, config: MkDocsConfig, theme_globals: object) -> None:
        """Restore the pages this build skipped; wrap every page again if the navigation or the theme changed."""
        if self._next is None:
            return
        forked = self._take_forked_results(config, files)
        for file in self._files:
            if file.page is not None and not file.changed:
                self._last.pages[file.src_uri].restore(file.page, files)
                self._next.pages[file.src_uri] = self._last.pages[file.src_uri]
        self._next.theme_frame = _digest(repr(_nav_outline(self._nav.items)), repr(theme_globals), *_folder_bytes(config.theme.custom_dir))
        if self._next.theme_frame != self._last.theme_frame:
            for file in self._files:
                file.changed = file.changed or file.page is not None
        rendered = sum(1 for file in self._files if file.page is not None and file.changed)
        pages = sum(1 for file in self._files if file.page is not None)
        log.info(f"Preview: rendering {rendered} of {pages} pages again, {forked} converted by a second process")
        self._writing = True

    def navigation_html(self, page: Page | None, render: Callable[[], str]) -> str:
        """A page's navigation as the theme renders it (`render`), or as the last build rendered it when the configuration,
        the navigation, the theme and the page's table of contents (which the navigation shows for the page) are the same."""
        if self._next is None or page is None:  # a full build, or a page of the theme's own (404)
            return render()
        shows = (self._next.source_frame, self._next.theme_frame, _toc_outline(page.toc))
        last = self._last.navigations.get(page.url)
        if last is not None and last[0] == shows:
            self._next.navigations[page.url] = last
            return zlib.decompress(last[1]).decode()
        html = str(render())
        self._next.navigations[page.url] = (shows, zlib.compress(html.encode(), 1))  # 20 to 40 KB each, a tenth kept
        return html

    def _take_forked_results(self, config: MkDocsConfig, files: Files) -> int:
        """Restore the pages the forked process converted, and say how many; convert them here if it failed."""
        if self._forked is None:
            return 0
        results, self._forked = self._forked.results(), None
        for file in self._files:
            if not file.converted_elsewhere:
                continue
            file.converted_elsewhere = False
            if results is None:
                _populate_page(file.page, config, files)
                continue
            state, self._indexed_early[file.page.url], learnt = results[file.src_uri]
            for memory, made in zip(LEARNT, learnt, strict=True):
                memory.keep(made)
            state.restore(file.page, files)
            self._next.pages[file.src_uri] = state
        self._sharing = False
        return len(results or ())

    def index_early(self, search_index: object) -> None:
        """Let this build index pages as they are converted: Material's search index then takes the entries already made
        for a page instead of reading it again."""
        self._search_index, self._index_page = search_index, search_index.add_entry_from_context

        def add_entry_from_context(page: Page) -> None:
            entries = self._indexed_early.pop(page.url, None)
            if entries is None:
                self._index_page(page)
            else:
                search_index.entries.extend(entries)

        search_index.add_entry_from_context = add_entry_from_context

    def finish(self, search: object, site_dir: str) -> None:
        """Complete the search index with the skipped pages, delete what is no longer generated, and keep this build's state.

        `search` is Material's search plugin, whose index then holds every page's entries, in the order of a full build.
        """
        state, self._next, self._indexed_early = self._next, None, {}
        if state is None:
            return
        search_index = search.search_index
        fresh: dict[str, list] = {}
        for entry in search_index.entries:
            fresh.setdefault(entry["location"].partition("#")[0], []).append(entry)
        for file in self._files:
            if file.page is not None:
                url = file.page.url
                state.search_entries[url] = fresh.get(url, []) if file.changed else self._last.search_entries.get(url, [])
        search_index.entries = [entry for entries in state.search_entries.values() for entry in entries]
        search.search_index_prev = None  # the plugin's own merge assumes one page changed; the entries are complete
        state.navigations = {**self._last.navigations, **state.navigations}  # of the pages this build did not wrap too
        for uri, destination in self._last.destinations.items():
            if uri not in state.destinations:
                _remove_with_empty_folders(Path(destination), Path(site_dir))
        self._last, self._writing = state, False

    def failed(self) -> None:
        """Forget a failed build; if it had begun writing, the next build renders everything again."""
        if self._forked is not None:  # the build stopped before it needed the forked process's results
            self._forked.results()
            self._forked = None
        for file in self._files:
            file.converted_elsewhere = False
        self._next, self._indexed_early, self._sharing = None, {}, False
        if self._writing:
            self._last, self._writing = _SiteState(), False


def _share(files: list[PreviewFile], sizes: dict[str, int], share: float) -> list[PreviewFile]:
    """The files, largest first, whose sources add up to about `share` of all the files' sources."""
    target, chosen, total = share * sum(sizes[file.src_uri] for file in files), [], 0
    for file in sorted(files, key=lambda file: sizes[file.src_uri], reverse=True):
        if total + sizes[file.src_uri] <= target:
            chosen.append(file)
            total += sizes[file.src_uri]
    return chosen


def _remove_with_empty_folders(path: Path, site_dir: Path) -> None:
    """Delete a file the site no longer has, and the folders it leaves empty, as a full build would not have made them."""
    path.unlink(missing_ok=True)
    folder = path.parent
    while folder != site_dir and folder.is_relative_to(site_dir) and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent


def _nav_outline(items: list) -> list:
    """The navigation as every page shows it: titles, URLs and nesting."""
    return [(item.title, getattr(item, "url", None), _nav_outline(getattr(item, "children", None) or [])) for item in items]


def _toc_outline(toc: list) -> list:
    """A table of contents as the navigation shows it: titles, anchors, levels and nesting."""
    return [(item.title, item.id, item.level, _toc_outline(item.children)) for item in toc]


def _folder_bytes(folder: str | None) -> list[bytes]:
    """The path and bytes of every file under a folder (the theme overrides), in a stable order."""
    if not folder:
        return []
    return [part for path in sorted(Path(folder).rglob("*")) if path.is_file() for part in (str(path).encode(), path.read_bytes())]


def _digest(*parts: str | bytes | None) -> str:
    """A fingerprint of the given parts, in order."""
    hasher = hashlib.blake2b(digest_size=16)
    for part in parts:
        data = part if isinstance(part, bytes) else str(part).encode()
        hasher.update(len(data).to_bytes(8, "little") + data)
    return hasher.hexdigest()


preview = Preview()
