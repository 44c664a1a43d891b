"""Load every data file, validate it, and build the typed model, or report every mistake at once."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path

from packaging.version import Version

from .markup import markup_problem
from .model import CORE_COMPONENT, Atlas, Change, Example, Feature, Release, Source, Sourced, Topic
from .permalinks import registry_errors
from .schema import schema_errors
from .yamlfile import DataError, DataErrors, FieldPath, YamlDocument, read_yaml

RESERVED_IDS = frozenset(
    {"release-facts", "highlights", "features", "changes", "sources", "platforms"}
    | {f"{level}-features" for level in ("stable", "beta", "prototype", "experimental", "unlabeled")}
)
_TEXT_FIELDS = ("title", "summary", "details", "caption", "intro")


@dataclass(frozen=True, slots=True)
class _FileReport:
    """Collects the errors of one parsed file, locating each by its field path."""

    name: str
    document: YamlDocument
    errors: list[DataError]

    def error(self, path: FieldPath, message: str) -> None:
        """Record a mistake at the field `path`."""
        self.errors.append(DataError(self.name, message, self.document.line_of(path), path))


def load_atlas(data_dir: Path) -> Atlas:
    """Read data/topics.yaml and data/releases/*.yaml; raise DataErrors listing every mistake."""
    errors: list[DataError] = []
    topics = _load_topics(data_dir, errors)
    topic_ids = {topic.id for topic in topics}
    releases: dict[Version, tuple[str, Release]] = {}
    release_dir = data_dir / "releases"
    for path in sorted(release_dir.iterdir()):
        name = _display_name(path, data_dir)
        if path.suffix == ".yml":
            errors.append(DataError(name, "release files end in .yaml; rename this file"))
            continue
        if path.suffix != ".yaml":
            continue
        release = _load_release(path, name, topic_ids, errors)
        if release is None:
            continue
        if release.key in releases:
            other = releases[release.key][0]
            message = f"version {release.version} is already defined by {other}; keep one file per release"
            errors.append(DataError(name, message, None, ("version",)))
            continue
        releases[release.key] = (name, release)
    if errors:
        raise DataErrors(errors)
    ordered = tuple(release for _, (_, release) in sorted(releases.items()))
    atlas = Atlas(releases=ordered, topics=tuple(topics))
    broken_links = registry_errors(atlas, data_dir)
    if broken_links:
        raise DataErrors(broken_links)
    return atlas


def _display_name(path: Path, data_dir: Path) -> str:
    """A path as a contributor would type it, relative to the project."""
    return str(path.relative_to(data_dir.parent))


def _load_topics(data_dir: Path, errors: list[DataError]) -> list[Topic]:
    """Read and validate data/topics.yaml."""
    path = data_dir / "topics.yaml"
    name = _display_name(path, data_dir)
    document = _read_valid(path, name, "topics.schema.json", errors)
    if document is None:
        return []
    raw_topics = document.data["topics"]
    report = _FileReport(name, document, errors)
    _check_unique([t["id"] for t in raw_topics], ("topics",), "topic id", report)
    _check_text(report)
    return [Topic(id=t["id"], title=t["title"], intro=t["intro"]) for t in raw_topics]


def _read_valid(path: Path, name: str, schema_name: str, errors: list[DataError]) -> YamlDocument | None:
    """Parse a file and check it against its schema; None when it cannot be used."""
    document, read_errors = read_yaml(path, name)
    errors.extend(read_errors)
    if document is None:
        return None
    found = schema_errors(document, schema_name, name)
    errors.extend(found)
    return None if found or read_errors else document


def _load_release(path: Path, name: str, topic_ids: set[str], errors: list[DataError]) -> Release | None:
    """Read, validate and convert one release file."""
    document = _read_valid(path, name, "release.schema.json", errors)
    if document is None:
        return None
    before = len(errors)
    version = document.data["version"]
    report = _FileReport(name, document, errors)
    if path.stem != version:
        report.error(("version",), f'the file name says {path.stem} but the version is "{version}"; name the file {version}.yaml')
    _check_date(report)
    _check_ids(report)
    _check_sources(report)
    _check_topics(report, topic_ids)
    _check_text(report)
    return None if len(errors) > before else _build_release(document.data)


def _check_date(report: _FileReport) -> None:
    """The release date must exist in the calendar."""
    text = report.document.data["released"]["date"]
    try:
        date.fromisoformat(text)
    except ValueError:
        report.error(("released", "date"), f"{text} is not a real calendar date")


def _check_ids(report: _FileReport) -> None:
    """Feature and change ids (and their aliases) are unique in a release and avoid section anchors."""
    data = report.document.data
    entries = [(kind, index, item) for kind in ("features", "changes") for index, item in enumerate(data.get(kind, []))]
    seen: dict[str, FieldPath] = {}
    for kind, index, item in entries:
        for position, item_id in enumerate([item["id"], *item.get("aliases", [])]):
            path: FieldPath = (kind, index, "id") if position == 0 else (kind, index, "aliases", position - 1)
            if item_id in RESERVED_IDS:
                report.error(path, f"the id '{item_id}' is reserved for a section of the release page; choose another")
            elif item_id in seen:
                first = report.document.line_of(seen[item_id])
                report.error(path, f"the id '{item_id}' is used twice in this release (first at line {first})")
            else:
                seen[item_id] = path
    feature_ids = {item["id"] for kind, _, item in entries if kind == "features"}
    for index, highlight in enumerate(data.get("highlights", [])):
        if highlight not in feature_ids:
            report.error(("highlights", index), f"'{highlight}' is not the id of a feature in this release")


def _check_sources(report: _FileReport) -> None:
    """Every cited URL is listed once in the release's `sources`, which gives it a title."""
    data = report.document.data
    listed = [source["url"] for source in data["sources"]]
    _check_unique(listed, ("sources",), "source URL", report)
    for path, url in _citations(data):
        if url not in listed:
            report.error(path, f"the source {url} is not listed in the release's `sources` (add it there with a title)")


def _citations(data: dict) -> list[tuple[FieldPath, str]]:
    """Every (path, URL) a release file cites as a source."""
    facts = ("released", "commits", "contributors", "python", "cuda", "macos")
    cited = [((key, "source"), data[key]["source"]) for key in facts if key in data]
    for kind in ("features", "changes"):
        for index, item in enumerate(data.get(kind, [])):
            cited += [((kind, index, "sources", n), url) for n, url in enumerate(item["sources"])]
    return cited


def _check_topics(report: _FileReport, topic_ids: set[str]) -> None:
    """Every topic a feature or change names is defined in data/topics.yaml."""
    known = ", ".join(sorted(topic_ids))
    for kind in ("features", "changes"):
        for index, item in enumerate(report.document.data.get(kind, [])):
            for position, topic in enumerate(item.get("topics", [])):
                if topic_ids and topic not in topic_ids:
                    report.error(
                        (kind, index, "topics", position), f"unknown topic '{topic}'; expected one of {known} (see data/topics.yaml)"
                    )


def _check_text(report: _FileReport) -> None:
    """Text fields may hold inline Markdown but no raw HTML or unsafe links."""
    for path, text in _text_fields(report.document.data, ()):
        problem = markup_problem(text)
        if problem:
            report.error(path, problem)


def _text_fields(value: object, path: FieldPath) -> list[tuple[FieldPath, str]]:
    """Every prose field (title, summary, details, caption, intro) anywhere in a document."""
    if isinstance(value, dict):
        found = [((*path, key), text) for key, text in value.items() if key in _TEXT_FIELDS and isinstance(text, str)]
        for key, child in value.items():
            found += _text_fields(child, (*path, key))
        return found
    if isinstance(value, list):
        return [item for index, child in enumerate(value) for item in _text_fields(child, (*path, index))]
    return []


def _check_unique(values: list[str], path: FieldPath, what: str, report: _FileReport) -> None:
    """Report every value that repeats an earlier one in the list at `path`."""
    seen: set[str] = set()
    for index, value in enumerate(values):
        if value in seen:
            report.error((*path, index), f"the {what} '{value}' is listed twice")
        seen.add(value)


def _sourced(raw: dict | None, key: str) -> Sourced | None:
    """A {value, source} fact from its YAML mapping."""
    if raw is None:
        return None
    return Sourced(value=raw[key], source=raw["source"], more_than=raw.get("more_than", False))


def _build_release(data: dict) -> Release:
    """Convert validated release data into the typed model."""
    return Release(
        version=data["version"],
        title=data.get("title", ""),
        summary=data["summary"],
        released=_sourced(data["released"], "date"),
        commits=_sourced(data.get("commits"), "count"),
        contributors=_sourced(data.get("contributors"), "count"),
        python=_sourced(data.get("python"), "versions"),
        cuda=_sourced(data.get("cuda"), "versions"),
        macos=_sourced(data.get("macos"), "minimum"),
        highlights=tuple(data.get("highlights", [])),
        sources=tuple(Source(url=s["url"], title=s["title"]) for s in data["sources"]),
        features=tuple(_build_feature(f) for f in data["features"]),
        changes=tuple(_build_change(c) for c in data.get("changes", [])),
    )


def _build_feature(raw: dict) -> Feature:
    """A Feature from its validated mapping."""
    example = raw.get("example")
    return Feature(
        id=raw["id"],
        title=raw["title"],
        stability=raw["stability"],
        summary=raw["summary"],
        sources=tuple(raw["sources"]),
        component=raw.get("component", CORE_COMPONENT),
        topics=tuple(raw.get("topics", [])),
        details=raw.get("details", ""),
        example=Example(code=example["code"], caption=example.get("caption", "")) if example else None,
        aliases=tuple(raw.get("aliases", [])),
    )


def _build_change(raw: dict) -> Change:
    """A Change from its validated mapping."""
    return Change(
        id=raw["id"],
        kind=raw["kind"],
        title=raw["title"],
        summary=raw["summary"],
        sources=tuple(raw["sources"]),
        component=raw.get("component", CORE_COMPONENT),
        topics=tuple(raw.get("topics", [])),
        before=raw.get("before", ""),
        after=raw.get("after", ""),
        aliases=tuple(raw.get("aliases", [])),
    )
