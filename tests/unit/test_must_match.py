"""What must match torch: a wheel's requirements read from its METADATA by byte range (from a local server that
honours ranges, as PyPI's file host does), and the releases of each companion that pin or accept a torch release."""

from __future__ import annotations

import http.server
import io
import os
import threading
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from macros.data.builds_catalog import Builds
from macros.views.builds import must_match
from tools.builds.requirements import requires, wheel_metadata

METADATA = (
    "Metadata-Version: 2.1\nName: torchvision\nVersion: 9.9.0\n"
    "Requires-Dist: numpy\nRequires-Dist: torch (==2.5.0)\n"
    'Requires-Dist: pytorch-triton==3.1.0; platform_system == "Linux"\n'
    "\nRequires-Dist: torch==0.0.1 is the description, not a header\n"
)


class _RangeHandler(http.server.BaseHTTPRequestHandler):
    """One file, served whole or by the byte range asked for (`bytes=a-b` or `bytes=-n`)."""

    body = b""
    honour_ranges = True

    def do_GET(self):
        asked, size = self.headers.get("Range"), len(self.body)
        if not (asked and self.honour_ranges):
            self.send_response(200)
            self.send_header("Content-Length", str(size))
            self.end_headers()
            self.wfile.write(self.body)
            return
        first, _, last = asked.removeprefix("bytes=").partition("-")
        start, end = (size - int(last), size - 1) if not first else (int(first), min(int(last), size - 1))
        self.send_response(206)
        self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.send_header("Content-Length", str(end - start + 1))
        self.end_headers()
        self.wfile.write(self.body[start : end + 1])

    def log_message(self, *args):
        pass


@contextmanager
def _serving(body: bytes, *, honour_ranges: bool = True) -> Iterator[str]:
    handler = type("Handler", (_RangeHandler,), {"body": body, "honour_ranges": honour_ranges})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/torchvision-9.9.0-py3-none-any.whl"
    finally:
        server.shutdown()


def _wheel() -> bytes:
    """A wheel whose METADATA comes first and whose directory sits after 200 KB that do not compress, so reading the
    member takes a second range."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as wheel:
        wheel.writestr("torchvision-9.9.0.dist-info/METADATA", METADATA)
        wheel.writestr("torchvision/_C.so", os.urandom(200_000))
    return buffer.getvalue()


def test_a_wheels_requirements_are_read_from_its_metadata_by_byte_range():
    with _serving(_wheel()) as url:
        metadata = wheel_metadata(url)
    assert metadata == METADATA
    assert requires(metadata, "torch") == ["torch (==2.5.0)"]  # the description's line is not a header
    assert requires(metadata, "triton") == ['pytorch-triton==3.1.0; platform_system == "Linux"']


def test_a_server_that_ignores_byte_ranges_is_an_error_not_a_download():
    with _serving(_wheel(), honour_ranges=False) as url, pytest.raises(OSError, match="ignored the byte range"):
        wheel_metadata(url)


def test_the_companions_that_must_match_are_the_pinned_releases_then_the_newest_range():
    releases = {
        "0.20.0": {"wheel": "a.whl", "torch": ["torch ==2.5.0"]},
        "0.20.1": {"wheel": "b.whl", "torch": ["torch (==2.5.1)"]},
        "0.21.0": {"wheel": "c.whl", "torch": ["torch>=2.5; python_version < '3.14'"]},
        "0.3.0": {"wheel": "d.whl", "torch": ["torch (>=1.1.0)"]},
        "0.22.0": {"wheel": "e.whl", "torch": ["torch"]},  # no version: says nothing
        "0.19.0": {"wheel": None, "torch": [], "yanked": True},
    }
    empty = {project: {} for project in ("torchaudio", "torchcodec", "xformers", "torchao")}
    requirements = {
        "torch": {"2.5.1": {"wheel": "t.whl", "triton": ["triton==3.1.0; platform_system == 'Linux'"]}},
        "torchvision": releases,
        **empty,
    }
    builds = Builds(pypi={}, read={}, wheels={}, nvidia={}, install={}, variants={}, requirements=requirements, amd={}, intel={})
    found = must_match(builds, "2.5.1")
    assert found.triton == ("triton==3.1.0; platform_system == 'Linux'",) and found.measured
    assert [(match.version, match.requirement, match.pinned) for match in found.companions["torchvision"]] == [
        ("0.20.1", "torch (==2.5.1)", True),
        ("0.21.0", "torch>=2.5", False),
    ]
    assert must_match(builds, "2.4.0").companions["torchvision"][0].version == "0.3.0"  # only an old open range accepts it
    assert not must_match(builds, "1.0.0").measured


def test_a_hostile_requirement_line_is_kept_as_written_and_only_as_data():
    hostile = 'torch==2.5.0; extra == "</code><script>alert(1)</script>" {{ config }}'
    metadata = f"Name: evil\nRequires-Dist: {hostile}\nRequires-Dist: torchvision`<b>`\n\n"
    assert requires(metadata, "torch") == [hostile]  # the line, never evaluated
    assert requires(metadata, "torchvision") == ["torchvision`<b>`"]  # kept as written; the pages escape what they show
