"""Every malformed data set stops the build with one precise error, and never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from macros.data.yamlfile import DataErrors
from macros.render.site import generate_checked

from ..support.site import copy_mini_data, copy_site_sources
from .cases import CASES, Case


def _generate(data_dir: Path) -> None:
    """Load, generate and check the published URLs, as every build does."""
    generate_checked(data_dir, site_url="/")


def _bad_data(tmp_path: Path, *cases: Case) -> Path:
    """A copy of the mini data set with the given mistakes applied."""
    data_dir = copy_mini_data(tmp_path / "data")
    for case in cases:
        case.apply(data_dir)
    return data_dir


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_loader_reports_exactly_one_precise_error(tmp_path, case):
    with pytest.raises(DataErrors) as raised:
        _generate(_bad_data(tmp_path, case))
    messages = [str(error) for error in raised.value.errors]
    assert len(messages) == 1, messages
    assert messages[0].startswith(case.expect), messages[0]


def test_all_errors_of_a_run_are_reported_together(tmp_path):
    chosen = [c for c in CASES if c.name in {"unknown-field-typo", "unquoted-version", "duplicate-topic"}]
    with pytest.raises(DataErrors) as raised:
        _generate(_bad_data(tmp_path, *chosen))
    assert len(raised.value.errors) == 3
    for case in chosen:
        assert case.expect in str(raised.value)


def _site_with_data(tmp_path: Path, *cases: Case) -> Path:
    """A copy of the whole site whose data is the mini set with the given mistakes."""
    site = copy_site_sources(tmp_path / "site-src", with_data=False)
    _bad_data(site, *cases)
    return site


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_mkdocs_build_stops_with_the_error_and_no_traceback(tmp_path, case):
    site = _site_with_data(tmp_path, case)
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "out")],
        cwd=site,
        capture_output=True,
        text=True,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
        timeout=120,
    )
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert case.expect in output, output
    assert "Traceback" not in output, output
    assert not (tmp_path / "out").exists()
