"""Material's search index, fed lighter HTML: highlighted code loses its token spans before the parser reads a page.

Material's search plugin reads every page with Python's HTML parser to split it into sections. More than half of
the tags on a release page are Pygments' `<span class="...">` tokens inside code blocks, which only carry
colour: the parser keeps their text and drops the tags. Removing them first gives the same entries with about
half the parsing; tests/unit/test_searching.py compares the entries with and without.
"""

from __future__ import annotations

import re

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
    """Make Material's search index (`material.plugins.search.plugin.SearchIndex`) read pages without code token spans."""
    index_page = search_index.add_entry_from_context

    def add_entry_from_context(page) -> None:
        content = page.content
        page.content = without_token_spans(content)
        try:
            index_page(page)
        finally:
            page.content = content

    search_index.add_entry_from_context = add_entry_from_context
