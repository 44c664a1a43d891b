"""Safe handling of data text inside generated Markdown: checks at load time, escaping at render time."""

from __future__ import annotations

import html
import re

_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_HTML_TAG = re.compile(r"<\s*/?\s*[A-Za-z!?]")
_INLINE_LINK_TARGET = re.compile(r"\]\(\s*<?\s*([^)\s>]+)")
_REFERENCE_LINK_TARGET = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+)", re.MULTILINE)
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
_SAFE_SCHEMES = {"http", "https", "mailto"}
_ESCAPES = str.maketrans({"<": "&lt;", ">": "&gt;", "{": "&#123;", "}": "&#125;"})


def markup_problem(text: str) -> str | None:
    """Why this data text would not be safe to render as Markdown, or None if it is."""
    prose = _CODE_SPAN.sub("", text)
    if _HTML_TAG.search(prose):
        return "raw HTML is not allowed in data text; write Markdown and put code in backticks"
    targets = _INLINE_LINK_TARGET.findall(prose) + _REFERENCE_LINK_TARGET.findall(prose)
    for target in targets:
        scheme = _SCHEME.match(target)
        if scheme and scheme.group(1).lower() not in _SAFE_SCHEMES:
            return f"the link target {target!r} uses the scheme '{scheme.group(1)}:'; only http, https and mailto links are allowed"
    return None


def inline(text: str) -> str:
    """Data text as inline Markdown with HTML and attribute-list or template syntax shown literally."""
    parts = []
    position = 0
    for span in _CODE_SPAN.finditer(text):
        parts.append(_escape(text[position : span.start()]))
        parts.append(span.group(0))
        position = span.end()
    parts.append(_escape(text[position:]))
    return "".join(parts).strip()


def plain(text: str) -> str:
    """Data text without Markdown markers, HTML-escaped, for use inside raw HTML."""
    text = _LINK.sub(r"\1", text)
    text = re.sub(r"`+|\*\*?|(?<!\w)__?|__?(?!\w)", "", text)
    return html.escape(text.strip(), quote=True)


def _escape(prose: str) -> str:
    """Replace the characters that could open HTML, attribute lists or templates."""
    return prose.translate(_ESCAPES)


def fenced(code: str, language: str = "python") -> str:
    """A fenced code block whose fence is longer than any backtick run inside the code."""
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{code.rstrip()}\n{fence}"
