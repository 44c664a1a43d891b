"""Finished HTML that generated pages show without Markdown reading it, and the HTML of the links to sources.

Markdown's parsers spend much of a build on long runs of links and raw HTML that need none of them: the API
reference's tables of names, the links to the sources under every entry of a release page (some 12,000 links on the
release pages) and the stage badges (some 4,000). A page holds a marker named after its HTML's digest instead, so the
page's Markdown changes whenever the HTML does, and the hook puts the HTML in its place before the sanitizer reads the
page.
"""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from macros.data.markup import SLOT_PREFIX, link_target
from macros.data.model import Source

MARKER = re.compile(rf"{SLOT_PREFIX}[0-9a-f]{{32}}")
# A marker alone in its paragraph stands for block HTML (a table, a list); anywhere else, for inline HTML.
SLOT = re.compile(rf"<p>({MARKER.pattern})</p>|({MARKER.pattern})")


@dataclass
class HtmlSlots:
    """The finished HTML of every marker that the generated pages hold."""

    html: dict[str, str] = field(default_factory=dict)

    def put(self, html: str) -> str:
        """The marker to write into the page's Markdown: on a line of its own for block HTML, or inside a line."""
        marker = SLOT_PREFIX + hashlib.blake2b(html.encode(), digest_size=16).hexdigest()
        self.html[marker] = html
        return marker

    def fill(self, page_html: str) -> str:
        """A converted page with its markers replaced by their HTML."""
        if SLOT_PREFIX not in page_html:
            return page_html
        return SLOT.sub(lambda found: self.html.get(found.group(1) or found.group(2), found.group(0)), page_html)


def source_link(source: Source) -> str:
    """A link to a source, its title shown as plain text (a title that quotes `__torch_function__` keeps its
    underscores: Markdown would have read them as bold)."""
    return f'<a href="{html.escape(link_target(source.url))}">{html.escape(" ".join(source.title.split()), quote=False)}</a>'


def source_links(urls: Iterable[str], sources: Mapping[str, Source]) -> str:
    """The links to an entry's sources, in its order, on one line."""
    return " · ".join(source_link(sources[url]) for url in urls)


def source_list(sources: Iterable[Source]) -> str:
    """A release's sources as a bulleted list, as Markdown writes one."""
    return "<ul>\n" + "".join(f"<li>{source_link(source)}</li>\n" for source in sources) + "</ul>"
