"""Build the real site with the real MkDocs CLI and serve it on loopback under its production path prefix."""

from __future__ import annotations

import fcntl
import functools
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from ..conftest import MINI_DATA, PROJECT_DIR

PRODUCTION_URL = "https://pytorch-release-atlas.github.io/pytorch-release-atlas/"
PREFIX = urlsplit(PRODUCTION_URL).path  # "/pytorch-release-atlas/"
# The shared site's SOURCE_DATE_EPOCH, as `make build` and the Pages workflow set it to the commit time: the only date
# in the site is the sitemap's <lastmod>, and with it fixed a second build can be compared with the shared one.
SHARED_EPOCH = "1767225600"  # 2026-01-01T00:00:00Z


SITE_SOURCES = ("mkdocs.yml", "docs", "macros", "overrides", "ARCHITECTURE.md")


def copy_site_sources(destination: Path, *, with_data: bool) -> Path:
    """Copy what MkDocs needs to build the site (and the real data/, if asked) into `destination`."""
    destination.mkdir(parents=True, exist_ok=True)
    for part in (*SITE_SOURCES, "data") if with_data else SITE_SOURCES:
        source = PROJECT_DIR / part
        if source.is_dir():
            shutil.copytree(source, destination / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, destination / part)
    return destination


def copy_rich_data(data_dir: Path) -> Path:
    """The rich fixture data set (the mini releases with a feature record, an API index, builds and a Chinese edition),
    with the project's schemas, glossary and interface words, as `data_dir`."""
    shutil.copytree(PROJECT_DIR / "tests" / "fixtures" / "rich", data_dir)
    shutil.copytree(PROJECT_DIR / "data" / "schema", data_dir / "schema")
    real_zh, zh = PROJECT_DIR / "data" / "translations" / "zh", data_dir / "translations" / "zh"
    shutil.copytree(real_zh / "interface", zh / "interface")
    shutil.copy(real_zh / "glossary.yaml", zh / "glossary.yaml")
    return data_dir


def copy_mini_data(data_dir: Path) -> Path:
    """The mini fixture data set, with the project's schemas, as `data_dir`."""
    shutil.copytree(MINI_DATA, data_dir)
    shutil.copytree(PROJECT_DIR / "data" / "schema", data_dir / "schema")
    return data_dir


@dataclass(frozen=True)
class BuiltSite:
    """A built site: its files, the URL it is served at, and what the build printed."""

    root: Path  # the folder served as "/"
    files: Path  # the site itself, at root + PREFIX
    base_url: str
    log: str

    def page(self, url_path: str) -> Path:
        """The HTML file behind a URL path relative to the site, e.g. "releases/1.10/"."""
        path = self.files / url_path.split("#")[0]
        return path / "index.html" if url_path.endswith("/") or not url_path else path


def free_port() -> int:
    """A TCP port that is free on loopback right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def build_site(
    destination: Path, site_url: str, *, project: Path = PROJECT_DIR, strict: bool = True, **extra_env: str
) -> subprocess.CompletedProcess:
    """Run `mkdocs build --strict` (or, told so, `--no-strict`) in `project` as a person would, into `destination`."""
    env = {**os.environ, "SITE_URL": site_url, "NO_MKDOCS_2_WARNING": "1", **extra_env}
    command = [sys.executable, "-m", "mkdocs", "build", "--strict" if strict else "--no-strict", "--clean", "-d", str(destination)]
    return subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=600)


class StaticHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, with the site's own 404 page, and no request log on stderr."""

    def send_error(self, code, message=None, explain=None):
        not_found = Path(self.directory) / PREFIX.strip("/") / "404.html"
        if code == 404 and not_found.exists():
            body = not_found.read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().send_error(code, message, explain)

    def log_message(self, *args):
        pass


class _Server(http.server.ThreadingHTTPServer):
    """A threading server whose queue of connections waiting to be accepted holds what two browsers open at once: the
    standard five overflow while the test process that serves is busy, and the dropped connections wait a second to
    be tried again."""

    request_queue_size = 128


def _start_server(
    root: Path, port: int, handler_class: type[http.server.SimpleHTTPRequestHandler] = StaticHandler
) -> http.server.ThreadingHTTPServer:
    """A server of `root` on 127.0.0.1:`port`, answering from a thread of its own."""
    server = _Server(("127.0.0.1", port), functools.partial(handler_class, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@contextmanager
def serve(root: Path, port: int, handler_class: type[http.server.SimpleHTTPRequestHandler] = StaticHandler) -> Iterator[str]:
    """Serve `root` on 127.0.0.1:`port` (with `handler_class`); yields the site's base URL (with the path prefix)."""
    server = _start_server(root, port, handler_class)
    try:
        yield f"http://127.0.0.1:{port}{PREFIX}"
    finally:
        server.shutdown()
        server.server_close()


SHARING_LIMIT = 1800.0  # seconds the serving worker waits at its end for the others to finish with the site


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """Hold the lock of `folder` (between the processes of one test run)."""
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@contextmanager
def shared_site(folder: Path, project: Path = PROJECT_DIR) -> Iterator[BuiltSite]:
    """The site of `project`, built once in `folder` for every process of a test run (pytest-xdist's workers): the
    first to ask builds it while the others wait; one of them serves it, on one port, until none is using it."""
    folder.mkdir(parents=True, exist_ok=True)
    built, users, me = folder / "built.json", folder / "users", str(os.getpid())
    users.mkdir(exist_ok=True)
    with _locked(folder):
        if not built.exists():
            port = free_port()
            base_url = f"http://127.0.0.1:{port}{PREFIX}"
            result = build_site(folder / "root" / PREFIX.strip("/"), base_url, project=project, SOURCE_DATE_EPOCH=SHARED_EPOCH)
            assert result.returncode == 0, result.stdout + result.stderr
            built.write_text(json.dumps({"port": port, "base_url": base_url, "log": result.stdout + result.stderr}), encoding="utf-8")
        found = json.loads(built.read_text(encoding="utf-8"))
        (users / me).touch()
        server = None if (folder / "server").exists() else _start_server(folder / "root", found["port"])
        if server:
            (folder / "server").write_text(me, encoding="utf-8")
    root = folder / "root"
    try:
        yield BuiltSite(root=root, files=root / PREFIX.strip("/"), base_url=found["base_url"], log=found["log"])
    finally:
        (users / me).unlink()
        if server:
            _serve_until_unused(folder, server)


def _serve_until_unused(folder: Path, server: http.server.ThreadingHTTPServer) -> None:
    """Go on serving until no other process uses the site (a later one then serves it itself), and stop."""
    deadline = time.monotonic() + SHARING_LIMIT
    while True:
        with _locked(folder):
            if not any((folder / "users").iterdir()) or time.monotonic() > deadline:
                (folder / "server").unlink()
                server.shutdown()
                server.server_close()
                return
        time.sleep(0.5)
