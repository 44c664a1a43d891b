"""The remembering highlighter gives pymdownx.highlight's HTML, and highlights a block it has seen only once."""

from __future__ import annotations

import re
from pathlib import Path

import markdown
import material
import pymdownx.highlight

from macros.plugin.highlighting import RememberingHighlightExtension
from tests.conftest import PROJECT_DIR

PAGE = '# Page\n\n```python\nimport torch\nx = torch.ones(3)  # "quoted"\n```\n\nInline `#!python torch.ones(3)` code.\n'
EXTENSIONS = ["pymdownx.superfences", "pymdownx.inlinehilite", "attr_list", "md_in_html"]


def _convert(highlight) -> str:
    return markdown.Markdown(extensions=[*EXTENSIONS, highlight]).convert(PAGE)


def test_the_html_is_pymdownx_highlights_without_its_plain_token_spans():
    ours = _convert(RememberingHighlightExtension(anchor_linenums=False))
    theirs = _convert(pymdownx.highlight.HighlightExtension(anchor_linenums=False))
    assert '<span class="n">torch</span>' in theirs and '<span class="w"> </span>' in theirs
    block, inline = theirs.split("</pre>")  # inline code keeps its spans: it is short, and highlighted apart
    assert ours == re.sub(r'<span class="[nw]">([^<]*)</span>', r"\1", block) + "</pre>" + inline
    assert 'class="n"' not in ours.split("</pre>")[0] and 'class="w"' not in ours
    assert (
        '<span class="kn">import</span> <span class="nn">torch</span>' in ours
        and '<span class="o">=</span> torch<span class="o">.</span>ones' in ours
    )


def test_the_theme_draws_names_in_the_codes_colour_and_leaves_whitespace_unstyled():
    stylesheets = sorted((Path(material.__file__).parent / "templates" / "assets" / "stylesheets").glob("*.css"))
    css = "".join(path.read_text(encoding="utf-8") for path in [*stylesheets, PROJECT_DIR / "docs" / "assets" / "atlas.css"])
    rules = re.findall(r"([^{}]*)\{([^{}]*)\}", css)
    for selectors, declarations in rules:
        chosen = [selector.strip() for selector in selectors.split(",")]
        assert not any(re.search(r"\.w\b", selector) for selector in chosen), selectors
        if any(re.search(r"\.n(?![\w-])", selector) for selector in chosen):
            assert declarations == "color:var(--md-code-hl-name-color)", (selectors, declarations)
    defined = re.findall(r"--md-code-hl-name-color:([^;}]*)", css)
    assert defined and set(defined) == {"var(--md-code-fg-color)"}


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


def test_a_code_block_that_spells_token_spans_and_tags_stays_text():
    hostile = "```python\nx = '<span class=\"n\">y</span></code><script>alert(1)</script>'\n```\n"
    html = markdown.Markdown(extensions=[*EXTENSIONS, RememberingHighlightExtension(anchor_linenums=False)]).convert(hostile)
    assert "<script" not in html
    assert '<span class="s1">\'&lt;span class="n"&gt;y&lt;/span&gt;&lt;/code&gt;&lt;script&gt;alert(1)&lt;/script&gt;\'</span>' in html
