"""Typed model of the release data: one dataclass per kind of record, with the YAML field names."""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property

from packaging.version import Version

CHANGE_KINDS = {"breaking": "Backwards-incompatible", "deprecation": "Deprecation", "removal": "Removal"}
CORE_COMPONENT = "pytorch"
UNLABELED = "Unlabeled"


@dataclass(frozen=True, slots=True)
class Source:
    """A document a reader can open to check a fact."""

    url: str
    title: str


@dataclass(frozen=True, slots=True)
class Dated:
    """A release date and the URL that states it."""

    date: str
    source: str


@dataclass(frozen=True, slots=True)
class Count:
    """A number of commits or contributors, as the source states it ("more than" or exact)."""

    count: int
    source: str
    more_than: bool = False


@dataclass(frozen=True, slots=True)
class Versions:
    """The Python, CUDA or ROCm versions a release's binaries were built for, with their source."""

    versions: tuple[str, ...]
    source: str
    experimental: tuple[str, ...] = ()
    free_threaded: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Minimum:
    """The lowest supported version of an operating system."""

    minimum: str
    source: str


@dataclass(frozen=True, slots=True)
class Coverage:
    """How completely the record covers the release's official sources."""

    changes: str
    note: str | None = None

    @property
    def changes_complete(self) -> bool:
        """Whether every backwards-incompatible change and deprecation of the notes is recorded."""
        return self.changes == "complete"


@dataclass(frozen=True, slots=True)
class Patch:
    """A patch release that changed the platforms a feature release supports."""

    version: str
    date: str
    summary: str
    source: str
    python: tuple[str, ...] | None = None
    cuda: tuple[str, ...] | None = None
    rocm: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class PatchFix:
    """What a patch release fixed, as its own release notes list it."""

    version: str
    summary: str
    source: str


@dataclass(frozen=True, slots=True)
class Companion:
    """A library version that its official compatibility table pairs with a release."""

    library: str
    version: str
    source: str
    with_torch: str | None = None
    python: str | None = None
    final: bool = False


@dataclass(frozen=True, slots=True)
class Example:
    """A code example attached to a feature: how it runs, what it needs that a CPU-only machine lacks, and the error or
    warning it shows on purpose."""

    code: str
    caption: str | None = None
    language: str = "python"
    requires: tuple[str, ...] = ()
    raises: str | None = None
    warns: str | None = None
    setup: str | None = None
    processes: int = 1
    packages: tuple[str, ...] = ()
    unchecked: str | None = None


@dataclass(frozen=True, slots=True)
class Setup:
    """Code that blocks of a release run first (like doctest's setup), shown to the reader on request."""

    id: str
    code: str
    caption: str | None = None


@dataclass(frozen=True, slots=True)
class CodeBlock:
    """One code block of a release page: a feature's example, or a change's `before` or `after`."""

    item: str
    role: str  # example, before or after
    code: str
    language: str
    requires: tuple[str, ...]
    raises: str | None
    warns: str | None = None
    setup: Setup | None = None
    processes: int = 1
    packages: tuple[str, ...] = ()
    unchecked: str | None = None  # why the block has nothing to check, when it has not

    @property
    def hash(self) -> str:
        """The block's content hash: an edit to its code, its setup or what it claims makes an earlier result stale."""
        claims = [self.code, self.language, list(self.requires), self.raises]
        extra = [self.warns, self.setup.code if self.setup else None, self.processes, list(self.packages), self.unchecked]
        if extra != [None, None, 1, [], None]:  # blocks without these keep the hashes they were first run under
            claims.append(extra)
        return hashlib.sha256(json.dumps(claims).encode()).hexdigest()[:16]


BLOCK_STATUSES = {  # what `make examples` found for a block, as a count of them reads; in the order pages list them
    "checked": "ran and checked their result",
    "checked-together": "ran in several processes and checked their result",
    "nothing-to-check": "ran with nothing to check",
    "static": "checked statically",
    "not-python": "not Python",
    "pending": "failed or not run yet",
}


@dataclass(frozen=True, slots=True)
class BlockResult:
    """What `make examples` found when it ran (or checked) one code block."""

    item: str
    role: str
    hash: str
    outcome: str  # ran, raised, names-checked, not-run or failed
    detail: str
    date: str
    torch: str | None = None
    python: str | None = None
    checks: int | None = None  # for a block that ran: how many of its claims were checked (None: not counted)
    processes: int | None = None  # for a block that ran in several processes: how many

    @property
    def status(self) -> str:
        """Which of BLOCK_STATUSES the result is."""
        if self.outcome in ("ran", "raised") and self.checks:
            return "checked-together" if self.processes else "checked"
        return {"ran": "nothing-to-check", "names-checked": "static", "not-run": "not-python"}.get(self.outcome, "pending")


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
    details: str | None = None
    example: Example | None = None
    aliases: tuple[str, ...] = ()
    absent_apis: tuple[str, ...] = ()
    feature: str | None = None  # the feature record this entry is about, when its id is not the record's


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
    before: str | None = None
    after: str | None = None
    language: str = "python"
    requires: tuple[str, ...] = ()
    before_raises: str | None = None
    after_raises: str | None = None
    before_warns: str | None = None
    after_warns: str | None = None
    before_unchecked: str | None = None
    after_unchecked: str | None = None
    setup: str | None = None
    processes: int = 1
    packages: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    absent_apis: tuple[str, ...] = ()
    deprecates: tuple[str, ...] = ()  # for a deprecation: the torch names it deprecates
    feature: str | None = None  # the feature record this change touches, when its id is not the record's

    @property
    def kind_label(self) -> str:
        """Human label of the change kind."""
        return CHANGE_KINDS[self.kind]


@dataclass(frozen=True, slots=True)
class Release:
    """Everything one release file states."""

    version: str
    summary: str
    released: Dated
    coverage: Coverage
    sources: tuple[Source, ...]
    features: tuple[Feature, ...]
    title: str | None = None
    commits: Count | None = None
    contributors: Count | None = None
    python: Versions | None = None
    cuda: Versions | None = None
    rocm: Versions | None = None
    macos: Minimum | None = None
    patches: tuple[Patch, ...] = ()
    fixes: tuple[PatchFix, ...] = ()
    companions: tuple[Companion, ...] = ()
    highlights: tuple[str, ...] = ()
    changes: tuple[Change, ...] = ()
    setups: tuple[Setup, ...] = ()
    results: tuple[BlockResult, ...] = ()  # from data/examples/<version>.yaml, written by `make examples`

    @property
    def entries(self) -> tuple[Feature | Change, ...]:
        """Its features, then its changes, in page order."""
        return (*self.features, *self.changes)

    def code_blocks(self) -> list[CodeBlock]:
        """Every code block of the release, in page order."""
        return [block for entry in self.entries for block in _code_blocks_of(entry, self.setups)]

    def block_statuses(self) -> dict[str, int]:
        """How many of its code blocks have each status of BLOCK_STATUSES (those with none left out)."""
        recorded: dict[tuple[str, str], BlockResult] = {}
        for result in self.results:
            recorded.setdefault((result.item, result.role), result)  # the first, as `result` finds it
        found = [
            result.status if (result := recorded.get((b.item, b.role))) and result.hash == b.hash else "pending" for b in self.code_blocks()
        ]
        return {status: count for status in BLOCK_STATUSES if (count := found.count(status))}

    def setup(self, setup_id: str) -> Setup:
        """One of the release's setups by id."""
        return next(setup for setup in self.setups if setup.id == setup_id)

    def result(self, item: str, role: str) -> BlockResult | None:
        """The recorded result of a block, if it was recorded for the block as it is now."""
        found = next((r for r in self.results if (r.item, r.role) == (item, role)), None)
        entry = next((e for e in self.entries if e.id == item), None) if found else None
        block = next((b for b in _code_blocks_of(entry, self.setups) if b.role == role), None) if entry else None
        return found if block and found.hash == block.hash else None

    @property
    def number(self) -> Version:
        """The version as a number, so that 1.4 sorts before 1.10."""
        return version_number(self.version)

    @property
    def notes_url(self) -> str:
        """The official GitHub release notes of the release's first build (X.Y.0)."""
        return f"https://github.com/pytorch/pytorch/releases/tag/v{self.version}.0"

    @property
    def date(self) -> date:
        """Release date."""
        return date.fromisoformat(self.released.date)

    def features_with(self, stability: str) -> list[Feature]:
        """Features at one stability label, in file order."""
        return [f for f in self.features if f.stability == stability]

    def stability_counts(self, label_order: tuple[str, ...]) -> dict[str, int]:
        """Number of features per stability label, in `label_order`, omitting zeros."""
        counts = {label: len(self.features_with(label)) for label in label_order}
        return {label: n for label, n in counts.items() if n}

    def change_counts(self) -> dict[str, int]:
        """Number of changes of each kind (breaking, deprecation, removal), zeros included."""
        return {kind: sum(change.kind == kind for change in self.changes) for kind in CHANGE_KINDS}

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
    platform: str | None = None


@dataclass(frozen=True, slots=True)
class ErrorAnswer:
    """Where the site answers an error: one of its pages (`will-it-run`, `reference`, `platforms`), opened with these
    form fields or at this anchor."""

    page: str
    text: str
    query: dict[str, str] | None = None
    anchor: str | None = None


@dataclass(frozen=True, slots=True)
class ErrorPage:
    """An error or warning people paste into a search engine, what it means, and the page that answers it."""

    id: str
    message: str
    title: str
    cause: str
    remedy: str
    answer: ErrorAnswer
    sources: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FeatureRecord:
    """One feature as a whole (data/features.yaml): its own name and description, what it is about, and the bigger
    feature it is a part of. Release entries belong to it by its id, or by naming it in their `feature` field."""

    id: str
    name: str
    description: str
    topics: tuple[str, ...] = ()
    apis: tuple[str, ...] = ()
    part_of: str | None = None


@dataclass(frozen=True, slots=True)
class Label:
    """One word a labeling scheme uses to mark a feature's stability, and what it promises."""

    name: str
    meaning: str
    stable: bool = False


@dataclass(frozen=True, slots=True)
class LabelScheme:
    """The stability words that a run of releases used, from the announcement that introduced them."""

    id: str
    title: str
    first: str
    intro: str
    source: str
    labels: tuple[Label, ...]
    last: str | None = None

    def covers(self, version: str) -> bool:
        """Whether a release of this version announced its features in this scheme's words."""
        number = Version(version)
        return Version(self.first) <= number and (not self.last or number <= Version(self.last))


@dataclass(frozen=True)
class Labels:
    """Every labeling scheme (oldest first), plus the word for an item announced without a label."""

    schemes: tuple[LabelScheme, ...]
    unlabeled: Label = field(default_factory=lambda: Label(UNLABELED, "The announcement lists the item without a stability label."))

    def scheme_for(self, version: str) -> LabelScheme | None:
        """The scheme in force for a release, if any covers it."""
        return next((s for s in self.schemes if s.covers(version)), None)

    @cached_property
    def order(self) -> tuple[str, ...]:
        """Every label word, newest scheme first and most stable first within a scheme, then Unlabeled."""
        words = [label.name for scheme in reversed(self.schemes) for label in scheme.labels]
        return (*dict.fromkeys(words), self.unlabeled.name)

    @cached_property
    def stable_words(self) -> frozenset[str]:
        """The words that mark a feature as stable, in any scheme."""
        return frozenset(label.name for scheme in self.schemes for label in scheme.labels if label.stable)

    def shown(self, name: str) -> str:
        """How a stage reads on the site: an item without a label says so in plain words."""
        return "No label" if name == self.unlabeled.name else name

    def label(self, name: str) -> Label | None:
        """The label with this word (the newest scheme's meaning when several schemes share it)."""
        found = [label for scheme in reversed(self.schemes) for label in scheme.labels if label.name == name]
        return found[0] if found else (self.unlabeled if name == self.unlabeled.name else None)


@dataclass(frozen=True, slots=True)
class DistinctPair:
    """Two feature ids that look alike but were reviewed as different features."""

    ids: tuple[str, str]
    reason: str


@dataclass(frozen=True, slots=True)
class Redirect:
    """One moved page: its old and new site paths (from the root, such as `/releases/1.9/`), and its line in data/redirects.yaml."""

    old: str
    new: str
    line: int | None


@dataclass(frozen=True)
class Atlas:
    """All releases (oldest first), topics, labeling schemes, the reviewed look-alike ids, the moved pages, the feature
    records and the errors the site explains."""

    releases: tuple[Release, ...]
    topics: tuple[Topic, ...]
    labels: Labels
    distinct: tuple[DistinctPair, ...] = ()
    redirects: tuple[Redirect, ...] = ()
    records: tuple[FeatureRecord, ...] = ()
    errors: tuple[ErrorPage, ...] = ()

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

    @cached_property
    def records_by_id(self) -> dict[str, FeatureRecord]:
        """The feature records, by id."""
        return {record.id: record for record in self.records}

    def record_of(self, entry: Feature | Change) -> str | None:
        """The id of the feature record an entry is about: the one it names, else the record with its id, if any."""
        return entry.feature or (entry.id if entry.id in self.records_by_id else None)


def _code_blocks_of(entry: Feature | Change, setups: tuple[Setup, ...]) -> list[CodeBlock]:
    """The code blocks of one feature (its example) or change (its before and after), in page order."""
    setup_of = {setup.id: setup for setup in setups}
    if isinstance(entry, Feature):
        e = entry.example
        if not e:
            return []
        run = {"setup": setup_of.get(e.setup or ""), "processes": e.processes, "packages": e.packages}
        return [CodeBlock(entry.id, "example", e.code, e.language, e.requires, e.raises, e.warns, unchecked=e.unchecked, **run)]
    run = {"setup": setup_of.get(entry.setup or ""), "processes": entry.processes, "packages": entry.packages}
    roles = (
        ("before", entry.before, entry.before_raises, entry.before_warns, entry.before_unchecked),
        ("after", entry.after, entry.after_raises, entry.after_warns, entry.after_unchecked),
    )
    return [
        CodeBlock(entry.id, role, code, entry.language, entry.requires, raises, warns, unchecked=unchecked, **run)
        for role, code, raises, warns, unchecked in roles
        if code
    ]


@functools.lru_cache(maxsize=1024)
def version_number(version: str) -> Version:
    """A release's version as a number (parsed once: pages sort releases many times)."""
    return Version(version)
