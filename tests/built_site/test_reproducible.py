"""Two builds of the same commit are identical, byte for byte."""

from __future__ import annotations

import filecmp
import time

from tests.support.site import build_site

# The only timestamp in the site is the sitemap's <lastmod> (in sitemap.xml and sitemap.xml.gz): MkDocs
# takes it from SOURCE_DATE_EPOCH when set, which `make build` and the Pages workflow set to the commit time.
EPOCH = "1767225600"  # 2026-01-01T00:00:00Z


def _files(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def test_two_builds_are_identical(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    assert build_site(first, "https://example.org/atlas/", SOURCE_DATE_EPOCH=EPOCH).returncode == 0
    time.sleep(1.1)
    assert build_site(second, "https://example.org/atlas/", SOURCE_DATE_EPOCH=EPOCH).returncode == 0
    names = _files(first)
    assert names == _files(second)
    _, mismatch, errors = filecmp.cmpfiles(first, second, names, shallow=False)
    assert not mismatch and not errors, mismatch + errors
    assert "<lastmod>2026-01-01</lastmod>" in (first / "sitemap.xml").read_text(encoding="utf-8")
