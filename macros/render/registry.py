"""Published URLs never break: the committed registry, checked against every generated site.

`data/published.txt` lists every URL path (and feature anchor) the site has published, from the
site root, one per line (e.g. `/releases/1.10/#cuda-graphs`). The build fails when one of them would
disappear, unless the feature keeps the old id as an alias or `data/redirects.yaml` sends the old page
to a new one. Record new URLs with `make published` when publishing.
"""

from __future__ import annotations

from pathlib import Path

from macros.data.model import Redirect
from macros.data.yamlfile import DataError, DataErrors, read_data_bytes
from macros.views.edition import ENGLISH, LANGUAGE_NAMES
from macros.views.urls import THEME_OUTPUTS

REGISTRY_NAME = "published.txt"
_HEADER = "# Every URL the site has published. Never remove a line: the build fails if one would break.\n"


def registry_entries(data_dir: Path) -> list[tuple[int, str]]:
    """Each URL recorded in data/published.txt with its line number in that file (none if the file does not exist);
    raises DataErrors when the file cannot be read as UTF-8 text."""
    path = data_dir / REGISTRY_NAME
    if not (path.exists() or path.is_symlink()):
        return []
    name = f"{data_dir.name}/{REGISTRY_NAME}"
    raw, errors = read_data_bytes(path, name, data_dir)
    if raw is None:
        raise DataErrors(errors)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DataErrors([DataError(name, f"not valid UTF-8 (byte 0x{raw[exc.start]:02x}); save the file as UTF-8", line)]) from None
    lines = text.splitlines()
    return [(number, line.strip()) for number, line in enumerate(lines, start=1) if line.strip() and not line.startswith("#")]


def read_registry(data_dir: Path) -> list[str]:
    """The published URLs recorded in data/published.txt; raises DataErrors when it cannot be read."""
    return [url for _, url in registry_entries(data_dir)]


def registry_errors(published: frozenset[str], redirects: tuple[Redirect, ...], data_dir: Path) -> list[DataError]:
    """An error for each recorded URL that the generated site (`published`) no longer serves, and for each unusable redirect."""
    moved = {redirect.old for redirect in redirects}
    registry_name = f"{data_dir.name}/{REGISTRY_NAME}"
    redirects_name = f"{data_dir.name}/redirects.yaml"
    errors = []
    for line_number, url in registry_entries(data_dir):
        if url in published or (url in moved and "#" not in url):
            continue
        message = (
            f"{url} was published but would disappear; keep the old id in the feature's `aliases`, "
            f"or add a redirect for a moved page to {redirects_name}"
        )
        errors.append(DataError(registry_name, message, line_number))
    for redirect in redirects:
        clash = _written_by_build(redirect.old, published)
        if clash:
            message = f"the redirect {redirect.old} would be written inside {clash}, which the build writes itself; choose another path"
            errors.append(DataError(redirects_name, message, redirect.line))
        if redirect.old in published:
            errors.append(DataError(redirects_name, f"the page {redirect.old} still exists; a redirect would hide it", redirect.line))
        if redirect.new not in published:
            message = f"the redirect {redirect.old} -> {redirect.new} points to a page that does not exist"
            errors.append(DataError(redirects_name, message, redirect.line))
    return errors


def _written_by_build(old: str, published: frozenset[str]) -> str | None:
    """The file or theme folder that a redirect's page (`old` + index.html) would have to be written inside, if any.

    A translated edition's folder gets the theme's files too (its own sitemap, search index and scripts' words)."""
    parts = old.strip("/").split("/")
    start = 1 if parts[0] in LANGUAGE_NAMES and parts[0] != ENGLISH else 0  # where the theme's paths begin
    if len(parts) > start and f"{parts[start]}/" in THEME_OUTPUTS:
        return "/".join(parts[: start + 1]) + "/"
    for depth in range(1, len(parts) + 1):
        ancestor = "/" + "/".join(parts[:depth])
        if ancestor in published or "/".join(parts[start:depth]) in THEME_OUTPUTS:
            return ancestor
    return None


def check_registry(published: frozenset[str], redirects: tuple[Redirect, ...], data_dir: Path) -> None:
    """Raise DataErrors when the generated site would break a published URL or a redirect."""
    errors = registry_errors(published, redirects, data_dir)
    if errors:
        raise DataErrors(errors)


def write_registry(data_dir: Path, published: frozenset[str]) -> int:
    """Add every URL the site now publishes to the registry (never removing one); return how many were added."""
    known = read_registry(data_dir)
    added = published - set(known)
    (data_dir / REGISTRY_NAME).write_text(_HEADER + "".join(f"{url}\n" for url in sorted({*known, *added})), encoding="utf-8")
    return len(added)
