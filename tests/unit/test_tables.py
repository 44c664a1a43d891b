"""Each Markdown table is written in a box of its own, wherever it stands, and nothing else changes."""

from __future__ import annotations

import re

import markdown

from macros.data.markup import inline
from macros.plugin.tables import BoxedTablesExtension

TABLE = "| a | b |\n| - | - |\n| 1 | 2 |\n"
PAGE = f"Intro\n\n{TABLE}\nBetween\n\n{TABLE}\n<div markdown>\n\n{TABLE}\n</div>\n\n- An item\n\n    | c |\n    | - |\n    | 3 |\n"
EXTENSIONS = ["tables", "md_in_html"]


def test_every_table_stands_alone_in_its_box_and_the_rest_is_as_before():
    plain = markdown.Markdown(extensions=EXTENSIONS).convert(PAGE)
    boxed = markdown.Markdown(extensions=[*EXTENSIONS, BoxedTablesExtension()]).convert(PAGE)
    assert plain.count("<table>") == 4
    assert len(re.findall(r'<div class="atlas-table"><table>.*?</table></div>', boxed, re.S)) == 4
    assert boxed.replace('<div class="atlas-table">', "").replace("</table></div>", "</table>") == plain


def test_a_data_text_written_as_a_table_stays_text_and_gets_no_box():
    """Data text reaches a page through `inline`, which writes its pipes as character references: only the site's own
    tables are tables, and only they are boxed."""
    hostile = "| <img src=x onerror=alert(1)> |\n| - |\n| x |"
    boxed = markdown.Markdown(extensions=[*EXTENSIONS, BoxedTablesExtension()]).convert(inline(hostile))
    assert "<table" not in boxed and "atlas-table" not in boxed and "<img" not in boxed
    assert "&lt;img src=x onerror=alert(1)&gt;" in boxed
