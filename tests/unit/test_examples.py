"""Every code block carries the result of running its current text (`make examples`), and the checker itself works."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from macros.data.loading import load_atlas
from tools.examples.run import keyword_problems
from tools.examples.worker import check_names, keyword_calls, matches, output_claims, run

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
    assert run("x = 4  # -4\nx  # 4\n", "1.7", "") == ("ran", "checked 1 output comment", 1)  # an assignment's comment is prose


def test_output_is_compared_with_white_space_folded_and_ellipsis():
    assert matches("tensor([1., 2.])", "tensor([1.,\n        2.])\n")
    assert matches("tensor([1., ...])", "tensor([1., 5., 6.])")
    assert not matches("tensor([1., 2.])", "tensor([1., 3.])")


def test_a_block_runs_statement_by_statement_and_checks_its_claims():
    assert run("x = 2 + 2\nx  # 4\nprint(x * 2)  # 8\n", "1.0", "") == ("ran", "checked 2 output comments", 2)
    assert run("x = 2 + 2\nx  # 5\n", "1.0", "")[0] == "failed"
    assert run("{}['missing']\n", "1.0", "KeyError") == ("raised", "line 1: KeyError as stated", 1)
    assert run("{}['missing']\n", "1.0", "")[0] == "failed"
    assert run("x = 1\n", "1.0", "KeyError") == ("failed", "expected KeyError but the block ran to the end", 0)
    assert run("x = 1\n", "1.0", "") == ("ran", "nothing checked", 0)


def test_each_assert_the_block_runs_counts_as_a_check_but_not_those_in_its_functions():
    code = "x = 3\nassert x == 3\nfor i in range(2):\n    assert i < x\ndef f():\n    assert False\nif x > 5:\n    assert x\n"
    assert run(code, "1.0", "") == ("ran", "checked 3 asserts", 3)
    assert run("x = 3\nassert x == 4, 'x is off'\n", "1.0", "") == ("failed", "line 2: AssertionError: x is off", 0)


def test_a_stated_warning_is_a_check_and_its_absence_a_failure():
    code = "import warnings\nwarnings.warn('old', FutureWarning)\nx = 1\nx  # 1\n"
    assert run(code, "1.0", "", "FutureWarning") == ("ran", "line 2: FutureWarning as stated; checked 1 output comment", 2)
    assert run(code, "1.0", "", "DeprecationWarning") == ("failed", "expected DeprecationWarning but the block issued FutureWarning", 0)
    assert run("x = 1\n", "1.0", "", "UserWarning") == ("failed", "expected UserWarning but the block issued no warning", 0)


def test_a_setup_runs_before_the_block_and_its_failure_is_reported_as_the_setups():
    assert run("y = x + 1\ny  # 3\n", "1.0", "", "", "x = 2\n") == ("ran", "checked 1 output comment", 1)
    assert run("y = 1\n", "1.0", "", "", "x = undefined\n") == ("failed", "the setup failed: NameError: name 'undefined' is not defined", 0)


RECURSIVE_DISPATCH = """class Logged:
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return self.__torch_dispatch__(func, types, args, kwargs)
"""


def test_the_stricter_rule_catches_a_block_that_defines_what_it_never_uses():
    """2.3's `subclass-torch-function-disabled-with-dispatch` once defined a dispatch method that calls itself and never
    made an instance: it "ran". Now a block that checks nothing is reported as such (and fails `make test` without a
    reason), and using what it defines shows the recursion."""
    assert run(RECURSIVE_DISPATCH, "2.3", "") == ("ran", "nothing checked", 0)
    used = RECURSIVE_DISPATCH + "result = Logged().__torch_dispatch__(None, ())\nassert result is not None\n"
    assert run(used, "2.3", "")[:2] == ("failed", "line 4: RecursionError: maximum recursion depth exceeded")


def test_names_are_resolved_against_the_installed_modules():
    """The worker checks `torch` names; the test environment has no torch, so the module itself is reported missing."""
    assert check_names("import os\nos.path.join\n") == ("names-checked", "0 torch names found", [])
    assert check_names("import torch\ntorch.no_such_name\n") == ("failed", "not in this torch: torch, torch.no_such_name", [])


def test_a_static_check_compiles_the_block_and_lists_keyword_arguments_of_torch_calls():
    assert keyword_calls(ast.parse("import torch.nn as nn\nnn.Linear(2, 3, bias=False)\ntorch.x(**k)\nprint(end='')\n")) == [
        ["torch.nn.Linear", ["bias"]]
    ]
    with pytest.raises(SyntaxError):
        check_names("def f():\nreturn 1\n")


def test_keyword_arguments_are_held_to_the_measured_signatures_of_the_release():
    assert keyword_problems((("torch.compile", ("fullgraph", "mode")),), "2.3") == (None, ", 2 keyword arguments found in its signatures")
    assert keyword_problems((("torch.compile", ("modes",)),), "2.3") == ("torch.compile takes no keyword argument 'modes' in torch 2.3", "")
    assert keyword_problems((("torch.nn.Linear", ("bias", "device")),), "1.9")[0] is None
    assert (
        keyword_problems((("torch.nn.Linear", ("device",)),), "1.8")[0] == "torch.nn.Linear takes no keyword argument 'device' in torch 1.8"
    )
    assert keyword_problems((("torch.load", ("anything",)),), "1.12")[0] is None  # it takes **pickle_load_args


@pytest.mark.parametrize("release", ATLAS.releases, ids=lambda r: r.version)
def test_every_block_that_runs_checks_its_result_or_says_why_not(release):
    """A block that only ran proves only that it did not crash: it must compare output, assert, raise or warn."""
    blocks = {(b.item, b.role): b for b in release.code_blocks()}
    unchecked = [
        f"{r.item} {r.role}" for r in release.results if r.outcome == "ran" and not r.checks and not blocks[r.item, r.role].unchecked
    ]
    assert not unchecked, (
        f"make these blocks check their result (an output comment, an assert, raises, warns) or say why in `unchecked`: {unchecked}"
    )


def test_a_block_runs_as_main_in_its_own_folder_and_leaves_the_process_as_it_was(tmp_path, monkeypatch):
    """pickle and TorchScript look a block's classes up in __main__; files it writes stay out of the project."""
    monkeypatch.chdir(tmp_path)
    code = (
        "import io, os, pickle\nclass Info:\n    epochs = 3\nopen('out.txt', 'w').close()\npickle.loads(pickle.dumps(Info())).epochs  # 3\n"
    )
    main = sys.modules["__main__"]
    assert run(code, "2.6", "") == ("ran", "checked 1 output comment", 1)
    assert sys.modules["__main__"] is main and Path.cwd() == tmp_path and not (tmp_path / "out.txt").exists()


GPU_WORDS = {"cuda", "mps", "xpu", "compiler"}  # what only a GPU machine has (ROCm builds answer to `cuda`)


def test_nine_in_ten_python_blocks_that_need_no_gpu_ran_and_checked_their_result():
    blocks = [(r, b) for r in ATLAS.releases for b in r.code_blocks() if b.language == "python" and not GPU_WORDS & set(b.requires)]
    checked = [b for r, b in blocks if (found := r.result(b.item, b.role)) and found.status in ("checked", "checked-together")]
    assert len(checked) >= 0.9 * len(blocks), f"{len(checked)} of {len(blocks)} ran and checked their result"


@pytest.mark.parametrize("release", ATLAS.releases, ids=lambda r: r.version)
def test_every_result_was_found_on_the_release_its_block_runs_on(release):
    """An example and an `after` run on their release, a `before` on the release before it: the recorded torch says so."""
    previous = {later.version: earlier.version for earlier, later in zip(ATLAS.releases, ATLAS.releases[1:], strict=False)}
    runs_on = {"before": previous.get(release.version, release.version)}  # the first release has no release before it
    wrong = [
        f"{r.item} {r.role}: torch {r.torch}"
        for r in release.results
        if r.torch and ".".join(r.torch.split(".")[:2]) != runs_on.get(r.role, release.version)
    ]
    assert not wrong
