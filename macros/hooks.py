"""MkDocs hook: load the data, add the generated pages and files, build the nav; keep serve rebuilds quick (macros/preview.py)."""

from __future__ import annotations

import functools
import gc
import logging
import os
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2
from markupsafe import Markup
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.theme import Theme

if TYPE_CHECKING:
    from mkdocs.livereload import LiveReloadServer

PROJECT_DIR = Path(__file__).resolve().parent.parent
if str(PROJECT_DIR) not in sys.path:  # MkDocs loads hooks by path; make the `macros` package importable.
    sys.path.insert(0, str(PROJECT_DIR))

from macros.build import generate_checked  # noqa: E402
from macros.generate import COMPILED_TEMPLATES, GeneratedSite  # noqa: E402
from macros.highlighting import RememberingHighlightExtension  # noqa: E402
from macros.i18n.theme import split_search_index, theme_globals, without_absent_editions, write_edition_sitemaps  # noqa: E402
from macros.page_macros import every_output  # noqa: E402
from macros.page_parts import page_parts, whole  # noqa: E402
from macros.preview import preview  # noqa: E402
from macros.reloading import keep_files_named_by_content  # noqa: E402
from macros.sanitize import PageSanitizer, sanitize  # noqa: E402
from macros.searching import index_in_one_pass, index_lightly  # noqa: E402
from macros.urls import WORDS_SCRIPT  # noqa: E402
from macros.yamlfile import DataErrors  # noqa: E402

log = logging.getLogger("mkdocs.plugins.atlas")
# The macros plugin reports its own setup at INFO level on every build; keep clean builds quiet.
logging.getLogger("mkdocs.plugins.mkdocs_macros").setLevel(logging.WARNING)
logging.getLogger("jieba").setLevel(logging.WARNING)  # the Chinese word splitter of the search index reports its setup
DATA_DIR = PROJECT_DIR / "data"
HIGHLIGHT = "pymdownx.highlight"  # configured in mkdocs.yml; its highlighter is swapped for one that remembers blocks
_generated: GeneratedSite | None = None
_command = "build"  # the MkDocs command of this process (`on_startup`): serve rebuilds, build builds once
_sanitizer = PageSanitizer()
_idle_collection = threading.Timer(0, lambda: None)  # the pending collection between serve rebuilds
# Seconds after a rebuild: the browser has reloaded the page by then, and a save that comes sooner (a data edit now
# rebuilds in well under a second) cancels it rather than waiting for a collection (about 0.25 s) to end.
IDLE_COLLECTION_DELAY = 3.0
_MKDOCS_THEME_ENVIRONMENT = Theme.get_env
_page_files: frozenset[str] = frozenset()  # the build's pages (`on_env`), for the edition sitemaps it writes at its end


@event_priority(100)
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Generate the site from the data (stopping the build on any mistake or broken published URL); set the nav and the
    highlighter that remembers code blocks."""
    global _generated
    try:
        repository = config.extra.get("repository", "")
        _generated = generate_checked(DATA_DIR, site_url=config.site_url or "/", repository=repository, keep_pages=preview.active)
    except DataErrors as errors:
        raise PluginError(str(errors)) from None
    config.nav = _generated.nav
    if _command == "build":  # one build per process keeps the generated site to its end: the collector need not walk it
        gc.collect()
        gc.freeze()
    position = config.markdown_extensions.index(HIGHLIGHT)
    config.markdown_extensions[position] = RememberingHighlightExtension(**config.mdx_configs.get(HIGHLIGHT, {}))
    return config


def on_startup(command: str, dirty: bool) -> None:
    """`mkdocs serve` previews incrementally, with `--dirty` (`make serve`) or without; `mkdocs serve --clean` and every
    other command build in full."""
    global _command
    _command = command
    Theme.get_env = _theme_environment
    if command == "serve" and not dirty:
        _rebuild_dirty()
        dirty = True
    preview.start(command=command, dirty=dirty)
    if preview.active:
        Page.render = _render_page
    if preview.active:  # MkDocs warns that dirty builds may be inaccurate; the preview's are exact (macros/preview.py)
        logging.getLogger("mkdocs.commands.build").addFilter(lambda record: not record.getMessage().startswith("A 'dirty' build"))


def _render_page(page: Page, config: MkDocsConfig, files: Files) -> None:
    """MkDocs's conversion of a page, which converts the frame of a page with parts only when it changed since the last
    build of this process (macros/page_parts.py)."""
    page_parts.render(page, config, files)


def _theme_environment(theme: Theme) -> jinja2.Environment:
    """The theme's template environment, which MkDocs makes anew for every build (and Material's search for each word it
    translates), reusing what earlier ones learnt: the compiled templates, and the files of the installed theme's folders,
    which MkDocs lists at every build to find the static files it copies. The overrides folder is listed anew each time."""
    env = _MKDOCS_THEME_ENVIRONMENT(theme)
    env.loader = _ThemeLoader(theme.dirs, overrides=theme.custom_dir)
    env.bytecode_cache = COMPILED_TEMPLATES
    return env


class _ThemeLoader(jinja2.FileSystemLoader):
    """A theme loader that lists the installed theme's folders once per process, and the overrides folder each time."""

    def __init__(self, folders: list[str], *, overrides: str | None) -> None:
        super().__init__(folders)
        self.overrides = overrides

    def list_templates(self) -> list[str]:
        found: set[str] = set()
        for folder in self.searchpath:
            found |= _listing(folder) if folder == self.overrides else _installed_listing(folder)
        return sorted(found)


def _listing(folder: str) -> frozenset[str]:
    """The files of a theme folder but those in hidden folders, which MkDocs never copies: the theme's 14,300 icons
    (`.icons/`), which MkDocs would otherwise match against a dozen patterns at every build."""
    names = jinja2.FileSystemLoader(folder).list_templates()
    return frozenset(name for name in names if not any(part.startswith(".") for part in name.split("/")))


_installed_listing = functools.cache(_listing)


def _rebuild_dirty() -> None:
    """Plain `mkdocs serve` rebuilds as `mkdocs serve --dirty` does: its builder calls MkDocs' build with `dirty=True`,
    and the preview decides what each rebuild renders again (what it serves is what a full build writes: tested)."""
    from mkdocs.commands import serve

    full_build = serve.build

    def build(config: MkDocsConfig, *, serve_url: str | None = None, dirty: bool = False) -> None:
        full_build(config, serve_url=serve_url, dirty=True)

    serve.build = build


@event_priority(100)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add every generated page and file to the build; let the search index skip code tokens and needless passes, and
    take the entries that the preview made as it converted pages."""
    search_index = config.plugins["material/search"].search_index  # made anew by the plugin's on_config
    index_lightly(search_index, remembering=preview.active)
    index_in_one_pass(config.plugins)
    preview.index_early(search_index)
    macro_outputs = repr(every_output(_generated)) if preview.active else ""  # only the preview compares them between builds
    files = without_absent_editions(files, _translated_languages())
    files = preview.add_files(files, {**_generated.pages, **_generated.files}, config, macro_outputs=macro_outputs)
    page_parts.start(files, config)
    return files


def on_nav(nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
    """Let the preview compare this navigation with the last one, and share the pages to render with a forked process."""
    preview.navigation(nav, config, files)
    return nav


@event_priority(100)  # before the macros plugin
def on_page_markdown(markdown: str, page, config: MkDocsConfig, files: Files) -> str:
    """A generated page never goes through the macros plugin, whatever its front matter became: its text is data; under
    `make serve` the parts it converts on their own are taken out, a full build converts it whole (macros/page_parts.py)."""
    if page.file.src_uri in _generated.pages:
        page.meta["render_macros"] = False
        markdown = page_parts.take(markdown, page) if preview.active else whole(markdown)
    return markdown


def on_page_content(html: str, page, config: MkDocsConfig, files: Files) -> str:
    """Put the page's parts, converted, and finished HTML in place of their markers, and pass every page's HTML through
    the allowlist sanitizer before anything reads it (in a full build on a second core, finished in `on_env`)."""
    if not preview.active:  # a full build: sanitized on a second core, given to the page before anything reads it
        html = _generated.slots.fill(html)
        _sanitizer.later(page, html)
        return html

    def finished(fragment: str) -> str:
        return sanitize(_generated.slots.fill(fragment))

    # The preview keeps (and may index) each page's final HTML as soon as it is converted; it sanitizes the page's frame
    # and each part apart, and a part once (macros/page_parts.py).
    html = page_parts.fill(finished(html), page, config, files, finish=finished)
    preview.converted(page, html)
    return html


@event_priority(100)  # before any plugin could read a page's content
def on_env(env: jinja2.Environment, config: MkDocsConfig, files: Files) -> jinja2.Environment:
    """Give every page its sanitized HTML; give theme templates the covered releases (the 404 page lists them) and the
    editions (the language switch); let the preview restore the pages it skips."""
    _sanitizer.apply()
    env.globals["atlas_releases"] = [release.version for release in _generated.atlas.newest_first]
    env.globals |= theme_globals(_translated_languages(), WORDS_SCRIPT)
    env.globals["atlas_navigation"] = lambda page, caller: Markup(preview.navigation_html(page, caller))
    global _page_files
    _page_files = frozenset(file.dest_uri for file in files.documentation_pages())
    preview.before_writing(files, config, env.globals["atlas_releases"])
    return env


@event_priority(100)  # before the search plugin writes its index
def on_post_build(config: MkDocsConfig) -> None:
    """Let the preview complete the search index and keep this build's state; give each translated edition its own
    search index and sitemap, and report how much of the data it translates."""
    search = config.plugins["material/search"]
    preview.finish(search, config.site_dir)
    languages = _translated_languages()
    index_config = {key: search.search_index.config[key] for key in ("lang", "separator", "pipeline", "fields")}
    split_search_index(search.search_index, config.site_dir, languages, index_config)
    write_edition_sitemaps(config.site_dir, config.site_url or "/", languages, _page_files)
    # What an edition shows in English for want of a translation stops a build (strict) but not the preview, where an
    # English edit comes before its translation; `make check` lists stale translations.
    report = log.warning if _command == "build" else log.info
    for edition in _generated.editions.values():
        if edition.coverage:
            log.info(edition.coverage.report())
        for problem in edition.problems():
            report(f"{edition.language}: {problem}")


def _translated_languages() -> tuple[str, ...]:
    return tuple(language for language, edition in _generated.editions.items() if edition.prefix)


def on_build_error(error: Exception) -> None:
    """Let the preview and the sanitizer forget a failed build."""
    _sanitizer.forget()
    preview.failed()


def _collect_when_idle() -> None:
    """Collect the garbage of the last rebuilds once the browser has reloaded, rather than in the middle of the next."""
    global _idle_collection
    _idle_collection = threading.Timer(IDLE_COLLECTION_DELAY, gc.collect)
    _idle_collection.daemon = True
    _idle_collection.start()


def on_serve(server: LiveReloadServer, config: MkDocsConfig, builder) -> LiveReloadServer:
    """Rebuild soon after a data edit; keep serving the last good site when an edit breaks the data, and say what is wrong;
    let the browser keep the theme's files between reloads."""

    def build_or_report(*args, **kwargs) -> None:
        _idle_collection.cancel()
        gc.freeze()  # the collector walks only what this rebuild makes, not the site the last one left
        try:
            builder(*args, **kwargs)
        except Abort:  # raised after the build logged its errors (such as data mistakes)
            log.error("The last good site is still being served; fix the data and save to rebuild.")
        finally:
            gc.unfreeze()
            _collect_when_idle()

    server.builder = build_or_report
    keep_files_named_by_content(server)
    if os.environ.get("ATLAS_WATCH") != "poll":
        from macros.watching import watch_with_file_events  # imported only when serving: builds need no watcher

        watch_with_file_events(server)
    return server
