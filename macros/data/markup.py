"""Safe handling of data text: checks at load time, and one escaping function per output context at render time.

Templates write a data string only through one of: `inline` (Markdown prose), `plain` (text or a
quoted attribute value inside raw HTML, or image alt text), `link_target` (a URL in a Markdown link),
`front_matter` (a YAML front-matter value), `fenced` (a code block) or `text_only` (a line inside a
code block: no backticks can close it); a test holds them to it. JSON goes through `json.dumps`.

`inline` does not leave any decision to Markdown's own parsers. It reads the text once, left to right and
in linear time (`tokens`): code spans (a run of backticks closed by the next run of the same length) and
links (`[words](target)`); everything else is prose. It writes a code span as a `<code>` element whose
text is inert (every character Markdown or HTML would read written as a character reference), a link
with its target percent-encoded, and prose with every character that could open HTML, an attribute list,
a template, a link, an image, a code span or a table cell written as a character reference. So the only
HTML in its output is the `<code>` it writes, Markdown has no unbalanced bracket or backtick to search
through (its link parser is quadratic in them), and what a reader sees is what `tokens` read.
"""

from __future__ import annotations

import functools
import html
import json
import re
from dataclasses import dataclass
from urllib.parse import quote

import yaml

_BACKTICKS = re.compile(r"`+")
# A link: words with no bracket or line break, then a target (spaces around it allowed) with no space or angle
# bracket, whose parentheses (as in Wikipedia's addresses) come in pairs, one level deep.
_LINK = re.compile(r"\[([^\[\]\n]*)\]\([ \t]*((?:[^()\s<>]|\([^()\s<>]*\))+)[ \t]*\)")
_HTML_TAG = re.compile(r"<\s*/?\s*[A-Za-z!?]")
_IMAGE = re.compile(r"!\s*$")
_IGNORED_IN_URLS = re.compile(r"[\x00-\x20\x7f-\x9f<>]")  # browsers drop these (and the brackets of <url>) before reading a scheme
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
_SAFE_SCHEMES = {"http", "https", "mailto"}
_REFERENCE_LEVELS = 4  # `&amp;#106;` decodes in two steps when Markdown and HTML each unescape once; deeper is refused
# Every character Markdown reads as markup, as a character reference: text written with these is shown as it is.
_LITERAL = str.maketrans({c: f"&#{ord(c)};" for c in "\\`*_[]{}()#+-.!|~"})
# In prose: what could open HTML, an attribute list, a template, a link, an image, a code span or a table cell, or
# escape the character after it.
_PROSE = str.maketrans({c: f"&#{ord(c)};" for c in "\\`[]{}!|"} | {"<": "&lt;", ">": "&gt;"})
_PLAIN = str.maketrans({c: f"&#{ord(c)};" for c in "\\`[]{}|"})
# Inside a code span (never at the start of a line): what Markdown reads as emphasis, links, escapes, code, attribute
# lists or table cells.
_CODE = str.maketrans({c: f"&#{ord(c)};" for c in "\\`*_[]{}|"})


# Markdown's inline parser spends time on every character of syntax, escaped or not; real data holds at most about a
# hundred in a field and a thousand in a file. These limits keep a hostile file's pages quick to render.
SYNTAX_CHARACTERS = frozenset("`[]{}!|<>\\*_&")
MAX_SYNTAX_PER_FIELD = 1_000
MAX_SYNTAX_PER_FILE = 20_000


def syntax_count(text: str) -> int:
    """How many characters of the text are Markdown or HTML syntax."""
    return sum(text.count(character) for character in SYNTAX_CHARACTERS)


@dataclass(frozen=True, slots=True)
class Token:
    """One piece of data text: `prose`, `code` (its content without the backticks) or `link` (`text` and `target`)."""

    kind: str
    text: str
    target: str = ""


@functools.lru_cache(maxsize=65536)  # pages repeat the same texts, and a preview rebuild repeats the last build's
def tokens(text: str) -> tuple[Token, ...]:
    """Data text split into prose, code spans and links, in linear time.

    A backtick run opens a code span closed by the next run of exactly its length (as in CommonMark); a run with
    no such partner is prose. Links are read in the prose between code spans.
    """
    runs = [(match.start(), match.end()) for match in _BACKTICKS.finditer(text)]
    partner: list[int | None] = [None] * len(runs)
    next_of_length: dict[int, int] = {}
    for index in range(len(runs) - 1, -1, -1):  # from the right: the next run of each length
        length = runs[index][1] - runs[index][0]
        partner[index] = next_of_length.get(length)
        next_of_length[length] = index
    found: list[Token] = []
    position = index = 0
    while index < len(runs):
        closing = partner[index]
        if closing is None:
            index += 1
            continue
        found += _prose_and_links(text[position : runs[index][0]])
        found.append(Token("code", text[runs[index][1] : runs[closing][0]]))
        position = runs[closing][1]
        index = closing + 1
    found += _prose_and_links(text[position:])
    return tuple(found)


def _prose_and_links(prose: str) -> list[Token]:
    """Prose with its links as tokens of their own."""
    found: list[Token] = []
    position = 0
    for link in _LINK.finditer(prose):
        if link.start() > position:
            found.append(Token("prose", prose[position : link.start()]))
        found.append(Token("link", link.group(1), link.group(2)))
        position = link.end()
    if position < len(prose):
        found.append(Token("prose", prose[position:]))
    return found


# What a generated page writes in place of finished HTML (macros/views/slots.py); data text may not hold it, or the page
# would show that HTML there.
SLOT_PREFIX = "atlas-slot-"


def markup_problem(text: str) -> str | None:
    """Why this data text would not render as the Markdown it looks like, or None if it is fine."""
    if SLOT_PREFIX in text:
        return f"'{SLOT_PREFIX}' is reserved: the site's pages write it where they show finished HTML"
    pieces = tokens(text)
    for number, token in enumerate(pieces):
        if token.kind == "code":
            continue
        if _HTML_TAG.search(token.text):
            return "raw HTML is not allowed in data text; write Markdown and put code in backticks"
        if token.kind == "prose" and _IMAGE.search(token.text) and number + 1 < len(pieces) and pieces[number + 1].kind == "link":
            return "images are not allowed in data text (a page must load nothing from other sites); link to the picture instead"
        if token.kind == "link":
            problem = target_problem(token.target)
            if problem:
                return problem
    return None


def target_problem(target: str) -> str | None:
    """Why a link target is not allowed, or None: a link in data text is a full http, https or mailto address (the same
    text shows on pages at different depths, so a relative one would lead somewhere different on each)."""
    readable = as_browser_reads(target)
    if readable is None:
        return f"the link target {target[:80]!r} nests character references more than {_REFERENCE_LEVELS} levels deep"
    scheme = _SCHEME.match(readable)
    if not scheme:
        return f"the link target {target[:80]!r} is not a full address; write it as https://…"
    if scheme.group(1).lower() not in _SAFE_SCHEMES:
        return f"the link target {target[:80]!r} uses the scheme '{scheme.group(1)}:'; only http, https and mailto links are allowed"
    return None


def as_browser_reads(target: str) -> str | None:
    """A link target as a browser reads its scheme: character references decoded, control characters and spaces dropped;
    None when references are nested deeper than any renderer would decode them."""
    for _ in range(_REFERENCE_LEVELS):
        decoded = html.unescape(target)
        if decoded == target:
            return _IGNORED_IN_URLS.sub("", target)
        target = decoded
    return None


@functools.lru_cache(maxsize=65536)
def inline(text: str) -> str:
    """Data text as inline Markdown that reads exactly as `tokens` reads it (see the module's docstring)."""
    return "".join(_render(token) for token in tokens(text)).strip()


def _render(token: Token) -> str:
    """One token as inline Markdown."""
    if token.kind == "code":
        return f"<code>{html.escape(' '.join(token.text.strip().splitlines()), quote=False).translate(_CODE)}</code>"
    if token.kind == "link":
        return f"[{token.text.translate(_PROSE)}]({link_target(token.target)})"
    return token.text.translate(_PROSE)


def text_only(text: str) -> str:
    """Data text without its Markdown markers (links keep their words), as a reader sees it; not escaped."""
    words = "".join(token.text for token in tokens(text))
    return re.sub(r"`+|\*\*?|(?<!\w)__?|__?(?!\w)", "", words).strip()


def plain(text: str) -> str:
    """Data text without Markdown markers, HTML-escaped (quotes included) and with brackets, backticks and braces as
    character references: for text or attribute values inside raw HTML, and for image alt text."""
    return html.escape(text_only(text), quote=True).translate(_PLAIN)


def literal(text: str) -> str:
    """Text shown exactly as written inside Markdown: HTML-escaped, and every character Markdown would read as markup
    written as a character reference (for machine-written text such as an error message, and code spans)."""
    return html.escape(text, quote=True).translate(_LITERAL)


def link_target(url: str) -> str:
    """A data URL as the target of a Markdown link: characters that could end the link or start markup are percent-encoded."""
    return quote(url, safe=":/?#&=%+@,;~!$*'-._")


def front_matter(text: str) -> str:
    """Data text as a double-quoted YAML front-matter value: plain (the theme writes titles into the page raw), then quoted."""
    return json.dumps(plain(" ".join(text.split())), ensure_ascii=False)


# How MkDocs finds a page's front matter (mkdocs.utils.meta), which it then reads with YAML's safe loader.
_FRONT_MATTER = re.compile(r"^-{3}[ \t]*\n(.*?\n)(?:\.{3}|-{3})[ \t]*\n", re.DOTALL)


def front_matter_problem(markdown: str) -> str | None:
    """Why MkDocs would not read a generated page's front matter as a mapping that turns the macros plugin off, or None.

    MkDocs drops front matter it cannot read without a word, and the page would then lose `render_macros: false`.
    """
    found = _FRONT_MATTER.match(markdown)
    return _front_matter_block_problem(found.group(1)) if found else "the page has no front matter"


@functools.lru_cache(maxsize=8192)  # pages keep their front matter from one build to the next (`make serve`)
def _front_matter_block_problem(block: str) -> str | None:
    try:
        meta = yaml.load(block, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        return f"its front matter is not readable YAML ({exc})"
    if not isinstance(meta, dict) or meta.get("render_macros") is not False or not isinstance(meta.get("title"), str):
        return "its front matter does not read back as a mapping with a title and render_macros: false"
    return None


def fenced(code: str, language: str = "python", indent: int = 0) -> str:
    """A fenced code block whose fence is longer than any backtick run inside the code; each line indented by `indent`
    spaces after the first (for a block inside an admonition)."""
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{code.rstrip()}\n{fence}".replace("\n", "\n" + " " * indent)
