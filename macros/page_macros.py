"""Macros that hand-written pages (docs/*.md) call to cite live data, such as `{{ latest_release() }}`.

Each macro reads the site generated from the current data (`build.generate_checked`), so a page never
states a number or stage that the data no longer holds. The set is listed in docs/contributing.md.
"""

from __future__ import annotations

from pathlib import Path

from . import urls
from .build import generate_checked
from .generate import GeneratedSite, badge_maker
from .indexes import Lifecycle
from .markup import text_only

DATA_DIR = Path(__file__).resolve().parent.parent / "data"


def define_env(env) -> None:
    """Register the macros with mkdocs-macros."""

    def site() -> GeneratedSite:
        return generate_checked(DATA_DIR, site_url=env.conf["site_url"] or "/", repository=env.conf["extra"].get("repository", ""))

    @env.macro
    def release_table() -> str:
        """Releases, newest first, with dates, counts per stability and change coverage."""
        return site().fragments["release_table"]

    @env.macro
    def label_schemes() -> str:
        """Every labeling scheme the data uses, with its releases, source and the meaning of each word."""
        return site().fragments["label_schemes"]

    @env.macro
    def topic_table() -> str:
        """The topic indexes with their sizes."""
        return site().fragments["topic_table"]

    @env.macro
    def latest_release() -> str:
        """The newest covered release, such as `2.14`."""
        return site().atlas.newest_first[0].version

    @env.macro
    def oldest_release() -> str:
        """The oldest covered release."""
        return site().atlas.releases[0].version

    @env.macro
    def count(what: str) -> int:
        """How many `releases`, `features` (entries in release pages), `changes` or `lifecycles` (features followed across releases)."""
        atlas = site().atlas
        counts = {
            "releases": len(atlas.releases),
            "features": sum(len(r.features) for r in atlas.releases),
            "changes": sum(len(r.changes) for r in atlas.releases),
            "lifecycles": sum(lc.has_history for lc in site().lifecycles.values()),
        }
        if what not in counts:
            raise ValueError(f"count({what!r}): expected one of {', '.join(counts)}")
        return counts[what]

    @env.macro
    def feature_stage(feature_id: str) -> str:
        """A feature's latest stage as a badge, with its release: `Beta in 2.0`."""
        latest = _lifecycle(feature_id).latest
        return f"{badge_maker(site().atlas.labels)(latest.stage)} in {latest.version}"

    @env.macro
    def feature_badge(feature_id: str) -> str:
        """A feature's SVG status badge, linked to the feature (for a page at the top of docs/)."""
        lifecycle = _lifecycle(feature_id)
        return f"[![{text_only(lifecycle.title)}]({urls.feature_badge(feature_id)})]({lifecycle.doc_path})"

    def _lifecycle(feature_id: str) -> Lifecycle:
        lifecycles = site().lifecycles
        if feature_id not in lifecycles:
            raise ValueError(f"{feature_id!r} is not the id of any feature in data/releases/")
        return lifecycles[feature_id]
