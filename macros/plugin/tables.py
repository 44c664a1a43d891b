"""Each Markdown table in a box of its own (`<div class="atlas-table">`), written into the page.

The theme puts every table without a class into its scrolling box when a page loads, moving the table. One of the
theme's rules styles the element that follows a table (`table:not([class]) + *`), so the browser recomputes the style
of the whole text column whenever a table moves among its siblings: on the longest release page, 2,700 elements at
start-up.
Moved inside a box of its own, the table has no siblings, and only the box is styled again. The theme still adds its
scrolling box, inside this one, which has no style of its own.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

from markdown import Markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

BOX_CLASS = "atlas-table"


class _BoxTables(Treeprocessor):
    """Wraps each table the theme styles (one without a class) in a `div` of its own."""

    def run(self, root: ElementTree.Element) -> None:
        parents = [element for element in root.iter() if element.find("table") is not None]  # the search runs in C
        for parent in parents:
            for position, child in enumerate(parent):
                if child.tag == "table" and "class" not in child.attrib:
                    box = ElementTree.Element("div", {"class": BOX_CLASS})
                    box.tail, child.tail = child.tail, None
                    parent[position] = box
                    box.append(child)


class BoxedTablesExtension(Extension):
    """Markdown tables each in a box of their own."""

    def extendMarkdown(self, md: Markdown) -> None:
        md.treeprocessors.register(_BoxTables(md), "atlas_boxed_tables", 0)
