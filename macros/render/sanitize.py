"""The last line of defence: page HTML passes an allowlist sanitizer (nh3) before it reaches a reader.

Data text is checked when loaded and escaped when rendered; this catches whatever those missed.
Only the tags and attributes the site's own pages use survive, and links keep only http, https
and mailto schemes (or relative addresses): no script, event handler or `javascript:` URL can.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor

import nh3

ALLOWED_TAGS = frozenset(
    {"a", "abbr", "blockquote", "br", "button", "code", "datalist", "dd", "del", "details", "div", "dl", "dt", "em", "form", "hr"}
    | {"h1", "h2", "h3", "h4", "h5", "h6", "img", "input", "kbd", "label", "li", "mark", "nav", "ol", "option", "output", "p", "pre"}
    | {"section"}
    | {"select", "small", "span", "strong", "sub", "summary", "sup", "table", "tbody", "td", "th", "thead", "tr", "ul"}
)
ALLOWED_ATTRIBUTES = {
    "*": {"class", "id", "title", "hidden", "lang", "role", "tabindex", "aria-label", "aria-live", "aria-hidden"},
    "a": {"href", "rel"},
    "img": {"src", "alt"},
    "abbr": {"title"},
    "button": {"type"},
    "details": {"open"},
    "form": {"method"},
    "input": {"type", "name", "autocomplete", "spellcheck", "placeholder", "list", "inputmode", "accept"},
    "label": {"for"},
    "option": {"value", "selected"},
    "output": {"name"},
    "select": {"name"},
    "td": {"colspan", "rowspan"},
    "th": {"colspan", "rowspan", "scope"},
}
URL_SCHEMES = frozenset({"http", "https", "mailto"})


def sanitize(html: str) -> str:
    """Page HTML with every tag, attribute and URL scheme outside the allowlist removed."""
    return nh3.clean(
        html,
        tags=set(ALLOWED_TAGS),
        attributes={tag: set(names) for tag, names in ALLOWED_ATTRIBUTES.items()},
        generic_attribute_prefixes={"data-"},
        url_schemes=set(URL_SCHEMES),
        link_rel=None,
        strip_comments=True,
    )


class PageSanitizer:
    """Sanitizes each page's HTML on a worker thread while Markdown converts the next pages (nh3 parses without
    holding Python's lock, so a full build uses a second core for it).

    MkDocs converts every page before it reads any page's content again (its `env` event comes in between):
    `later` takes a converted page, and `apply` gives every page its sanitized HTML at that point. Until then no
    page is indexed, rendered or written.
    """

    def __init__(self) -> None:
        self._pending: list[tuple[object, Future[str]]] = []
        self._pool: ThreadPoolExecutor | None = None

    def later(self, page: object, html: str) -> None:
        """Start sanitizing `html`, the converted content of `page`."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sanitize")
        self._pending.append((page, self._pool.submit(sanitize, html)))

    def apply(self) -> None:
        """Replace each page's content with its sanitized HTML, waiting for what is still being sanitized."""
        pending, self._pending = self._pending, []
        for page, future in pending:
            page.content = future.result()

    def forget(self) -> None:
        """Drop the pages of a build that failed."""
        for _, future in self._pending:
            future.cancel()
        self._pending = []
