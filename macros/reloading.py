"""`make serve`'s server lets the browser keep the theme's files whose names carry a digest of their content.

After each edit the page reloads. MkDocs's server sends every file without caching headers, so the reload fetched and
compiled the theme's script and style sheets again (about 50 ms of the 170 ms from the reload to the page being
shown). A name such as `bundle.a5f9d56c.min.js` changes whenever its content does, so the browser may keep that file
for good; the atlas's own scripts and styles, whose names stay the same when they are edited, are fetched anew.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from mkdocs.livereload import LiveReloadServer

NAMED_BY_CONTENT = re.compile(r"\.[0-9a-f]{8}\.min\.(?:js|css)$")  # Material's bundle.a5f9d56c.min.js, main.57a0d79d.min.css
KEEP_FOR_GOOD = ("Cache-Control", "max-age=31536000, immutable")


def keep_files_named_by_content(server: LiveReloadServer) -> None:
    """Make the server answer for a file named by its content with a header that lets the browser keep it."""
    serve = server.serve_request  # the server's application (mkdocs is pinned in requirements.txt)

    def application(environ: dict, start_response: Callable) -> Iterable[bytes]:
        if not NAMED_BY_CONTENT.search(environ.get("PATH_INFO", "")):
            return serve(environ, start_response)

        def start_kept(status: str, headers: list, *exc_info) -> Callable:
            if status.startswith("200"):
                headers = [*headers, KEEP_FOR_GOOD]
            return start_response(status, headers, *exc_info)

        return serve(environ, start_kept)

    server.set_app(application)
