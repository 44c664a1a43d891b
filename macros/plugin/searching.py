"""Material's search index, made with less work: the same entries as Material's own indexing of each page.

Material's search plugin reads every page with Python's HTML parser to split it into sections, one per heading with an
id. Most tags on a release page only wrap text the parser keeps while it drops the tags: Pygments' `<span class="...">`
tokens inside code blocks, the stage badges, and plain links. They are removed before the page is read.
tests/unit/test_searching.py compares the entries with Material's own for a sample page, and the built site's search
index is the same byte for byte either way.

Under `make serve`, a section whose text, title and place are those of the build before is given its entry of then
instead of being made again: a template edit changes every release page but few of their sections, and making an
entry (the Chinese pages' word cutting most of all) is half the indexing of a page.
"""

from __future__ import annotations

import re

from material.plugins.search.plugin import Parser

_CODE_BLOCK = re.compile(r"<pre\b[^>]*>.*?</pre>", re.DOTALL)
# Elements the parser keeps only the text of, which carry nothing it reads: the atlas's stage badges, and links whose only
# attribute is their target (a permalink, which the parser must see to leave out, has a class).
_INERT = re.compile(r'<span title="[^"<>]*" class="atlas-stage atlas-stage--[a-z0-9-]+">([^<]*)</span>|<a href="[^"<>]*">([^<]*)</a>')
_SPAN_START = re.compile(r"<span\b")
_TOKEN_SPAN = re.compile(r'<span(?: class="[^"<>]*")?>|</span>')  # a start tag with a class at most, or an end tag


def without_inert_tags(html: str) -> str:
    """The page's HTML without the tags the search parser drops (code token spans, stage badges, plain links), their
    text kept. A code block with any other kind of span (an id, a search exclusion) stays as it is."""

    def lighter(block: re.Match) -> str:
        code = block.group(0)
        plain_spans = sum(1 for tag in _TOKEN_SPAN.findall(code) if tag != "</span>")
        return _TOKEN_SPAN.sub("", code) if plain_spans == len(_SPAN_START.findall(code)) else code

    return _INERT.sub(lambda found: found.group(1) or found.group(2) or "", _CODE_BLOCK.sub(lighter, html))


def index_lightly(search_index, remembered: dict[tuple, list[dict]]) -> None:
    """Make this build's search index (Material's `SearchIndex`) read each page without its inert tags, and give each
    section the entries `remembered` holds for it from the build before; `remembered` then holds this build's."""
    before = dict(remembered)
    remembered.clear()

    def add_entry_from_context(page) -> None:  # as Material's, with the page's HTML lighter
        if (page.meta.get("search") or {}).get("exclude"):
            return
        parser = Parser()
        parser.feed(without_inert_tags(page.content))
        parser.close()
        for section in parser.data:
            if section.is_excluded():
                continue
            key = _section_key(section, page)
            if key in before:
                search_index.entries.extend(dict(entry) for entry in before[key])
            else:
                count = len(search_index.entries)
                search_index.create_entry_for_section(section, page.toc, page.url, page)
                before[key] = [dict(entry) for entry in search_index.entries[count:]]
            remembered[key] = before[key]

    search_index.add_entry_from_context = add_entry_from_context


def _section_key(section, page) -> tuple:
    """Everything Material makes a section's entry from: the page's address, title, tags and boost, and the section's
    id, title and text (its link is the page's address and the id, whether or not the table of contents has it)."""
    search = page.meta.get("search") or {}
    meta = (repr(page.meta.get("title", page.title)), repr(page.meta.get("tags")), repr(search.get("boost")))
    return (page.url, section.id, tuple(section.title), tuple(section.text), *meta)
