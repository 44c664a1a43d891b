"""Published URLs never break: a committed registry, checked on every build, plus redirects for moved pages.

`data/published.txt` lists every URL path (and feature anchor) the site has published, from the
site root, one per line (e.g. `/releases/1.10/#cuda-graphs`). The build fails when one of them would disappear, unless the
feature keeps the old id as an alias or `data/redirects.yaml` sends the old page to a new one.
Refresh the registry with `make published` whenever the site is published.
"""

from __future__ import annotations

import html
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from .indexes import build_lifecycles
from .loading import load_atlas
from .model import Atlas
from .yamlfile import DataError, DataErrors, read_yaml

REGISTRY_NAME = "published.txt"
THEME_ICON = "assets/images/favicon.png"  # Material's default icon, which every theme page links
REDIRECTS_NAME = "redirects.yaml"
FIXED_PAGES = ("/", "/releases/", "/topics/", "/features/", "/matrix/", "/upgrade/", "/platforms/", "/about/", "/contributing/")
_SITE_PATH = re.compile(r"/(?:[a-z0-9._-]+/)*")
_EXAMPLE = '"/releases/1.9/": "/releases/1.10/"'
FIXED_FILES = ("/feed.xml", "/api/releases.json", "/api/release.schema.json", "/api/topics.schema.json")


def current_urls(atlas: Atlas) -> set[str]:
    """Every page, file and feature anchor this data publishes, as site-relative paths."""
    urls = set(FIXED_PAGES) | set(FIXED_FILES)
    for release in atlas.releases:
        page = f"/releases/{release.version}/"
        urls.add(page)
        for item in (*release.features, *release.changes):
            urls.update(f"{page}#{anchor}" for anchor in (item.id, *item.aliases))
    urls.update(f"/topics/{topic.id}/" for topic in atlas.topics)
    urls.update(f"/features/{feature_id}/" for feature_id in build_lifecycles(atlas))
    return urls


def registry_entries(data_dir: Path) -> list[tuple[int, str]]:
    """Each URL recorded in data/published.txt with its line number in that file (none if the file does not exist)."""
    path = data_dir / REGISTRY_NAME
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    return [(number, line.strip()) for number, line in enumerate(lines, start=1) if line.strip() and not line.startswith("#")]


def read_registry(data_dir: Path) -> list[str]:
    """The published URLs recorded in data/published.txt."""
    return [url for _, url in registry_entries(data_dir)]


@dataclass(frozen=True, slots=True)
class Redirect:
    """One moved page: its old and new site paths, and the line of data/redirects.yaml that says so."""

    old: str
    new: str
    line: int | None


def load_redirects(data_dir: Path) -> tuple[list[Redirect], list[DataError]]:
    """The moved pages of data/redirects.yaml (if it exists), and the mistakes in that file."""
    path = data_dir / REDIRECTS_NAME
    if not path.exists():
        return [], []
    name = f"{data_dir.name}/{REDIRECTS_NAME}"
    document, errors = read_yaml(path, name)
    if document is None:
        return [], errors
    if not isinstance(document.data, dict):
        return [], [*errors, DataError(name, f"expected a mapping of old to new page paths, such as {_EXAMPLE}", 1)]
    redirects = []
    for old, new in document.data.items():
        line = document.line_of((old,))
        if all(isinstance(side, str) and _SITE_PATH.fullmatch(side) for side in (old, new)):
            redirects.append(Redirect(old, new, line))
        else:
            errors.append(DataError(name, f"expected site paths on both sides, such as {_EXAMPLE}; found {old!r}: {new!r}", line))
    return redirects, errors


def read_redirects(data_dir: Path) -> dict[str, str]:
    """Old page path -> new page path, for a data folder that load_published_atlas has already checked."""
    return {redirect.old: redirect.new for redirect in load_redirects(data_dir)[0]}


def load_published_atlas(data_dir: Path) -> Atlas:
    """The validated data, after checking that it still serves every URL the site has published; raises DataErrors."""
    atlas = load_atlas(data_dir)
    errors = registry_errors(atlas, data_dir)
    if errors:
        raise DataErrors(errors)
    return atlas


def registry_errors(atlas: Atlas, data_dir: Path) -> list[DataError]:
    """An error for each published URL that this data would no longer serve, and for each unusable redirect."""
    current = current_urls(atlas)
    redirects, errors = load_redirects(data_dir)
    moved = {redirect.old for redirect in redirects}
    registry_name = f"{data_dir.name}/{REGISTRY_NAME}"
    redirects_name = f"{data_dir.name}/{REDIRECTS_NAME}"
    for line_number, url in registry_entries(data_dir):
        page = url.split("#")[0]
        if url in current or (page in moved and "#" not in url):
            continue
        message = (
            f"{url} was published but would disappear; keep the old id in the feature's `aliases`, "
            f"or add a redirect for a moved page to {redirects_name}"
        )
        errors.append(DataError(registry_name, message, line_number))
    for redirect in redirects:
        if redirect.old in current:
            errors.append(DataError(redirects_name, f"the page {redirect.old} still exists; a redirect would hide it", redirect.line))
        if redirect.new not in current:
            message = f"the redirect {redirect.old} -> {redirect.new} points to a page that does not exist"
            errors.append(DataError(redirects_name, message, redirect.line))
    return errors


def redirect_pages(data_dir: Path) -> dict[str, str]:
    """An HTML page at each redirected path that sends the reader on to the new page."""
    return {f"{old.lstrip('/')}index.html": redirect_page(old, new) for old, new in read_redirects(data_dir).items()}


def redirect_page(old: str, new: str) -> str:
    """The HTML served at site path `old` (such as `/features/x/`) that sends the reader on to `new`."""
    up = "../" * (old.strip("/").count("/") + 1)
    target = html.escape(up + new.lstrip("/"), quote=True)
    return (  # the theme's icon is named, or the browser asks the server root for /favicon.ico
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Moved</title>'
        f'<link rel="icon" href="{up}{THEME_ICON}">'
        f'<meta http-equiv="refresh" content="0; url={target}"><link rel="canonical" href="{target}">'
        f'<meta name="robots" content="noindex"></head><body><p>This page moved to <a href="{target}">{target}</a>.</p></body></html>\n'
    )


def write_registry(data_dir: Path, atlas: Atlas) -> int:
    """Add every URL the data now publishes to the registry (never removing one); return how many were added."""
    known = read_registry(data_dir)
    added = sorted(current_urls(atlas) - set(known))
    header = "# Every URL the site has published. Never remove a line: the build fails if one would break.\n"
    (data_dir / REGISTRY_NAME).write_text(header + "".join(f"{url}\n" for url in sorted({*known, *added})), encoding="utf-8")
    return len(added)


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("data")
    print(f"{write_registry(target, load_atlas(target))} URLs added to {target / REGISTRY_NAME}")
