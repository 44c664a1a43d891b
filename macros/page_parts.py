"""Parts of a generated page, converted on their own and kept between serve rebuilds.

Most of a release page is what its headings introduce (entries' badges, summaries, examples and sources; tables;
lists), and converting it was most of a rebuild after an edit of the page's template, which changes every release page
but, most of the time, little of each. A template writes each such block through the `part` filter, which puts it
between delimiters that hold a secret of this process (data cannot write them: their text can only come from here).
A full build converts each page whole (`whole` drops the delimiters). Under `make serve` the hook:
- `take`s the parts out of a page's Markdown before MkDocs converts it, leaving a numbered marker paragraph for each:
  what MkDocs converts is the page's frame (its title, headings and markers), which the template's edits of a part
  leave unchanged;
- `render`s the frame as MkDocs does, unless this process converted the very same frame for this page last time (and
  the files and the configuration are unchanged): then the page takes that conversion's HTML, table of contents,
  title, anchors and links again;
- `fill`s the page: each part is converted on its own, in one Markdown pass per page with MkDocs's conversion of the
  page (its links resolved and checked, its anchors recorded) unless this process converted the same part for this
  page before, and its HTML takes the place of its marker before the sanitizer or the search index reads the page.
A part is a block of its own (no heading, reference link or abbreviation reaches across its edges), so the page is
the same whichever parts were kept, and the same as the page converted whole: `tests/serve/test_preview.py` compares
what the preview serves with a full build.
"""

from __future__ import annotations

import copy
import hashlib
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

_SECRET = secrets.token_hex(12)  # in every delimiter and marker; the same in a forked process, which shares the pages
_OPEN, _CLOSE, _CUT = (f"<!--atlas-part-{word}-{_SECRET}-->" for word in ("open", "close", "cut"))
_PART = re.compile(re.escape(_OPEN) + r"\n\n(.*?)\n\n" + re.escape(_CLOSE), re.DOTALL)
_MARKER = re.compile(rf"<p>atlas-part-{_SECRET}-(\d+)</p>")
MKDOCS_RENDER = Page.render  # MkDocs's own conversion of a page, which the hook has `PageParts.render` stand in for


def part(markdown: str) -> str:
    """Markdown (a block of a page under a heading) to convert on its own: the `part` filter of templates."""
    return f"\n{_OPEN}\n\n{markdown.strip()}\n\n{_CLOSE}\n"


def whole(markdown: str) -> str:
    """A page's Markdown with its parts in place, without their delimiters: a full build converts each page once, whole."""
    return _PART.sub(lambda found: f"\n\n{found.group(1)}\n\n", markdown) if _OPEN in markdown else markdown


@dataclass(frozen=True, slots=True)
class _Converted:
    """HTML as converted for one page, with the anchors it holds and its links to anchors (linked file's URI -> {anchor:
    link as written}): a part, or a page's frame with the state MkDocs gives a page it renders."""

    html: str
    anchors: frozenset[str]
    links_to_anchors: dict[str, dict[str, str]]
    toc: object = None
    title: str | None = None

    def add_to(self, page: Page, files: Files) -> None:
        """Give the page this HTML's anchors and links to anchors."""
        page.present_anchor_ids = set(page.present_anchor_ids or ()) | self.anchors
        if page.links_to_anchors is not None:
            for linked, anchors in self.links_to_anchors.items():
                page.links_to_anchors.setdefault(files.src_uris[linked], {}).update(anchors)


class PageParts:
    """The parts of the pages of this process's builds: taken out before conversion, converted or kept, put back."""

    def __init__(self) -> None:
        self._frame = ""
        self._converted: dict[str, dict[str, _Converted]] = {}  # page's src_uri -> {part's digest: as converted for it}
        self._frames: dict[str, tuple[str, _Converted]] = {}  # src_uri -> (frame Markdown, its conversion) of the last build
        self._taken: dict[str, list[str]] = {}  # src_uri -> the Markdown of each part, by number, in this build
        self._made: tuple[dict, dict] = ({}, {})  # parts and frames converted since `take_made`, for a parent process

    def start(self, files: Files, config: MkDocsConfig) -> None:
        """Begin a build: forget every conversion if the set of files or the configuration changed."""
        uris = sorted(file.src_uri for file in files)
        with open(config.config_file_path, "rb") as configuration:
            frame = hashlib.blake2b(configuration.read() + "\n".join([repr(config.mdx_configs), *uris]).encode()).hexdigest()
        if frame != self._frame:
            self._frame, self._converted, self._frames = frame, {}, {}
        self._taken, self._made = {}, ({}, {})

    def take(self, markdown: str, page: Page) -> str:
        """The page's frame: its Markdown with a numbered marker paragraph in place of each part."""
        if _OPEN not in markdown:
            return markdown
        parts = self._taken[page.file.src_uri] = []

        def marker(found: re.Match) -> str:
            parts.append(found.group(1))
            return f"\n\natlas-part-{_SECRET}-{len(parts) - 1}\n\n"  # a paragraph of its own, whatever follows the part

        return _PART.sub(marker, markdown)

    def render(self, page: Page, config: MkDocsConfig, files: Files) -> None:
        """Convert a page as MkDocs does, or give a page with parts its frame's last conversion again."""
        uri = page.file.src_uri
        last = self._frames.get(uri)
        if last is not None and last[0] == page.markdown:
            done = last[1]
            page.content, page.toc, page._title_from_render = done.html, done.toc, done.title
            page.present_anchor_ids, page.links_to_anchors = set(), {}
            done.add_to(page, files)
            return
        MKDOCS_RENDER(page, config, files)
        if uri in self._taken:
            links = {linked.src_uri: dict(anchors) for linked, anchors in (page.links_to_anchors or {}).items()}
            done = _Converted(page.content, frozenset(page.present_anchor_ids or ()), links, page.toc, page._title_from_render)
            self._frames[uri] = self._made[1][uri] = (page.markdown, done)

    def fill(self, html: str, page: Page, config: MkDocsConfig, files: Files, finish: Callable[[str], str] = str) -> str:
        """The page with each part's HTML in place of its marker; the page gains the parts' anchors and links.

        `finish` is applied to each part's HTML once, when it is converted (the preview sanitizes parts, and the frame,
        apart: a part is a whole fragment, so its place in the page changes nothing in how it is read)."""
        uri = page.file.src_uri
        parts = self._taken.pop(uri, None)
        if not parts:
            return html
        digests = [hashlib.blake2b(text.encode(), digest_size=16).hexdigest() for text in parts]
        known = self._converted.get(uri, {})
        missing = {digest: text for digest, text in zip(digests, parts, strict=True) if digest not in known}
        if missing:
            converted_now = _convert(list(missing.values()), page, config, files)
            known = known | {digest: replace(done, html=finish(done.html)) for digest, done in zip(missing, converted_now, strict=True)}
        # The page's parts of this build, and no older ones: a serve session keeps one page's worth of parts per page.
        self._converted[uri] = self._made[0][uri] = {digest: known[digest] for digest in digests}
        converted = [known[digest] for digest in digests]
        filled: set[int] = set()

        def part_html(found: re.Match) -> str:
            filled.add(number := int(found.group(1)))
            return converted[number].html

        html = _MARKER.sub(part_html, html)
        if filled != set(range(len(parts))):  # a marker that Markdown did not leave as a paragraph of its own
            raise RuntimeError(f"{uri}: {len(parts) - len(filled)} of its {len(parts)} parts were not found in the converted page")
        for done in converted:
            done.add_to(page, files)
        return html

    def take_made(self) -> tuple[dict, dict]:
        """The parts and frames this process converted since the last call (a forked process sends them to its parent)."""
        made, self._made = self._made, ({}, {})
        return made

    def keep(self, made: tuple[dict, dict]) -> None:
        """Keep the parts and frames that a forked process converted."""
        self._converted.update(made[0])
        self._frames.update(made[1])


def _convert(parts: list[str], page: Page, config: MkDocsConfig, files: Files) -> list[_Converted]:
    """Convert parts of a page in one pass, as MkDocs converts the page (its links resolved from the page's place)."""
    scratch = copy.copy(page)  # MkDocs's conversion of this page, applied to other Markdown; the page is left as it is
    scratch.markdown = f"\n\n{_CUT}\n\n".join(parts)
    MKDOCS_RENDER(scratch, config, files)
    pieces = [piece.strip() for piece in scratch.content.split(_CUT)]
    if len(pieces) != len(parts):
        raise RuntimeError(f"{page.file.src_uri}: {len(parts)} parts converted into {len(pieces)} pieces")
    anchors = scratch.present_anchor_ids or set()
    links = {linked.src_uri: dict(to) for linked, to in (scratch.links_to_anchors or {}).items()}
    return [_Converted(html, *_own(anchors, links, text, html)) for text, html in zip(parts, pieces, strict=True)]


def _own(anchors: set[str], links: dict[str, dict[str, str]], markdown: str, html: str) -> tuple[frozenset, dict]:
    """Which of a pass's anchors and links to anchors are a part's own: an anchor its HTML names as an id, a link it
    writes in its Markdown (as written, which is how MkDocs records it)."""
    own_anchors = frozenset(anchor for anchor in anchors if f'id="{anchor}"' in html)
    own_links = {uri: {a: link for a, link in found.items() if link in markdown} for uri, found in links.items()}
    return own_anchors, {uri: found for uri, found in own_links.items() if found}


page_parts = PageParts()
