"""MkDocs hooks: generate the site from data/, add its pages and files, sanitize every page, split the search index
and sitemaps by edition. Under `mkdocs serve --dirty` (`make serve`), the preview renders again only what an edit
changed (macros/plugin/preview.py); every other command builds everything."""

from __future__ import annotations

import gc
import logging
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation

if TYPE_CHECKING:
    from mkdocs.livereload import LiveReloadServer

    from macros.plugin.preview import Preview

PROJECT_DIR = Path(__file__).resolve().parents[2]
if str(PROJECT_DIR) not in sys.path:  # MkDocs loads hooks by path; make the `macros` package importable.
    sys.path.insert(0, str(PROJECT_DIR))

from macros.data.yamlfile import DataErrors  # noqa: E402
from macros.plugin.highlighting import RememberingHighlightExtension  # noqa: E402
from macros.plugin.page_macros import every_output  # noqa: E402
from macros.plugin.searching import index_lightly  # noqa: E402
from macros.plugin.session import SITE_CACHE  # noqa: E402
from macros.plugin.tables import BoxedTablesExtension  # noqa: E402
from macros.plugin.theme import split_search_index, theme_globals, without_absent_editions, write_edition_sitemaps  # noqa: E402
from macros.render.pages import COMPILED_TEMPLATES, GeneratedSite  # noqa: E402
from macros.render.sanitize import PageSanitizer  # noqa: E402
from macros.render.site import Scope, generate_checked  # noqa: E402
from macros.views.urls import WORDS_SCRIPT  # noqa: E402

log = logging.getLogger("mkdocs.plugins.atlas")
# The macros plugin reports its own setup at INFO level on every build; keep clean builds quiet.
logging.getLogger("mkdocs.plugins.mkdocs_macros").setLevel(logging.WARNING)
logging.getLogger("jieba").setLevel(logging.WARNING)  # the Chinese word splitter of the search index reports its setup
DATA_DIR = PROJECT_DIR / "data"
HIGHLIGHT = "pymdownx.highlight"  # configured in mkdocs.yml; its highlighter is swapped for one that remembers blocks


@dataclass
class AtlasBuild:
    """What the hooks of one MkDocs process share: its command, the site generated for the current build, the
    sanitizer of its pages, and the preview of a `mkdocs serve --dirty` session."""

    command: str = "build"
    site: GeneratedSite | None = None
    sanitizer: PageSanitizer = field(default_factory=PageSanitizer)
    preview: Preview | None = None
    nav: Navigation | None = None  # of the current build
    page_files: frozenset[str] = frozenset()  # every page written, for the edition sitemaps
    search_entries: dict[tuple, list[dict]] = field(default_factory=dict)  # by section, from the build before

    @property
    def languages(self) -> tuple[str, ...]:
        """The translated editions of the data."""
        return tuple(language for language, edition in self.site.editions.items() if edition.prefix)


atlas = AtlasBuild()


def on_startup(command: str, dirty: bool) -> None:
    """`mkdocs serve --dirty` (`make serve`) previews incrementally; every other command builds everything."""
    atlas.command = command
    if command == "serve" and dirty:
        from macros.plugin.preview import Preview  # only a preview session loads it

        atlas.preview = Preview()
        SITE_CACHE.scope = _scope_from_environment()
        # MkDocs warns that dirty builds may be inaccurate; the preview's are those of a full build (tested).
        logging.getLogger("mkdocs.commands.build").addFilter(lambda record: not record.getMessage().startswith("A 'dirty' build"))


def _scope_from_environment() -> Scope | None:
    """The part of the site `make serve` previews (RELEASES="2.5 2.6", EDITION=en, API=no), or None for all of it."""
    edition, api = os.environ.get("ATLAS_EDITION", ""), os.environ.get("ATLAS_API", "")
    if edition not in ("", "en", "all") or api not in ("", "yes", "no"):
        raise PluginError(f"EDITION is en or all (given {edition!r}); API is yes or no (given {api!r})")
    scope = Scope(frozenset(os.environ.get("ATLAS_RELEASES", "").split()), english_only=edition == "en", api_reference=api != "no")
    return None if scope == Scope() else scope


@event_priority(100)
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Generate the site from the data (stopping the build on any mistake or broken published URL); set the nav, the
    highlighter that remembers code blocks, and a box around each table."""
    try:
        atlas.site = generate_checked(
            DATA_DIR,
            site_url=config.site_url or "/",
            repository=config.extra.get("repository", ""),
            cache=SITE_CACHE,
        )
    except DataErrors as errors:
        raise PluginError(str(errors)) from None
    config.nav = atlas.site.nav
    if SITE_CACHE.scope is not None:  # links to the pages left out are expected: reported, not fatal
        config.strict = False
        log.info(f"Previewing part of the site: {SITE_CACHE.scope}")
    if atlas.command == "build":  # one build per process keeps the generated site to its end: the collector need not walk it
        gc.collect()
        gc.freeze()
    position = config.markdown_extensions.index(HIGHLIGHT)
    config.markdown_extensions[position] = RememberingHighlightExtension(**config.mdx_configs.get(HIGHLIGHT, {}))
    config.markdown_extensions.append(BoxedTablesExtension())
    return config


@event_priority(100)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add every generated page and file to the build; let the search index read pages without code token spans."""
    index_lightly(config.plugins["material/search"].search_index, atlas.search_entries)
    files = without_absent_editions(files, atlas.languages)
    generated = {**atlas.site.pages, **atlas.site.files}
    if atlas.preview is not None:
        return atlas.preview.add_files(files, generated, config, macro_outputs=repr(every_output(atlas.site)))
    for path, content in generated.items():
        files.append(File.generated(config, path, content=content))
    return files


@event_priority(100)  # before the macros plugin
def on_page_markdown(markdown: str, page, config: MkDocsConfig, files: Files) -> str:
    """A generated page never goes through the macros plugin, whatever its front matter became: its text is data."""
    if page.file.src_uri in atlas.site.pages:
        page.meta["render_macros"] = False
    return markdown


def on_page_content(html: str, page, config: MkDocsConfig, files: Files) -> str:
    """Put finished HTML in place of the page's slots, and pass the page through the allowlist sanitizer (on a second
    core) before anything reads it (`on_env`)."""
    html = atlas.site.slots.fill(html)
    atlas.sanitizer.later(page, html)
    return html


@event_priority(100)  # before any plugin could read a page's content
def on_env(env: jinja2.Environment, config: MkDocsConfig, files: Files) -> jinja2.Environment:
    """Give every page its sanitized HTML (and, in a preview, the pages it skipped their last state); give theme
    templates the covered releases (the 404 page lists them) and the editions (the language switch), and keep their
    compiled code between builds (MkDocs makes the theme's environment anew for each)."""
    env.bytecode_cache = COMPILED_TEMPLATES
    atlas.sanitizer.apply()
    if atlas.preview is not None:
        atlas.preview.restore(atlas.nav, files, config)
    env.globals["atlas_releases"] = [release.version for release in atlas.site.atlas.newest_first]
    env.globals |= theme_globals(atlas.languages, WORDS_SCRIPT)
    atlas.page_files = frozenset(file.dest_uri for file in files.documentation_pages())
    return env


def on_nav(nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
    """Keep this build's navigation for the preview, which compares its outline with the last one's."""
    atlas.nav = nav
    return nav


@event_priority(100)  # before the search plugin writes its index
def on_post_build(config: MkDocsConfig) -> None:
    """Complete the preview's search index; give each translated edition its own search index and sitemap, and report
    how much of the data it translates."""
    search = config.plugins["material/search"]
    if atlas.preview is not None:
        atlas.preview.finish(search.search_index, config.site_dir)
    index_config = {key: search.search_index.config[key] for key in ("lang", "separator", "pipeline", "fields")}
    split_search_index(search.search_index, config.site_dir, atlas.languages, index_config)
    write_edition_sitemaps(config.site_dir, config.site_url or "/", atlas.languages, atlas.page_files)
    # What an edition shows in English for want of a translation stops a build (strict) but not the preview, where an
    # English edit comes before its translation; `make check` lists stale translations.
    report = log.warning if atlas.command == "build" else log.info
    for edition in atlas.site.editions.values():
        if edition.coverage:
            log.info(edition.coverage.report())
        for problem in edition.problems():
            report(f"{edition.language}: {problem}")


def on_build_error(error: Exception) -> None:
    """Forget a failed build."""
    atlas.sanitizer.forget()
    if atlas.preview is not None:
        atlas.preview.failed()


def on_serve(server: LiveReloadServer, config: MkDocsConfig, builder) -> LiveReloadServer:
    """Keep serving the last good site when an edit breaks the data, and say what is wrong; after a preview rebuild,
    write its whole search index."""

    def build_or_report(*args, **kwargs) -> None:
        try:
            builder(*args, **kwargs)
        except Abort:  # raised after the build logged its errors (such as data mistakes)
            log.error("The last good site is still being served; fix the data and save to rebuild.")
        else:
            if atlas.preview is not None:
                atlas.preview.write_search_index()

    server.builder = build_or_report
    return server
