"""Every code block carries the result of running its current text (`make examples`), and the checker itself works."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from macros.example_worker import check_names, matches, output_claims, run
from macros.loading import load_atlas

from ..conftest import REAL_DATA

ATLAS = load_atlas(REAL_DATA)


@pytest.mark.parametrize("release", ATLAS.releases, ids=lambda r: r.version)
def test_every_block_has_a_result_for_its_current_text(release):
    """An edited example cannot keep an old badge: its hash no longer matches, and `make examples RELEASES=...` must run."""
    stale = [f"{b.item} {b.role}" for b in release.code_blocks() if release.result(b.item, b.role) is None]
    assert not stale, f"run `make examples RELEASES={release.version}`: no current result for {stale}"
    blocks = {(b.item, b.role) for b in release.code_blocks()}
    assert [(r.item, r.role) for r in release.results if (r.item, r.role) not in blocks] == []


@pytest.mark.parametrize("release", ATLAS.releases, ids=lambda r: r.version)
def test_no_block_failed(release):
    failed = [f"{r.item} {r.role}: {r.detail}" for r in release.results if r.outcome == "failed"]
    assert not failed, "fix the example, its claim, or mark what it needs: " + "; ".join(failed)


def test_output_comments_are_claims_only_when_they_read_like_output():
    code = "x = 1  # -4\nprint(x)  # tensor([1., 2.])  (as before)\nx  # 1.6: 3\nx  # 1.7: 4\ny = x  # close to 0\nx  # True\n"
    assert output_claims(code, "1.7") == {1: "-4", 2: "tensor([1., 2.])", 4: "4", 6: "True"}
    assert run("x = 4  # -4\nx  # 4\n", "1.7", "") == ("ran", "1 output comment checked")  # an assignment's comment is prose


def test_output_is_compared_with_white_space_folded_and_ellipsis():
    assert matches("tensor([1., 2.])", "tensor([1.,\n        2.])\n")
    assert matches("tensor([1., ...])", "tensor([1., 5., 6.])")
    assert not matches("tensor([1., 2.])", "tensor([1., 3.])")


def test_a_block_runs_statement_by_statement_and_checks_its_claims():
    assert run("x = 2 + 2\nx  # 4\nprint(x * 2)  # 8\n", "1.0", "") == ("ran", "2 output comments checked")
    assert run("x = 2 + 2\nx  # 5\n", "1.0", "")[0] == "failed"
    assert run("{}['missing']\n", "1.0", "KeyError") == ("raised", "line 1: KeyError as stated")
    assert run("{}['missing']\n", "1.0", "")[0] == "failed"
    assert run("x = 1\n", "1.0", "KeyError") == ("failed", "expected KeyError but the block ran to the end")
    assert run("x = 1\n", "1.0", "") == ("ran", "no output comment to compare")


def test_names_are_resolved_against_the_installed_modules():
    """The worker checks `torch` names; the test environment has no torch, so the module itself is reported missing."""
    assert check_names("import os\nos.path.join\n") == ("names-checked", "0 torch names found")
    assert check_names("import torch\ntorch.no_such_name\n") == ("failed", "not in this torch: torch, torch.no_such_name")


def test_a_block_runs_as_main_in_its_own_folder_and_leaves_the_process_as_it_was(tmp_path, monkeypatch):
    """pickle and TorchScript look a block's classes up in __main__; files it writes stay out of the project."""
    monkeypatch.chdir(tmp_path)
    code = (
        "import io, os, pickle\nclass Info:\n    epochs = 3\nopen('out.txt', 'w').close()\npickle.loads(pickle.dumps(Info())).epochs  # 3\n"
    )
    main = sys.modules["__main__"]
    assert run(code, "2.6", "") == ("ran", "1 output comment checked")
    assert sys.modules["__main__"] is main and Path.cwd() == tmp_path and not (tmp_path / "out.txt").exists()
