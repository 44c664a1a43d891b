"""What the theme needs to show each page in its edition: the page's language, its counterparts in the other
editions (for the language switch and `hreflang`), the edition's part of the navigation, and, once the site is
written, each edition's own search index and sitemap (so a Chinese page searches and prefetches Chinese pages)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from macros.views.edition import ENGLISH, LANGUAGE_NAMES
from macros.views.urls import HREFLANG_SITEMAP

SEARCH_INDEX = "search/search_index.json"
SITEMAP = "sitemap.xml"


@dataclass(frozen=True, slots=True)
class PageEdition:
    """One page as its edition sees it: its language, its folder (also its home), and the same page in each language
    (site-root URLs)."""

    language: str
    prefix: str
    counterparts: tuple[tuple[str, str, str], ...]  # (language, its name, URL of this page in it), English first


def page_edition(url: str | None, languages: tuple[str, ...]) -> PageEdition:
    """The edition of the page at site-root URL `url` (`zh/releases/1.10/`), among the translated `languages`."""
    url = url or ""
    folder = url.split("/", 1)[0]
    language = folder if folder in languages else ENGLISH
    prefix = "" if language == ENGLISH else f"{language}/"
    english_url = url[len(prefix) :]
    others = [(code, f"{code}/{english_url}") for code in languages]
    counterparts = tuple((code, LANGUAGE_NAMES[code], target) for code, target in [(ENGLISH, english_url), *others])
    return PageEdition(language, prefix, counterparts)


def theme_globals(languages: tuple[str, ...], words_script: str) -> dict:
    """What the theme overrides call to show a page in its edition (`overrides/partials/*.html`, `overrides/sitemap.xml`)."""
    return {
        "atlas_words_script": words_script,
        "atlas_edition": lambda page: page_edition(getattr(page, "url", None), languages),
        "atlas_nav_items": lambda items, page: edition_nav_items(
            items, page_edition(getattr(page, "url", None), languages).language, languages
        ),
        "atlas_navigation": lambda page, caller: caller(),  # the page's navigation; the serve preview keeps it
    }


def without_absent_editions(files, languages: tuple[str, ...]):
    """The docs files without the hand-written pages of an edition the data has no translations for (such as `zh/`
    beside data that has no `translations/zh/`): their links would lead to pages this build does not make."""
    for file in [f for f in files if f.src_uri.split("/", 1)[0] in set(LANGUAGE_NAMES) - {ENGLISH, *languages}]:
        files.remove(file)
    return files


def edition_nav_items(items: list, language: str, languages: tuple[str, ...]) -> list:
    """The top-level navigation items of one edition: each translated edition's tree is a section named after its
    language; English shows everything else."""
    names = {LANGUAGE_NAMES[code]: code for code in languages}
    if language == ENGLISH:
        return [item for item in items if not (item.is_section and item.title in names)]
    return next((item.children for item in items if item.is_section and names.get(item.title) == language), [])


def split_search_index(search_index, site_dir: str, languages: tuple[str, ...], config: dict) -> None:
    """Move each translated edition's pages out of Material's search index (which then holds the English) into the
    edition's own index, `<language>/search/search_index.json`, with locations from the edition's folder."""
    entries = search_index.entries
    for language in languages:
        prefix = f"{language}/"
        own = [entry | {"location": entry["location"][len(prefix) :]} for entry in entries if entry["location"].startswith(prefix)]
        path = Path(site_dir) / prefix / SEARCH_INDEX
        path.parent.mkdir(parents=True, exist_ok=True)
        document = {"config": config | {"lang": [ENGLISH, language]}, "docs": own}
        path.write_text(json.dumps(document, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    search_index.entries = [entry for entry in entries if entry["location"].split("/", 1)[0] not in languages]


_ENTRY = re.compile(r"<url><loc>([^<]*)</loc>(.*?)</url>", re.DOTALL)
_HEAD, _TAIL = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"', "\n</urlset>\n"
_XHTML = ' xmlns:xhtml="http://www.w3.org/1999/xhtml"'


def write_edition_sitemaps(site_dir: str, site_url: str, languages: tuple[str, ...], pages: frozenset[str]) -> None:
    """Beside the site's sitemap (the English pages), each translated edition's, `<language>/sitemap.xml`, with its
    counterparts of those pages; and `sitemap-hreflang.xml`, every page of every edition naming all of its editions.
    `pages`: the file of every page the build wrote (`releases/2.14/index.html`), by which a counterpart is known to exist.

    Each edition's sitemap lists its own pages, under its own folder, for the crawlers that read it.
    """
    site, root = Path(site_dir), site_url.rstrip("/") + "/"
    entries = _ENTRY.findall((site / SITEMAP).read_text(encoding="utf-8"))
    editions: list[list[tuple[str, str]]] = [
        [(code, root + url) for code, _, url in page_edition(loc.removeprefix(root), languages).counterparts if url + "index.html" in pages]
        for loc, _ in entries
    ]
    for language in languages:
        own = [
            f"<url><loc>{url}</loc>{rest}</url>"
            for (_, rest), urls in zip(entries, editions, strict=True)
            for code, url in urls
            if code == language
        ]
        (site / language / SITEMAP).write_text(_HEAD + ">\n" + "\n".join(own) + _TAIL, encoding="utf-8")
    annotated = [
        f"<url><loc>{loc}</loc>{rest}{_alternates(urls)}</url>"
        for (_, rest), urls in zip(entries, editions, strict=True)
        if len(urls) > 1
        for _, loc in urls
    ]
    (site / HREFLANG_SITEMAP).write_text(_HEAD + _XHTML + ">\n" + "\n".join(annotated) + _TAIL, encoding="utf-8")


def _alternates(urls: list[tuple[str, str]]) -> str:
    """The `hreflang` links of a page that is at each of `urls` in its edition."""
    return "".join(f'<xhtml:link rel="alternate" hreflang="{code}" href="{url}"/>' for code, url in urls)
