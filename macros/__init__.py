"""PyTorch Release Atlas, the site: data -> validated model -> views -> rendered pages.

Stages, in the order data flows: `data` (read and check every file under data/, the model), `views` (cross-release
indexes, the API reference, builds, editions), `render` (every page and file of the site, checked against the
published URLs) and `plugin` (the only code that imports MkDocs or Material). The site never imports `tools`, the
commands that measure the world and write data/. `define_env` is what the macros plugin calls for hand-written pages.
"""

from __future__ import annotations

from macros.plugin.page_macros import define_env

__all__ = ["define_env"]
