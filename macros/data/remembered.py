"""What a process that builds again and again (`make serve`) remembers between builds, handed down explicitly.

A one-off build passes none and every reader makes what it needs anew; the preview's `SiteCache` holds one `Remembered`
and hands it to every read of the data and to the generation, so a file whose bytes are unchanged is not parsed again
and the API reference's pages are not rendered again while the index and their templates are unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
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

    def put(self, key: Hashable, fingerprint: object, value: object) -> None:
        """Remember `value` for `key`, made from what `fingerprint` describes (for a value whose inputs are known only
        once it is made)."""
        self.values[key] = (fingerprint, value)

    def fingerprint(self, key: Hashable) -> object | None:
        """The fingerprint of the value last remembered for `key`, or None."""
        found = self.values.get(key)
        return found[0] if found else None

    def last(self, key: Hashable) -> object | None:
        """The value last made for `key`, or None."""
        found = self.values.get(key)
        return found[1] if found else None


def remembered_or_new(remembered: Remembered | None) -> Remembered:
    """The memory handed down, or a new one that lasts for one call."""
    return remembered if remembered is not None else Remembered()


@dataclass(frozen=True, slots=True, eq=False)
class Same:
    """A fingerprint that is the same only for the very same object (data read once and handed down unchanged)."""

    value: object

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.value is self.value

    def __hash__(self) -> int:
        return id(self.value)
