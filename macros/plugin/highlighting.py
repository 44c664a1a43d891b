"""Code highlighting that remembers its results: pymdownx.highlight, with each highlighted block kept for the process,
less the token spans that change nothing on screen.

A template edit changes every release page, but not one of the hundreds of code blocks on them; under `make serve`
the rebuild then converts the pages without running Pygments again. SuperFences asks the highlight extension for
its highlighter (`get_pymdownx_highlighter`), so this extension stands in for `pymdownx.highlight` with its settings.
"""

from __future__ import annotations

import re
from typing import ClassVar

from pymdownx.highlight import Highlight, HighlightExtension

# Names, which the theme draws in the code's own colour, and whitespace, which it does not style: a release page has
# over a thousand such spans, each an element for a phone's browser to style and lay out (tests/unit/test_highlighting.py
# checks the theme's stylesheets still draw them so).
PLAIN_TOKEN = re.compile(r'<span class="[nw]">([^<]*)</span>')
MAX_REMEMBERED = 20_000  # highlighted blocks kept; the real data has about 650


class _RememberingHighlight(Highlight):
    """pymdownx's highlighter; a block highlighted before with the same settings and arguments is not highlighted again."""

    _done: ClassVar[dict[tuple, str]] = {}  # shared by every instance: one is made per code block

    def __init__(self, md, **settings) -> None:
        super().__init__(md, **settings)
        self._settings = repr(sorted(settings.items()))

    def highlight(self, src, language, *args, **kwargs):
        """The block's HTML without plain token spans, from memory when this exact block was highlighted before; inline
        code and titles as usual."""
        if kwargs.get("inline") or kwargs.get("title"):  # inline code returns an element; a title lives in the page's stash
            return super().highlight(src, language, *args, **kwargs)
        key = (self._settings, src, language, repr(args), repr(sorted(kwargs.items())))
        if key not in self._done:
            if len(self._done) >= MAX_REMEMBERED:  # a long serve session forgets the oldest
                del self._done[next(iter(self._done))]
            self._done[key] = PLAIN_TOKEN.sub(r"\1", super().highlight(src, language, *args, **kwargs))
        return self._done[key]


class RememberingHighlightExtension(HighlightExtension):
    """`pymdownx.highlight`, configured the same way, whose highlighter remembers its blocks."""

    def get_pymdownx_highlighter(self):
        """The highlighter SuperFences uses."""
        return _RememberingHighlight
