"""Read what the built HTML contains: element ids, links, and elements by class, with the stdlib parser."""

from __future__ import annotations

from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path


@dataclass
class Element:
    """One start tag and its attributes."""

    tag: str
    attrs: dict[str, str]


class ParsedPage(HTMLParser):
    """Every element of a page, in document order, and the text of its <title>."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        self.elements.append(Element(tag, {k: v or "" for k, v in attrs}))
        self._in_title = tag == "title"

    def handle_endtag(self, tag):
        self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data

    @property
    def ids(self) -> set[str]:
        """Every id on the page (anchors a URL fragment can target)."""
        return {e.attrs["id"] for e in self.elements if "id" in e.attrs} | {
            e.attrs["name"] for e in self.elements if e.tag == "a" and "name" in e.attrs
        }

    def links(self, tag: str = "a", attr: str = "href") -> list[str]:
        """Every value of `attr` on `tag` elements."""
        return [e.attrs[attr] for e in self.elements if e.tag == tag and attr in e.attrs]

    def with_class(self, name: str) -> list[Element]:
        """Elements whose class list contains `name`."""
        return [e for e in self.elements if name in e.attrs.get("class", "").split()]


def parse(path: Path) -> ParsedPage:
    """Parse one HTML file."""
    return parse_html(path.read_text(encoding="utf-8"))


def parse_html(markup: str) -> ParsedPage:
    """Parse a piece of HTML, such as the text of a search index entry."""
    page = ParsedPage()
    page.feed(markup)
    return page
