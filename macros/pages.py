"""Macros for the hand-written pages (mkdocs-macros `define_env`): tables the hook rendered from the data."""

from __future__ import annotations


def define_env(env) -> None:
    """Register the macros that hand-written pages call, e.g. `{{ release_table() }}`."""

    @env.macro
    def release_table() -> str:
        """Releases, newest first, with dates and counts per stability."""
        return env.conf["extra"]["atlas_fragments"]["release_table"]

    @env.macro
    def label_schemes() -> str:
        """Every labeling scheme the data uses, with its releases, source and the meaning of each word."""
        return env.conf["extra"]["atlas_fragments"]["label_schemes"]

    @env.macro
    def topic_table() -> str:
        """The topic indexes with their sizes."""
        return env.conf["extra"]["atlas_fragments"]["topic_table"]
