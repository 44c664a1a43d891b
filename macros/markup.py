"""Safe handling of data text: checks at load time, and one escaping function per output context at render time.

Templates write a data string only through one of: `inline` (Markdown prose), `plain` (text or a
quoted attribute value inside raw HTML), `link_target` (a URL in a Markdown link),
`front_matter` (a YAML front-matter value), `fenced` (a code block) or `text_only` (a line inside a
code block: no backticks can close it); a test holds them to it.
JSON goes through `json.dumps`.
"""

from __future__ import annotations

import functools
import html
import json
import re
from urllib.parse import quote

_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_HTML_TAG = re.compile(r"<\s*/?\s*[A-Za-z!?]")
_INLINE_LINK_TARGET = re.compile(r"\]\(([^)]*)")
_REFERENCE_LINK_TARGET = re.compile(r"^\s*\[[^\]]+\]:(.*)$", re.MULTILINE)
_IGNORED_IN_URLS = re.compile(r"[\x00-\x20\x7f-\x9f<>]")  # browsers drop these (and the brackets of <url>) before reading a scheme
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
_SAFE_SCHEMES = {"http", "https", "mailto"}
_LITERAL = str.maketrans({c: f"&#{ord(c)};" for c in "\\`*_[]{}()#+-.!|~"})
_ESCAPES = str.maketrans({"<": "&lt;", ">": "&gt;", "{": "&#123;", "}": "&#125;"})


def markup_problem(text: str) -> str | None:
    """Why this data text would not be safe to render as Markdown, or None if it is."""
    prose = _CODE_SPAN.sub("", text)
    if _HTML_TAG.search(prose):
        return "raw HTML is not allowed in data text; write Markdown and put code in backticks"
    targets = _INLINE_LINK_TARGET.findall(prose) + _REFERENCE_LINK_TARGET.findall(prose)
    for target in targets:
        scheme = _SCHEME.match(as_browser_reads(target))
        if scheme and scheme.group(1).lower() not in _SAFE_SCHEMES:
            shown = target.strip()
            return f"the link target {shown!r} uses the scheme '{scheme.group(1)}:'; only http, https and mailto links are allowed"
    return None


def as_browser_reads(target: str) -> str:
    """A link target as a browser reads its scheme: character references decoded, control characters and spaces dropped."""
    previous = None
    while previous != target:  # `&amp;#106;` decodes in two steps when Markdown and HTML each unescape once
        previous, target = target, html.unescape(target)
    return _IGNORED_IN_URLS.sub("", target)


@functools.lru_cache(maxsize=65536)  # pages repeat the same texts, and a preview rebuild repeats the last build's
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


def text_only(text: str) -> str:
    """Data text without its Markdown markers (links keep their words), as a reader sees it; not escaped."""
    text = _LINK.sub(r"\1", text)
    return re.sub(r"`+|\*\*?|(?<!\w)__?|__?(?!\w)", "", text).strip()


def plain(text: str) -> str:
    """Data text without Markdown markers, HTML-escaped (quotes included), for text or attribute values inside raw HTML."""
    return html.escape(text_only(text), quote=True)


def literal(text: str) -> str:
    """Text shown exactly as written inside Markdown: HTML-escaped, and every character Markdown would read as markup
    written as an entity (for machine-written text such as an error message)."""
    return html.escape(text, quote=True).translate(_LITERAL)


def link_target(url: str) -> str:
    """A data URL as the target of a Markdown link: characters that could end the link or start markup are percent-encoded."""
    return quote(url, safe=":/?#&=%+@,;~!$*'-._")


def front_matter(text: str) -> str:
    """Data text as a double-quoted YAML front-matter value: plain (the theme writes titles into the page raw), then quoted."""
    return json.dumps(plain(" ".join(text.split())), ensure_ascii=False)


def _escape(prose: str) -> str:
    """Replace the characters that could open HTML, attribute lists or templates."""
    return prose.translate(_ESCAPES)


def fenced(code: str, language: str = "python") -> str:
    """A fenced code block whose fence is longer than any backtick run inside the code."""
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{code.rstrip()}\n{fence}"
