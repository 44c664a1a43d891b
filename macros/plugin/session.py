"""What one MkDocs process keeps from build to build: the site generated last, shared by the hooks and the page macros
(a full build generates it once; `make serve` generates it again only when the data or the templates changed)."""

from __future__ import annotations

from macros.render.site import SiteCache

SITE_CACHE = SiteCache()
