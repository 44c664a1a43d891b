"""The remembering highlighter gives pymdownx.highlight's HTML, and highlights a block it has seen only once."""

from __future__ import annotations

import markdown
import pymdownx.highlight

from macros.highlighting import RememberingHighlightExtension

PAGE = '# Page\n\n```python\nimport torch\nx = torch.ones(3)  # "quoted"\n```\n\nInline `#!python torch.ones(3)` code.\n'
EXTENSIONS = ["pymdownx.superfences", "pymdownx.inlinehilite", "attr_list", "md_in_html"]


def _convert(highlight) -> str:
    return markdown.Markdown(extensions=[*EXTENSIONS, highlight]).convert(PAGE)


def test_the_html_is_pymdownx_highlights():
    assert _convert(RememberingHighlightExtension(anchor_linenums=False)) == _convert(
        pymdownx.highlight.HighlightExtension(anchor_linenums=False)
    )


def test_a_block_seen_before_is_not_highlighted_again(monkeypatch):
    calls = []
    real = pymdownx.highlight.highlight
    monkeypatch.setattr(pymdownx.highlight, "highlight", lambda *args: calls.append(args[0]) or real(*args))
    # Settings no other test uses: the remembered blocks are shared by the process.
    first = _convert(RememberingHighlightExtension(linenums_class="seen-once", anchor_linenums=False))
    highlighted = [code for code in calls if "import torch" in code]
    assert _convert(RememberingHighlightExtension(linenums_class="seen-once", anchor_linenums=False)) == first
    assert [code for code in calls if "import torch" in code] == highlighted
    assert len(highlighted) == 1
    assert sum(code.strip() == "torch.ones(3)" for code in calls) == 2  # inline code is highlighted each time
