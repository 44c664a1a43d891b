"""Material's search index, made with less work: the same entries as Material's own indexing of each page.

Material's search plugin reads every page with Python's HTML parser to split it into sections, one per heading with an
id. More than half of the tags on a release page are Pygments' `<span class="...">` tokens inside code blocks, which only
carry colour: the parser keeps their text and drops the tags. They are removed before the page is read.
tests/unit/test_searching.py compares the entries with Material's own for sample pages.
"""

from __future__ import annotations

import re

from material.plugins.search.plugin import Parser

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


def index_lightly(search_index) -> None:
    """Make this build's search index (Material's `SearchIndex`) read each page without its code token spans."""

    def add_entry_from_context(page) -> None:  # as Material's, with the page's HTML lighter
        if (page.meta.get("search") or {}).get("exclude"):
            return
        parser = Parser()
        parser.feed(without_token_spans(page.content))
        parser.close()
        for section in parser.data:
            if not section.is_excluded():
                search_index.create_entry_for_section(section, page.toc, page.url, page)

    search_index.add_entry_from_context = add_entry_from_context
