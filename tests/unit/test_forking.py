"""Work in a forked process: its results and its log reach the parent; when it fails, the parent is told so."""

from __future__ import annotations

import logging
import os

from macros.render.forking import ForkedWork

log = logging.getLogger("mkdocs.plugins.atlas.test")


def _square_in_child(number: int) -> tuple[int, int]:
    log.warning("squaring %d", number)
    return number * number, os.getpid()


def test_the_results_and_the_log_of_the_child_reach_the_parent(caplog):
    caplog.set_level(logging.INFO)
    results = ForkedWork(_square_in_child, [2, 3], key=str).results()
    assert {key: square for key, (square, _) in results.items()} == {"2": 4, "3": 9}
    assert {pid for _, pid in results.values()} != {os.getpid()}  # the work ran in another process
    assert [record.getMessage() for record in caplog.records] == ["squaring 2", "squaring 3"]
    assert {record.levelno for record in caplog.records} == {logging.WARNING}


def _fail_in_child(number: int) -> int:
    log.warning("about to fail")
    raise ValueError(number)


def test_a_failing_child_gives_no_results_and_no_log(caplog):
    assert ForkedWork(_fail_in_child, [1], key=str).results() is None
    assert not caplog.records  # the parent, doing the work again, logs it itself
