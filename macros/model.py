"""Typed model of the release data, built from validated YAML."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import cached_property

from packaging.version import Version

STABILITY_ORDER = ("Stable", "Beta", "Prototype", "Experimental", "Unlabeled")
CHANGE_KINDS = {"breaking": "Backwards-incompatible", "deprecation": "Deprecation", "removal": "Removal"}
CORE_COMPONENT = "pytorch"


@dataclass(frozen=True, slots=True)
class Source:
    """A document a reader can open to check a fact."""

    url: str
    title: str


@dataclass(frozen=True, slots=True)
class Sourced:
    """A single fact with the URL that states it."""

    value: object
    source: str
    more_than: bool = False


@dataclass(frozen=True, slots=True)
class Example:
    """A code example attached to a feature."""

    code: str
    caption: str = ""


@dataclass(frozen=True, slots=True)
class Feature:
    """One feature as one release announced it."""

    id: str
    title: str
    stability: str
    summary: str
    sources: tuple[str, ...]
    component: str = CORE_COMPONENT
    topics: tuple[str, ...] = ()
    details: str = ""
    example: Example | None = None
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Change:
    """A backwards-incompatible change, deprecation or removal in one release."""

    id: str
    kind: str
    title: str
    summary: str
    sources: tuple[str, ...]
    component: str = CORE_COMPONENT
    topics: tuple[str, ...] = ()
    before: str = ""
    after: str = ""
    aliases: tuple[str, ...] = ()

    @property
    def kind_label(self) -> str:
        """Human label of the change kind."""
        return CHANGE_KINDS[self.kind]


@dataclass(frozen=True, slots=True)
class Release:
    """Everything one release file states."""

    version: str
    summary: str
    released: Sourced
    sources: tuple[Source, ...]
    features: tuple[Feature, ...]
    title: str = ""
    commits: Sourced | None = None
    contributors: Sourced | None = None
    python: Sourced | None = None
    cuda: Sourced | None = None
    macos: Sourced | None = None
    highlights: tuple[str, ...] = ()
    changes: tuple[Change, ...] = ()

    @property
    def key(self) -> Version:
        """Sort key: numeric version order, so 1.4 < 1.10."""
        return Version(self.version)

    @property
    def date(self) -> date:
        """Release date."""
        return date.fromisoformat(str(self.released.value))

    def features_with(self, stability: str) -> list[Feature]:
        """Features at one stability level, in file order."""
        return [f for f in self.features if f.stability == stability]

    def stability_counts(self) -> dict[str, int]:
        """Number of features per stability level, in display order, omitting zeros."""
        counts = {s: len(self.features_with(s)) for s in STABILITY_ORDER}
        return {s: n for s, n in counts.items() if n}

    def feature(self, feature_id: str) -> Feature | None:
        """The feature with this id, if this release has it."""
        return next((f for f in self.features if f.id == feature_id), None)

    def change(self, change_id: str) -> Change | None:
        """The change with this id, if this release has it."""
        return next((c for c in self.changes if c.id == change_id), None)


@dataclass(frozen=True, slots=True)
class Topic:
    """A cross-release index such as CUDA or FFT."""

    id: str
    title: str
    intro: str


@dataclass(frozen=True)
class Atlas:
    """All releases (oldest first) and topics."""

    releases: tuple[Release, ...]
    topics: tuple[Topic, ...]

    @cached_property
    def newest_first(self) -> tuple[Release, ...]:
        """Releases, newest first."""
        return tuple(reversed(self.releases))

    def release(self, version: str) -> Release:
        """The release with this version string."""
        return next(r for r in self.releases if r.version == version)

    def topic(self, topic_id: str) -> Topic:
        """The topic with this id."""
        return next(t for t in self.topics if t.id == topic_id)
