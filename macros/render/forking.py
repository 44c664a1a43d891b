"""Work on a second core: a forked child process runs a function over some items while the parent goes on.

The child starts as a copy of the parent (its configuration, pages and caches), so the work needs no setup and
the items need not be picklable; only the results travel back, through a pipe. What the child logs is replayed
by the parent, so MkDocs counts its warnings (`strict`) and prints them. Without `os.fork`, or when the child
fails or hangs, `results` returns None and the caller does the work itself.
"""

from __future__ import annotations

import logging
import os
import pickle
import select
import signal
import time
from collections.abc import Callable, Hashable, Iterable
from typing import Generic, TypeVar

CAN_FORK = hasattr(os, "fork")
WAIT_LIMIT = 120.0  # seconds; a child that takes longer is stopped and its work done again by the parent


class _KeepRecords(logging.Handler):
    """A log handler that keeps each record, made picklable, for the parent to replay."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the record with its message formatted and its traceback as text."""
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        fields = {**record.__dict__, "msg": record.getMessage(), "args": None, "exc_info": None}
        self.records.append(logging.makeLogRecord({name: value for name, value in fields.items() if _picklable(value)}))


class ForkedWork:
    """`work(item)` for every item, run in a forked child; `results()` gives them, keyed by `key(item)`."""

    def __init__(self, work: Callable[[object], object], items: Iterable[object], key: Callable[[object], Hashable]) -> None:
        self._reader, writer = os.pipe()
        self._pid = os.fork()
        if self._pid == 0:  # the child: never returns
            os.close(self._reader)
            _run_child(work, list(items), key, writer)
        os.close(writer)

    def results(self) -> dict | None:
        """Each item's result once the child is done, after replaying its log; None if it failed or took too long."""
        chunks, deadline = [], time.monotonic() + WAIT_LIMIT
        with os.fdopen(self._reader, "rb") as pipe:
            while select.select([pipe], [], [], max(0.0, deadline - time.monotonic()))[0]:
                chunk = os.read(pipe.fileno(), 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
            else:
                os.kill(self._pid, signal.SIGKILL)
                chunks = []
        os.waitpid(self._pid, 0)
        try:
            outcome, records = pickle.loads(b"".join(chunks))
        except (pickle.UnpicklingError, EOFError, ValueError):
            return None
        if outcome is None:  # the caller does the work again, which logs the same records
            return None
        for record in records:
            logging.getLogger(record.name).handle(record)
        return outcome


def _run_child(work: Callable[[object], object], items: list[object], key: Callable[[object], Hashable], writer: int) -> None:
    """Do the work, send the results and the log records through `writer`, and exit without running the parent's exit code."""
    keeper = _KeepRecords()
    for name in ("mkdocs", ""):
        logging.getLogger(name).handlers = [keeper]
    logging.getLogger("mkdocs").propagate = False  # as under the mkdocs command: each record is kept once
    try:
        outcome = {key(item): work(item) for item in items}
    except BaseException:  # the parent does the work again, and reports the error itself
        outcome = None
    try:
        with os.fdopen(writer, "wb") as pipe:
            pipe.write(pickle.dumps((outcome, keeper.records), protocol=pickle.HIGHEST_PROTOCOL))
    finally:
        os._exit(0)


def _picklable(value: object) -> bool:
    """Whether a log record's attribute can travel to the parent."""
    try:
        pickle.dumps(value)
    except Exception:
        return False
    return True


Result = TypeVar("Result")


class Memo(Generic[Result]):
    """A function's results remembered for the process, up to `limit` of them (then forgotten at once), by `key` of its
    arguments (the arguments themselves by default), with what was learnt since `take_made`: a forked child sends that
    to its parent, which `keep`s it for its next builds."""

    def __init__(self, function: Callable[..., Result], limit: int, key: Callable[..., Hashable] | None = None) -> None:
        self._function, self._limit, self._key = function, limit, key or (lambda *arguments: arguments)
        self._known: dict[Hashable, Result] = {}
        self._made: dict[Hashable, Result] = {}

    def __call__(self, *arguments: Hashable) -> Result:
        key = self._key(*arguments)
        if key not in self._known:
            if len(self._known) >= self._limit:
                self._known.clear()
            self._known[key] = self._made[key] = self._function(*arguments)
        return self._known[key]

    def take_made(self) -> dict[Hashable, Result]:
        """What this process learnt since the last call."""
        made, self._made = self._made, {}
        return made

    def keep(self, made: dict[Hashable, Result]) -> None:
        """Keep what a forked process learnt."""
        self._known.update(made)
