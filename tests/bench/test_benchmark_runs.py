"""The benchmark runs end to end and writes a complete report (its figures are judged in bench/RESULTS.md, not here)."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.conftest import PROJECT_DIR


def test_benchmark_writes_every_figure_and_budget(tmp_path):
    out = tmp_path / "RESULTS.md"
    command = [sys.executable, "bench/run.py", "--sizes", "2", "--runs", "1", "--edits", "1", "--out", str(out)]
    result = subprocess.run(command, cwd=PROJECT_DIR, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    report = out.read_text(encoding="utf-8")
    assert "- Command: `.venv/bin/python bench/run.py --sizes 2 --runs 1 --edits 1 --out" in report
    assert re.search(r"^- Machine: \d+ cores, \d+ GiB memory", report, re.MULTILINE)
    row = re.search(r"^\| 2 \| (.+) \|$", report, re.MULTILINE)
    assert row, report
    assert len(row.group(1).split(" | ")) == 12, row.group(0)  # every column after the size is filled
    assert re.search(r"^Real data .*, 1 edit under `mkdocs serve`: \d+\.\d\d s\.$", report, re.MULTILINE)
    for budget in ("at most 10% at every size", "within 2 s", "under 100 KB gzip", "under 1 MB gzip"):
        assert re.search(rf"^\| [^|]*{re.escape(budget)}[^|]* \| (Met|Missed): ", report, re.MULTILINE), budget
