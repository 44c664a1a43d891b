"""Every page of the real site, read in pieces and without code token spans (macros/searching.py), gives the sections
Material's parser gives the whole page."""

from __future__ import annotations

import re

from material.plugins.search.plugin import Parser

from macros.searching import page_sections

ARTICLE = re.compile(r'<article class="md-content__inner md-typeset">(.*?)</article>', re.DOTALL)


def _sections(sections: list) -> list[tuple]:
    """Each section as an index entry reads it: its heading's tag and id, its title and text joined, whether excluded."""
    return [(s.el.tag, s.id, "".join(s.title).strip(), "".join(s.text).strip(), s.is_excluded()) for s in sections]


def test_every_page_read_in_pieces_gives_material_s_sections(built_site):
    pages = sorted(built_site.files.rglob("*.html"))
    checked = 0
    for path in pages:
        found = ARTICLE.search(path.read_text(encoding="utf-8"))
        if not found:
            continue
        parser = Parser()
        parser.feed(found.group(1))
        parser.close()
        assert _sections(page_sections(found.group(1))) == _sections(parser.data), path.relative_to(built_site.files)
        checked += 1
    assert checked > 2000, f"only {checked} pages had an article"
