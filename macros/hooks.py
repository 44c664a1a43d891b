"""MkDocs hook: load the data, add the generated pages and files, build the nav; keep serve rebuilds quick."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

PROJECT_DIR = Path(__file__).resolve().parent.parent
if str(PROJECT_DIR) not in sys.path:  # MkDocs loads hooks by path; make the `macros` package importable.
    sys.path.insert(0, str(PROJECT_DIR))

from macros.build import generate_checked  # noqa: E402
from macros.generate import GeneratedSite  # noqa: E402
from macros.sanitize import sanitize  # noqa: E402
from macros.yamlfile import DataErrors  # noqa: E402

log = logging.getLogger("mkdocs.plugins.atlas")
# The macros plugin reports its own setup at INFO level on every build; keep clean builds quiet.
logging.getLogger("mkdocs.plugins.mkdocs_macros").setLevel(logging.WARNING)
DATA_DIR = PROJECT_DIR / "data"
WATCHED_FOLDERS_POLL_SECONDS = 0.1
_generated: GeneratedSite | None = None


@event_priority(100)
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Generate the site from the data (stopping the build on any mistake or broken published URL) and set the nav."""
    global _generated
    try:
        _generated = generate_checked(DATA_DIR, site_url=config.site_url or "/", repository=config.extra.get("repository", ""))
    except DataErrors as errors:
        raise PluginError(str(errors)) from None
    config.nav = _generated.nav
    return config


@event_priority(100)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add every generated page and file to the build."""
    for path, content in {**_generated.pages, **_generated.files}.items():
        files.append(File.generated(config, path, content=content))
    return files


def on_page_content(html: str, page, config: MkDocsConfig, files: Files) -> str:
    """Pass every page's HTML through the allowlist sanitizer before the theme wraps it."""
    return sanitize(html)


class _CompiledTemplates(jinja2.BytecodeCache):
    """Theme templates compiled once per process; Jinja recompiles one whose source changed."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self._code:
            bucket.bytecode_from_string(self._code[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


_theme_templates = _CompiledTemplates()


def on_env(env: jinja2.Environment, config: MkDocsConfig, files: Files) -> jinja2.Environment:
    """Give theme templates the covered releases (the 404 page lists them); reuse the theme's compiled templates,
    since MkDocs makes a new environment on every serve rebuild."""
    env.globals["atlas_releases"] = [release.version for release in _generated.atlas.newest_first]
    env.bytecode_cache = _theme_templates
    return env


def on_serve(server: LiveReloadServer, config: MkDocsConfig, builder) -> LiveReloadServer:
    """Rebuild soon after a data edit; keep serving the last good site when an edit breaks the data, and say what is wrong."""

    def build_or_report(*args, **kwargs) -> None:
        try:
            builder(*args, **kwargs)
        except Abort:  # raised after the build logged its errors (such as data mistakes)
            log.error("The last good site is still being served; fix the data and save to rebuild.")

    server.builder = build_or_report
    # MkDocs polls watched folders every 0.5 s. The folders under `watch:` (data/ among them) are scheduled just after
    # this event, so a shorter interval here lets a saved data edit start its rebuild sooner. watchdog keeps the
    # interval in the observer's `_timeout` (mkdocs and watchdog are pinned in requirements.txt).
    server.observer._timeout = WATCHED_FOLDERS_POLL_SECONDS
    return server
