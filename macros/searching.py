"""Material's search index, made with less work: the same entries as Material's own indexing of each page.

Material's search plugin reads every page with Python's HTML parser to split it into sections, one per heading
with an id, then cuts Chinese text into words. Here:
- **Lighter HTML.** More than half of the tags on a release page are Pygments' `<span class="...">` tokens inside
  code blocks, which only carry colour: the parser keeps their text and drops the tags. They are removed first.
- **Pieces remembered** (the serve preview). A page is read in pieces, each starting at a heading with an id; a
  piece is read by a parser of its own, which gives what the page's parser gives when every element opened before
  the heading is closed (Material's parser then holds nothing from earlier pieces but the list of sections, which a
  piece only appends to). A piece that leaves an element open is read together with the next. Each piece's
  sections (by the piece's digest), and each text's Chinese words, are remembered for the process, so a serve
  rebuild reads again only the pieces of a page that changed.
- **One pass.** After indexing a page, Material's plugin runs an expression over its whole HTML to drop
  `data-search-*="…"` attributes; as the expression may start with a space, it is tried at every character (0.1 s
  for the release pages alone). A page that holds no such attribute is only indexed.
tests/unit/test_searching.py compares the entries with Material's own for sample pages, and
tests/built_site/test_search_pieces.py the sections of every page of the built site.
"""

from __future__ import annotations

import hashlib
import re
import types
from dataclasses import dataclass

from material.plugins.search.plugin import Element, Parser, SearchIndex, SearchPlugin, Section
from mkdocs.plugins import PluginCollection

from .forking import Memo

_CODE_BLOCK = re.compile(r"<pre\b[^>]*>.*?</pre>", re.DOTALL)
_SPAN_START = re.compile(r"<span\b")
_TOKEN_SPAN = re.compile(r'<span(?: class="[^"<>]*")?>|</span>')  # a start tag with a class at most, or an end tag


def without_token_spans(html: str) -> str:
    """The page's HTML with the span tags of its code blocks removed, their text kept.

    A code block with any other kind of span (an id, a search exclusion) stays as it is.
    """

    def lighter(block: re.Match) -> str:
        code = block.group(0)
        plain_spans = sum(1 for tag in _TOKEN_SPAN.findall(code) if tag != "</span>")
        return _TOKEN_SPAN.sub("", code) if plain_spans == len(_SPAN_START.findall(code)) else code

    return _CODE_BLOCK.sub(lighter, html)


_PIECE_START = re.compile(r"(?=<h[1-6]\b[^>]*\bid=)")  # where a parser starts a section
_REMEMBERED = 1 << 16  # pieces and texts kept: the two editions' pages of the real site hold about a tenth of it


@dataclass(frozen=True, slots=True)
class _ReadSection:
    """A section as Material's parser leaves it, to be copied for each use (indexing adds the page title to it)."""

    tag: str
    attrs: tuple[tuple[str, str | None], ...]
    id: str | None
    title: tuple[str, ...]
    text: tuple[str, ...]

    def copy(self) -> Section:
        section = Section(Element(self.tag, dict(self.attrs)))
        section.id, section.title, section.text = self.id, list(self.title), list(self.text)
        return section


def page_sections(html: str) -> list[Section]:
    """The sections Material's parser finds in a page's HTML (code token spans removed first), read piece by piece."""
    found: list[_ReadSection] = []
    pending = ""
    for piece in _PIECE_START.split(html):
        pending += piece
        sections = read_piece(pending, not found, False)
        if sections is not None:
            found += sections
            pending = ""
    if pending:
        found += read_piece(pending, not found, True)
    return [section.copy() for section in found]


def _read(html: str, first: bool, last: bool) -> tuple[_ReadSection, ...] | None:
    """The sections of a piece of a page (None if it leaves an element open and is not the last); after the first
    piece, the parser is told that sections came before, as the page's parser would know."""
    earlier = None if first else Section(Element("hx"))
    parser = _parsed(html, earlier)
    if parser.context and not last:
        return None
    sections = [section for section in parser.data if section is not earlier]
    return tuple(_ReadSection(s.el.tag, tuple(s.el.attrs.items()), s.id, tuple(s.title), tuple(s.text)) for s in sections)


read_piece = Memo(_read, _REMEMBERED, key=lambda html, first, last: (hashlib.blake2b(html.encode()).digest(), first, last))
segmented = Memo(lambda text: SearchIndex._segment_chinese(None, text), _REMEMBERED)  # it reads the text alone


def index_lightly(search_index, *, remembering: bool) -> None:
    """Make Material's search index (`material.plugins.search.plugin.SearchIndex`) read pages without code token spans;
    `remembering` (the serve preview), read them in remembered pieces and remember the Chinese words of each text."""

    def add_entry_from_context(page) -> None:  # as Material's, with the page's HTML lighter, and read in pieces
        if (page.meta.get("search") or {}).get("exclude"):
            return
        for section in page_sections(page.content) if remembering else _parsed(page.content).data:
            if not section.is_excluded():
                search_index.create_entry_for_section(section, page.toc, page.url, page)

    search_index.add_entry_from_context = add_entry_from_context
    if remembering:
        search_index._segment_chinese = segmented


_SEARCH_ATTRIBUTE = re.compile(r'data-search-\w+="[^"]+"')  # what Material drops from a page, less the space before


def index_in_one_pass(plugins: PluginCollection) -> None:
    """Make the search plugin's page event skip its pass over a page's HTML when the page holds nothing it would drop."""
    handlers = plugins.events["page_context"]
    for position, handler in enumerate(handlers):
        if getattr(handler, "__func__", None) is SearchPlugin.on_page_context:
            one_pass = types.MethodType(_index_page, handler.__self__)
            plugins._event_origins[one_pass] = plugins._event_origins.get(handler, "material/search")
            handlers[position] = one_pass


def _index_page(plugin: SearchPlugin, context: dict, *, page, config, nav) -> None:
    """Material's search plugin's page event, which indexes the page and drops its `data-search-*` attributes."""
    if _SEARCH_ATTRIBUTE.search(page.content):
        SearchPlugin.on_page_context(plugin, context, page=page, config=config, nav=nav)
    elif plugin.config.enabled:
        plugin.search_index.add_entry_from_context(page)


def _parsed(html: str, earlier: Section | None = None) -> Parser:
    """Material's parser after reading the HTML without code token spans; told of an `earlier` section, if given."""
    parser = Parser()
    if earlier:
        parser.data.append(earlier)
        parser.section = earlier
    parser.feed(without_token_spans(html))
    parser.close()
    return parser
