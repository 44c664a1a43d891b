"""Cross-release views computed from the model: lifecycles, topic indexes, upgrade paths, platforms."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from packaging.version import Version

from macros.data.markup import text_only
from macros.data.model import CHANGE_KINDS, Atlas, Change, Feature, FeatureRecord, Release
from macros.views import urls

END_STAGES = {"deprecation": "Deprecated", "removal": "Removed"}


@dataclass(frozen=True, slots=True)
class Stage:
    """Where a feature stood in one release."""

    version: str
    stage: str


@dataclass(frozen=True, slots=True)
class Lifecycle:
    """One feature followed across every release that mentions it (oldest first)."""

    id: str
    title: str  # the feature record's name when there is one, else the latest entry's title
    component: str
    topics: tuple[str, ...]
    stages: tuple[Stage, ...]
    has_page: bool = False  # a history page of its own (several releases, or a feature record), not a redirect
    record_page: str | None = None  # the record whose page tells its history, when every entry names one under another id

    @property
    def sort_key(self) -> str:
        """The title as a reader sees it, case-folded: rows sort by words, not by Markdown markers."""
        return text_only(self.title).lstrip("\"'([").casefold()

    @property
    def latest(self) -> Stage:
        """The most recent stage."""
        return self.stages[-1]

    @property
    def has_history(self) -> bool:
        """Whether more than one release mentions the feature; only then does it get a page of its own."""
        return len(self.stages) > 1

    @property
    def doc_path(self) -> str:
        """Where the feature is described: its history page; or, mentioned by several releases under the id of a part of
        a record, the record's page; or else its entry on its one release page."""
        if self.has_page:
            return urls.feature_doc(self.id)
        if self.record_page and self.has_history:
            return urls.feature_doc(self.record_page)
        return urls.release_entry(self.stages[0].version, self.id)

    def first_release_with(self, stages: Iterable[str]) -> str | None:
        """The first release in which the feature had one of these stages, if any."""
        wanted = set(stages)
        return next((s.version for s in self.stages if s.stage in wanted), None)


@dataclass(frozen=True, slots=True)
class GridColumn:
    """One column of a stage grid: a release, or a gap, a run of releases in which no row of the grid has a stage."""

    versions: tuple[str, ...]
    gap: bool = False

    @property
    def label(self) -> str:
        """The release, or the first and last release of the gap ("2.0–2.14")."""
        return self.versions[0] if len(self.versions) == 1 else f"{self.versions[0]}–{self.versions[-1]}"


@dataclass(frozen=True, slots=True)
class GridCell:
    """One cell of a stage grid: a stage, or a run of neighbouring releases with none (`stage` None, `span` wide)."""

    version: str  # the release, or a gap's label
    stage: str | None
    span: int = 1
    not_covered: bool = False  # the release is outside the atlas ("n/c")
    gap: bool = False  # the cell of a gap column


def grid_columns(lifecycles: Iterable[Lifecycle], versions: list[str], not_covered: Iterable[str]) -> list[GridColumn]:
    """The columns of a grid of these rows: each release in which a row has a stage (or that the atlas does not cover),
    and one gap column for each run of releases in between in which none has, so a grid shows where its features happened."""
    shown = {stage.version for lifecycle in lifecycles for stage in lifecycle.stages} | set(not_covered)
    columns: list[GridColumn] = []
    for staged, run in itertools.groupby(versions, key=shown.__contains__):
        found = tuple(run)
        columns += [GridColumn((version,)) for version in found] if staged else [GridColumn(found, gap=True)]
    return columns


def grid_row(lifecycle: Lifecycle, columns: list[GridColumn], not_covered: Iterable[str]) -> list[GridCell]:
    """A feature's row of a stage grid; neighbouring releases that do not mention it share one cell, which keeps the DOM small."""
    stages = {stage.version: stage.stage for stage in lifecycle.stages}
    uncovered = set(not_covered)

    def kind(column: GridColumn) -> str:
        version = column.versions[0]
        return "gap" if column.gap else "stage" if version in stages else "n/c" if version in uncovered else "empty"

    cells: list[GridCell] = []
    for found, run in itertools.groupby(columns, key=kind):
        chosen = list(run)
        if found == "empty":
            cells.append(GridCell(chosen[0].label, None, span=len(chosen)))
        else:
            cells += [GridCell(c.label, stages.get(c.label), not_covered=found == "n/c", gap=found == "gap") for c in chosen]
    return cells


@dataclass(frozen=True, slots=True)
class StageChange:
    """A feature whose stage in a release differs from its previous appearance."""

    version: str
    feature_id: str
    title: str
    before: str
    after: str
    since: str


@dataclass(frozen=True, slots=True)
class UpgradeStep:
    """What one release changes for someone upgrading through it."""

    release: Release
    changes: tuple[Change, ...]
    stage_changes: tuple[StageChange, ...]


def build_lifecycles(atlas: Atlas) -> dict[str, Lifecycle]:
    """Every feature id's lifecycle, keyed by id, in order of first appearance."""
    entries: dict[str, list[tuple[Release, Feature | Change]]] = defaultdict(list)
    for release in atlas.releases:
        for feature in release.features:
            entries[feature.id].append((release, feature))
    for release in atlas.releases:
        for change in release.changes:
            if change.kind in END_STAGES and change.id in entries:
                entries[change.id].append((release, change))
    lifecycles = {}
    for feature_id, appearances in entries.items():
        appearances.sort(key=lambda pair: pair[0].number)
        features = [item for _, item in appearances if isinstance(item, Feature)]
        latest = features[-1]
        record = atlas.records_by_id.get(feature_id)
        named = {atlas.record_of(item) for _, item in appearances}
        elsewhere = named.pop() if record is None and len(named) == 1 and None not in named else None
        lifecycles[feature_id] = Lifecycle(
            id=feature_id,
            title=record.name if record else latest.title,
            component=latest.component,
            topics=tuple(dict.fromkeys(topic for item in features for topic in item.topics)),
            stages=tuple(Stage(release.version, _stage_of(item)) for release, item in appearances),
            has_page=record is not None or (len(appearances) > 1 and elsewhere is None),
            record_page=elsewhere,
        )
    return lifecycles


@dataclass(frozen=True, slots=True)
class Appearance:
    """One release entry about a feature: a feature entry (its stage is its label), or a change. A deprecation or
    removal with the feature's own id ends its stages, as in a lifecycle; one with another id (the old function a
    module replaced) is only about it, like a breaking change."""

    release: Release
    item: Feature | Change
    feature_id: str

    @property
    def stage(self) -> str | None:
        """The stage this entry stands for, if any."""
        if isinstance(self.item, Feature):
            return self.item.stability
        return _stage_of(self.item) if self.item.kind in END_STAGES and self.item.id == self.feature_id else None


@dataclass(frozen=True)
class FeatureHistory:
    """A feature as a whole: its record, every release entry about it (oldest first), and its parts' histories.

    A feature id that several releases share but no record names yet has a history too, named after its latest entry.
    """

    record: FeatureRecord
    appearances: tuple[Appearance, ...]
    parts: tuple[FeatureHistory, ...] = ()
    recorded: bool = True

    @property
    def id(self) -> str:
        return self.record.id

    @cached_property
    def staged(self) -> tuple[Appearance, ...]:
        """The feature's own entries that give it a stage."""
        return tuple(a for a in self.appearances if a.stage)

    @cached_property
    def everything(self) -> tuple[Appearance, ...]:
        """Its own entries and its parts', oldest release first."""
        found = [*self.appearances, *(a for part in self.parts for a in part.everything)]
        return tuple(sorted(found, key=lambda a: a.release.number))

    @property
    def since(self) -> Appearance:
        """The first entry about the feature or one of its parts."""
        return self.everything[0]

    @property
    def latest(self) -> Appearance | None:
        """The feature's own latest staged entry."""
        return self.staged[-1] if self.staged else None

    def first_with(self, stages: Iterable[str]) -> Appearance | None:
        """The feature's own first entry at one of these stages."""
        wanted = set(stages)
        return next((a for a in self.staged if a.stage in wanted), None)

    @property
    def breaking(self) -> tuple[Appearance, ...]:
        """The backwards-incompatible changes that touched the feature or its parts."""
        return tuple(a for a in self.everything if isinstance(a.item, Change) and a.item.kind == "breaking")

    @cached_property
    def by_release(self) -> tuple[tuple[str, tuple[Appearance, ...]], ...]:
        """Its entries and its parts', grouped by release: each release with an entry and those entries, oldest first."""
        grouped: dict[str, list[Appearance]] = {}
        for appearance in self.everything:
            grouped.setdefault(appearance.release.version, []).append(appearance)
        return tuple((version, tuple(found)) for version, found in grouped.items())


def feature_histories(atlas: Atlas, lifecycles: dict[str, Lifecycle]) -> dict[str, FeatureHistory]:
    """Every feature with a page of its own: each record, and each id that several releases share without a record."""
    own: dict[str, list[Appearance]] = defaultdict(list)
    for release in atlas.releases:
        for item in release.entries:
            record_id = atlas.record_of(item)
            if record_id:
                own[record_id].append(Appearance(release, item, record_id))
    children: dict[str, list[str]] = defaultdict(list)
    for record in atlas.records:
        if record.part_of:
            children[record.part_of].append(record.id)

    def history(record: FeatureRecord) -> FeatureHistory:
        parts = tuple(history(atlas.records_by_id[child]) for child in children[record.id])
        return FeatureHistory(record, tuple(own[record.id]), parts)

    histories = {record.id: history(record) for record in atlas.records}
    for lifecycle in lifecycles.values():
        if lifecycle.has_page and lifecycle.id not in histories:
            appearances = []
            for stage in lifecycle.stages:
                release = atlas.release(stage.version)
                appearances.append(Appearance(release, release.feature(lifecycle.id) or release.change(lifecycle.id), lifecycle.id))
            record = FeatureRecord(lifecycle.id, lifecycle.title, "", lifecycle.topics)
            histories[lifecycle.id] = FeatureHistory(record, tuple(appearances), recorded=False)
    return histories


def _stage_of(item: Feature | Change) -> str:
    """The stage a feature or an ending change stands for."""
    return item.stability if isinstance(item, Feature) else END_STAGES[item.kind]


def stage_changes(atlas: Atlas, lifecycles: dict[str, Lifecycle]) -> dict[str, tuple[StageChange, ...]]:
    """For each release, the features whose stage differs from their previous appearance."""
    found: dict[str, list[StageChange]] = {release.version: [] for release in atlas.releases}
    for lifecycle in lifecycles.values():
        for previous, current in itertools.pairwise(lifecycle.stages):
            if previous.stage != current.stage:
                found[current.version].append(
                    StageChange(current.version, lifecycle.id, lifecycle.title, previous.stage, current.stage, previous.version)
                )
    return {version: tuple(items) for version, items in found.items()}


def upgrade_steps(atlas: Atlas, lifecycles: dict[str, Lifecycle]) -> tuple[UpgradeStep, ...]:
    """Per release (oldest first), what upgrading through it changes."""
    moved = stage_changes(atlas, lifecycles)
    return tuple(UpgradeStep(release, release.changes, moved[release.version]) for release in atlas.releases)


def upgrade_path(steps: tuple[UpgradeStep, ...], start: str, target: str) -> tuple[UpgradeStep, ...]:
    """The steps from release `start` (exclusive) up to release `target` (inclusive)."""
    low, high = Version(start), Version(target)
    if low >= high:
        raise ValueError(f"an upgrade goes from an older release to a newer one, not {start} -> {target}")
    return tuple(step for step in steps if low < step.release.number <= high)


def stage_order(atlas: Atlas) -> tuple[str, ...]:
    """Every stage a lifecycle can show, most stable first: the label words, then the end stages."""
    return (*atlas.labels.order, *END_STAGES.values())


def stages_shown(atlas: Atlas, lifecycles: Iterable[Lifecycle]) -> list[str]:
    """The stages these lifecycles reach, in stage order: what a grid's legend and stage filter list."""
    reached = {stage.stage for lifecycle in lifecycles for stage in lifecycle.stages}
    return [stage for stage in stage_order(atlas) if stage in reached]


def deprecated_in(atlas: Atlas) -> dict[str, str]:
    """For each feature or change id that a release deprecated, the first release that did."""
    found: dict[str, str] = {}
    for release in atlas.releases:
        for change in release.changes:
            if change.kind == "deprecation":
                found.setdefault(change.id, release.version)
    return found


def topic_lifecycles(atlas: Atlas, lifecycles: dict[str, Lifecycle], topic_id: str) -> list[Lifecycle]:
    """The lifecycles on one topic: latest release first, then by stage, then by title."""
    order = stage_order(atlas)
    chosen = [lc for lc in lifecycles.values() if topic_id in lc.topics]
    by_stage = sorted(chosen, key=lambda lc: (order.index(lc.latest.stage), lc.title.lower()))
    return sorted(by_stage, key=lambda lc: Version(lc.latest.version), reverse=True)


def topic_entries(atlas: Atlas, topic_id: str) -> list[tuple[Release, list[Feature], list[Change]]]:
    """Per release (newest first), the features and changes on one topic; releases with none are left out."""
    grouped = []
    for release in atlas.newest_first:
        features = [f for f in release.features if topic_id in f.topics]
        changes = [c for c in release.changes if topic_id in c.topics]
        if features or changes:
            grouped.append((release, features, changes))
    return grouped


@dataclass(frozen=True, slots=True)
class TopicSummary:
    """How many of one release's features (per stage) and changes (per kind) are about one topic (None: about none)."""

    topic: str | None
    stages: dict[str, int]
    kinds: dict[str, int]


def release_overview(atlas: Atlas, release: Release) -> list[TopicSummary]:
    """A release's entries counted by topic, in the topics' order, then those about no topic: a page's table of contents
    by subject. An entry about two topics counts in both."""
    order = stage_order(atlas)
    summaries = []
    for topic_id in [*(topic.id for topic in atlas.topics), None]:
        about = [e for e in release.entries if (topic_id in e.topics if topic_id else not e.topics)]
        features = [e.stability for e in about if isinstance(e, Feature)]
        kinds = [e.kind for e in about if isinstance(e, Change)]
        if about:
            stages = {stage: features.count(stage) for stage in order if stage in features}
            summaries.append(TopicSummary(topic_id, stages, {kind: kinds.count(kind) for kind in CHANGE_KINDS if kind in kinds}))
    return summaries


def missing_releases(atlas: Atlas) -> list[str]:
    """Feature releases between the first and the last covered one that have no data file (e.g. 1.5 between 1.4 and 1.6)."""
    covered = {release.number.release[:2] for release in atlas.releases}
    missing = []
    for major in sorted({major for major, _ in covered}):
        newest = max(minor for m, minor in covered if m == major)
        missing += [f"{major}.{minor}" for minor in range(newest + 1) if (major, minor) not in covered]
    return missing


def release_columns(atlas: Atlas, since: Version | None = None) -> list[str]:
    """Every feature release from the first covered one (or `since`) to the newest, covered or not, oldest first."""
    versions = [release.version for release in atlas.releases] + missing_releases(atlas)
    return sorted((v for v in versions if since is None or Version(v) >= since), key=Version)


def companion_libraries(atlas: Atlas) -> list[str]:
    """Every companion library the data pairs with a release, in order of first mention."""
    return list(dict.fromkeys(c.library for release in atlas.releases for c in release.companions))


def companion_lookup(atlas: Atlas) -> dict[str, dict[str, list[str]]]:
    """Per library, from each of its versions (as the tables print them) to the torch releases it goes with, newest first."""
    table: dict[str, dict[str, list[str]]] = {library: {} for library in companion_libraries(atlas)}
    for release in atlas.newest_first:
        for companion in release.companions:
            table[companion.library].setdefault(companion.version, []).append(release.version)
    return table


@dataclass(frozen=True, slots=True)
class Support:
    """One release with binaries for a platform version, and whether its sources call those binaries experimental."""

    release: str
    experimental: bool = False


def _platform_key(version: str) -> tuple[Version, bool]:
    """Numeric order, a free-threaded Python ("3.13t") right after its regular build."""
    return Version(version.removesuffix("t")), version.endswith("t")


def platform_lookup(atlas: Atlas, platform: str) -> dict[str, list[Support]]:
    """From each Python, CUDA or ROCm version to the releases with binaries for it, counting patch releases and
    experimental builds (marked); a free-threaded Python is its own version, "3.13t" (sorted numerically)."""
    table: dict[str, dict[str, Support]] = defaultdict(dict)
    for release in atlas.releases:
        fact = getattr(release, platform)
        patched = [v for patch in release.patches for v in getattr(patch, platform) or ()]
        found = [*(fact.versions if fact else ()), *patched, *(f"{v}t" for v in (fact.free_threaded if fact else ()))]
        for version in found:
            table[version].setdefault(release.version, Support(release.version))
        for version in fact.experimental if fact else ():
            table[version].setdefault(release.version, Support(release.version, experimental=True))
    return {
        version: sorted(table[version].values(), key=lambda support: Version(support.release))
        for version in sorted(table, key=_platform_key)
    }
