"""PyTorch Release Atlas: release data -> validated model -> cross-release indexes -> Markdown pages.

The modules below this package import nothing from MkDocs or Markdown except `hooks`, the thin glue
that MkDocs loads, with `preview` (incremental serve rebuilds), `watching` (the serve watcher),
`highlighting` (remembered code highlighting) and `searching` (lighter input for the search index), and
`define_env` here, which the macros plugin calls for the hand-written pages.
"""

from __future__ import annotations

from .page_macros import define_env

__all__ = ["define_env"]
