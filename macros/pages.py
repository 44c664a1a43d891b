"""Macros for the hand-written pages (mkdocs-macros `define_env`): tables rendered from the data."""

from __future__ import annotations

from .generate import make_environment, topic_sizes
from .indexes import build_lifecycles


def define_env(env) -> None:
    """Register the macros that hand-written pages call, e.g. `{{ release_table() }}`."""
    templates = make_environment()

    def render(template: str, **context: object) -> str:
        atlas = env.conf["extra"]["atlas"]
        return templates.get_template(template).render(atlas=atlas, root="", **context)

    @env.macro
    def release_table() -> str:
        """Releases, newest first, with dates and counts per stability."""
        return render("_release_table.md.j2")

    @env.macro
    def topic_table() -> str:
        """The topic indexes with their sizes."""
        atlas = env.conf["extra"]["atlas"]
        return render("_topic_table.md.j2", topic_sizes=topic_sizes(atlas, build_lifecycles(atlas)))
