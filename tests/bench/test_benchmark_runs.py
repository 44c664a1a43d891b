"""The benchmark runs end to end and writes a complete report (its figures are judged in bench/RESULTS.md, not here)."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.conftest import PROJECT_DIR


def test_benchmark_writes_every_figure_and_budget(tmp_path):
    out = tmp_path / "RESULTS.md"
    options = ["--sizes", "2", "--runs", "1", "--edits", "1", "--template-edits", "1", "--lighthouse-runs", "0", "--out", str(out)]
    result = subprocess.run([sys.executable, "bench/run.py", *options], cwd=PROJECT_DIR, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    report = out.read_text(encoding="utf-8")
    assert "- Command: `.venv/bin/python bench/run.py --sizes 2 --runs 1 --edits 1 --template-edits 1 --lighthouse-runs 0 --out" in report
    assert re.search(r"^- Machine: \d+ cores, \d+ GiB memory", report, re.MULTILINE)
    row = re.search(r"^\| 2 \| (.+) \|$", report, re.MULTILINE)
    assert row, report
    assert len(row.group(1).split(" | ")) == 13, row.group(0)  # every column after the size is filled
    real = re.search(r"^\| (\d+\.\d\d) \| (\d+\.\d\d) \| (\d+\.\d\d) \| (\d+) \| (.+) \|$", report, re.MULTILINE)
    assert real and len(real.group(5).split(" | ")) == 5, report  # the real data's builds with and without the API, memory, weights
    assert re.search(r"^API lookup: data \d+ KB gzip .* ms\.$", report, re.MULTILINE), report
    assert re.search(r"^Checker \(`reference/needs/`\), .*: 1 MB of Python in \d+, \d+, \d+ ms; .*; 10 MB in \d+ ms\.$", report, re.M), (
        report
    )
    assert re.search(r"^Resolver \(`will-it-run/`\): data \d+ KB gzip .*: (\d+, ){8}\d+ ms\.$", report, re.MULTILINE), report
    for edits in ("data edits", "template edits"):  # when the page was painted, and when Playwright found the text
        assert re.search(rf"^Serve, {edits} .*: painted \d+\.\d\d s; found by Playwright \d+\.\d\d s\.$", report, re.MULTILINE), edits
    budgets = ("1.05x the stack floor", "data edit visible", "template edit", "under 100 KB gzip", "under 1 MB gzip")
    budgets += ("with the API reference at most 2x", "lookup's data at most 400 KB gzip", "answers within 50 ms")
    budgets += ("checker answers a 1 MB paste in under a second", "resolver's data at most 100 KB gzip", "answers within 200 ms")
    for budget in budgets:
        assert re.search(rf"^\| [^|]*{re.escape(budget)}[^|]* \| (Met|Missed): ", report, re.MULTILINE), budget
    assert re.search(r"^\| Lighthouse, mobile[^|]* \| Not measured: `--lighthouse-runs 0` \|$", report, re.MULTILINE)
