"""What a process that builds again and again (`make serve`) remembers between builds, handed down explicitly.

A one-off build passes none and every reader makes what it needs anew; the preview's `SiteCache` holds one `Remembered`
and hands it to every read of the data and to the generation, so a file whose bytes are unchanged is not parsed again
and the API reference's pages are not rendered again while the index and their templates are unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

T = TypeVar("T")


class Remembered:
    """Values by key, each given again while the fingerprint of what it was made from is the same."""

    def __init__(self) -> None:
        self.values: dict[Hashable, tuple[object, object]] = {}

    def get(self, key: Hashable, fingerprint: object, make: Callable[[], T]) -> T:
        """The value last made for `key` if its fingerprint is `fingerprint`, else `make()`, remembered."""
        found = self.values.get(key)
        if found is None or found[0] != fingerprint:
            found = self.values[key] = (fingerprint, make())
        return found[1]

    def last(self, key: Hashable) -> object | None:
        """The value last made for `key`, or None."""
        found = self.values.get(key)
        return found[1] if found else None


def remembered_or_new(remembered: Remembered | None) -> Remembered:
    """The memory handed down, or a new one that lasts for one call."""
    return remembered if remembered is not None else Remembered()
