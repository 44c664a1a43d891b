"""A second build of the same commit is identical, byte for byte, to the first (the run's shared site)."""

from __future__ import annotations

import filecmp

from tests.support.site import SHARED_EPOCH, build_site


def _files(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def test_a_second_build_is_identical_to_the_shared_one(built_site, tmp_path):
    first, second = built_site.files, tmp_path / "second"
    assert build_site(second, built_site.base_url, SOURCE_DATE_EPOCH=SHARED_EPOCH).returncode == 0  # minutes later
    names = _files(first)
    assert names == _files(second)
    _, mismatch, errors = filecmp.cmpfiles(first, second, names, shallow=False)
    assert not mismatch and not errors, mismatch + errors
    assert "<lastmod>2026-01-01</lastmod>" in (first / "sitemap.xml").read_text(encoding="utf-8")
