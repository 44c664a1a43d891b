"""Load every data file, validate it, and build the typed model, or report every mistake at once."""

from __future__ import annotations

import functools
import hashlib
import itertools
import re
from dataclasses import dataclass, fields, is_dataclass, replace
from datetime import date
from pathlib import Path
from types import UnionType
from typing import TypeVar, Union, get_args, get_origin, get_type_hints

from packaging.version import Version

from macros.data import markup
from macros.data.markup import MAX_SYNTAX_PER_FIELD, MAX_SYNTAX_PER_FILE, markup_problem, syntax_count
from macros.data.model import Atlas, BlockResult, DistinctPair, ErrorPage, FeatureRecord, Labels, LabelScheme, Redirect, Release, Topic
from macros.data.remembered import Remembered, remembered_or_new
from macros.data.schema import schema_errors
from macros.data.yamlfile import DataError, DataErrors, FieldPath, YamlDocument, parse_yaml, read_data_bytes, read_yaml

PLATFORM_FACTS = ("python", "cuda", "rocm", "macos", "patches", "companions")
# Pages whose content changes as releases come and go: a platform fact cited to one of them can silently stop being true.
_MOVING_PAGE = re.compile(r"/(?:blob|tree)/(?:main|master)/|pytorch\.org/get-started/(?:previous-versions|locally)")
SECTION_IDS = frozenset(
    {"overview", "release-facts", "highlights", "features", "changes", "sources", "platforms", "patches", "stage-changes"}
    | {"changes-breaking", "changes-deprecation", "changes-removal"}
)
# A site path of at most 8 segments, each a short name that neither is nor starts with a dot (no `..`, no hidden file).
_SITE_PATH = re.compile(r"/(?:[a-z0-9_-][a-z0-9._-]{0,63}/){0,8}")
_REDIRECT_EXAMPLE = '"/releases/1.9/": "/releases/1.10/"'
DRAFT_TODO = "TODO(new-release)"  # what `make new-release` leaves in a draft for a person; the build refuses it
_TEXT_FIELDS = ("title", "summary", "details", "caption", "intro", "note", "meaning", "name", "description", "cause", "remedy", "text")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class _FileReport:
    """Collects the errors of one parsed file, locating each by its field path."""

    name: str
    document: YamlDocument
    errors: list[DataError]

    def error(self, path: FieldPath, message: str) -> None:
        """Record a mistake at the field `path`."""
        self.errors.append(DataError(self.name, message, self.document.line_of(path), path))


def load_atlas(data_dir: Path, remembered: Remembered | None = None) -> Atlas:
    """Read data/topics.yaml, labels.yaml, distinct.yaml, redirects.yaml, features.yaml, errors.yaml and releases/*.yaml;
    raise DataErrors listing every mistake. With `remembered` (handed down by `make serve`), a file whose bytes are
    unchanged since an earlier read is not parsed again.

    Whether the generated site still serves every published URL is checked after generation (`registry`).
    """
    remembered = remembered_or_new(remembered)
    errors: list[DataError] = []
    topics = _load_topics(data_dir, errors, remembered)
    labels = _load_labels(data_dir, errors, remembered)
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
        release = _load_release(path, name, topic_ids, labels, errors, data_dir, remembered)
        if release is None:
            continue
        if release.number in releases:
            other = releases[release.number][0]
            message = f"version {release.version} is already defined by {other}; keep one file per release"
            errors.append(DataError(name, message, None, ("version",)))
            continue
        releases[release.number] = (name, release)
    if errors:
        raise DataErrors(errors)
    ordered = tuple(_with_results(release, data_dir, errors, remembered) for _, (_, release) in sorted(releases.items()))
    distinct = _load_distinct(data_dir, {f.id for release in ordered for f in release.features}, errors, remembered)
    redirects = _load_redirects(data_dir, errors)
    records = _load_records(data_dir, topic_ids, errors, remembered)
    explained = _load_errors(data_dir, errors, remembered)
    atlas = Atlas(
        releases=ordered, topics=tuple(topics), labels=labels, distinct=distinct, redirects=redirects, records=records, errors=explained
    )
    _check_record_use(atlas, {r.version: n for n, r in releases.values()}, data_dir, errors, remembered)
    if errors:
        raise DataErrors(errors)
    return atlas


def _load_errors(data_dir: Path, errors: list[DataError], remembered: Remembered) -> tuple[ErrorPage, ...]:
    """Read data/errors.yaml, the errors the site explains, if it exists."""
    name, document = _read_optional(data_dir / "errors.yaml", "errors.schema.json", errors, data_dir, remembered)
    if document is None:
        return ()
    report = _FileReport(name, document, errors)
    _check_unique([e["id"] for e in document.data["errors"]], ("errors",), "error id", report)
    _check_text(report)
    return tuple(structure(ErrorPage, raw) for raw in document.data["errors"])


def _load_records(data_dir: Path, topic_ids: set[str], errors: list[DataError], remembered: Remembered) -> tuple[FeatureRecord, ...]:
    """Read data/features.yaml, the feature records, if it exists: unique ids, known topics, and parts of records that
    exist, with no feature a part of itself however many steps away."""
    name, document = _read_optional(data_dir / "features.yaml", "features.schema.json", errors, data_dir, remembered)
    if document is None:
        return ()
    report = _FileReport(name, document, errors)
    raw_records = document.data["features"]
    _check_unique([r["id"] for r in raw_records], ("features",), "feature id", report)
    _check_text(report)
    parents = {r["id"]: r.get("part_of") for r in raw_records}
    in_reported_cycle: set[str] = set()
    for index, raw in enumerate(raw_records):
        for position, topic in enumerate(raw.get("topics", [])):
            if topic not in topic_ids:
                report.error(("features", index, "topics", position), f"unknown topic '{topic}' (see data/topics.yaml)")
        parent, seen = raw.get("part_of"), {raw["id"]}
        if parent is not None and parent not in parents:
            report.error(("features", index, "part_of"), f"'{parent}' is not the id of a feature record in this file")
            continue
        while parent is not None and parent not in seen:
            seen.add(parent)
            parent = parents.get(parent)
        if parent == raw["id"] and raw["id"] not in in_reported_cycle:  # one error per cycle, at its first record
            in_reported_cycle |= seen
            report.error(("features", index, "part_of"), f"'{raw['id']}' would be a part of itself through '{raw['part_of']}'")
    return tuple(structure(FeatureRecord, raw) for raw in raw_records)


def _check_record_use(atlas: Atlas, files: dict[str, str], data_dir: Path, errors: list[DataError], remembered: Remembered) -> None:
    """Every entry's `feature` names a record of data/features.yaml (`files`: each release's file, by version), and
    every record has an entry about it or about one of its parts: a record with none would have no history."""
    used: set[str] = set()
    for release in atlas.releases:
        name = files[release.version]
        for kind, entries in (("features", release.features), ("changes", release.changes)):
            for index, entry in enumerate(entries):
                if entry.feature is not None and entry.feature not in atlas.records_by_id:
                    message = f"'{entry.feature}' is not the id of a feature record in data/features.yaml"
                    errors.append(_located(name, "release.schema.json", (kind, index, "feature"), message, remembered))
                record = atlas.records_by_id.get(atlas.record_of(entry) or "")
                while record is not None and record.id not in used:  # the record and every feature it is a part of
                    used.add(record.id)
                    record = atlas.records_by_id.get(record.part_of or "")
    name = _display_name(data_dir / "features.yaml", data_dir)
    for index, record in enumerate(atlas.records):
        if record.id not in used:
            message = f"no release entry is about '{record.id}' or its parts: give one `feature: {record.id}`, or remove the record"
            errors.append(_located(name, "features.schema.json", ("features", index), message, remembered))


def _located(name: str, schema_name: str, path: FieldPath, message: str, remembered: Remembered) -> DataError:
    """An error at a field of a file this load has read, with the field's line."""
    document, _ = remembered.last(("parsed", name, schema_name)) or (None, ())
    return DataError(name, message, document.line_of(path) if document else None, path)


def _with_results(release: Release, data_dir: Path, errors: list[DataError], remembered: Remembered) -> Release:
    """The release with the code-block results of data/examples/<version>.yaml (written by `make examples`), if any."""
    name, document = _read_optional(data_dir / "examples" / f"{release.version}.yaml", "examples.schema.json", errors, data_dir, remembered)
    if document is None:
        return release
    if document.data["release"] != release.version:
        message = f'the file is for release "{document.data["release"]}"; name it after its release'
        errors.append(DataError(name, message, None, ("release",)))
    return replace(release, results=tuple(structure(BlockResult, raw) for raw in document.data["blocks"]))


def _load_redirects(data_dir: Path, errors: list[DataError]) -> tuple[Redirect, ...]:
    """Read data/redirects.yaml, the moved pages (old site path: new site path), if it exists."""
    path = data_dir / "redirects.yaml"
    if not _present(path):
        return ()
    name = _display_name(path, data_dir)
    document, read_errors = read_yaml(path, name, data_dir)
    errors.extend(read_errors)
    if document is None:
        return ()
    if not isinstance(document.data, dict):
        errors.append(DataError(name, f"expected a mapping of old to new page paths, such as {_REDIRECT_EXAMPLE}", 1))
        return ()
    redirects = []
    for old, new in document.data.items():
        line = document.line_of((old,))
        if all(isinstance(side, str) and _SITE_PATH.fullmatch(side) for side in (old, new)):
            redirects.append(Redirect(old, new, line))
        else:
            message = f"expected site paths on both sides, such as {_REDIRECT_EXAMPLE}; found {old!r}: {new!r}"
            errors.append(DataError(name, message, line))
    return tuple(redirects)


def _read_optional(
    path: Path, schema_name: str, errors: list[DataError], data_dir: Path, remembered: Remembered
) -> tuple[str, YamlDocument | None]:
    """An optional data file's display name, and its document when it is there and valid (see `_read_valid`)."""
    name = _display_name(path, data_dir)
    return name, _read_valid(path, name, schema_name, errors, data_dir, remembered) if _present(path) else None


def _present(path: Path) -> bool:
    """Whether an optional data file is there (a broken link counts, so that reading it reports the problem)."""
    return path.exists() or path.is_symlink()


def _display_name(path: Path, data_dir: Path) -> str:
    """A path as a contributor would type it, relative to the project."""
    return str(path.relative_to(data_dir.parent))


def _load_topics(data_dir: Path, errors: list[DataError], remembered: Remembered) -> list[Topic]:
    """Read and validate data/topics.yaml."""
    path = data_dir / "topics.yaml"
    name = _display_name(path, data_dir)
    document = _read_valid(path, name, "topics.schema.json", errors, data_dir, remembered)
    if document is None:
        return []
    raw_topics = document.data["topics"]
    report = _FileReport(name, document, errors)
    _check_unique([t["id"] for t in raw_topics], ("topics",), "topic id", report)
    _check_text(report)
    return [structure(Topic, raw) for raw in raw_topics]


def _load_labels(data_dir: Path, errors: list[DataError], remembered: Remembered) -> Labels:
    """Read and validate data/labels.yaml: the stability words of each era of announcements."""
    path = data_dir / "labels.yaml"
    name = _display_name(path, data_dir)
    document = _read_valid(path, name, "labels.schema.json", errors, data_dir, remembered)
    if document is None:
        return Labels(schemes=())
    report = _FileReport(name, document, errors)
    raw_schemes = document.data["schemes"]
    _check_unique([s["id"] for s in raw_schemes], ("schemes",), "scheme id", report)
    _check_text(report)
    schemes = tuple(structure(LabelScheme, raw) for raw in raw_schemes)
    for index, (older, newer) in enumerate(itertools.pairwise(schemes)):
        if not older.last or Version(older.last) >= Version(newer.first):
            report.error(("schemes", index, "last"), f"scheme '{older.id}' must end before '{newer.id}' starts at {newer.first}")
    return Labels(schemes=schemes)


def _load_distinct(data_dir: Path, feature_ids: set[str], errors: list[DataError], remembered: Remembered) -> tuple[DistinctPair, ...]:
    """Read data/distinct.yaml, the reviewed look-alike ids, if it exists; each id must still name a feature."""
    name, document = _read_optional(data_dir / "distinct.yaml", "distinct.schema.json", errors, data_dir, remembered)
    if document is None:
        return ()
    report = _FileReport(name, document, errors)
    for index, entry in enumerate(document.data["distinct"]):
        for position, feature_id in enumerate(entry["ids"]):
            if feature_id not in feature_ids:
                message = f"'{feature_id}' is not the id of any feature; remove or correct the entry"
                report.error(("distinct", index, "ids", position), message)
    return tuple(structure(DistinctPair, raw) for raw in document.data["distinct"])


def _read_valid(
    path: Path, name: str, schema_name: str, errors: list[DataError], data_dir: Path, remembered: Remembered
) -> YamlDocument | None:
    """Parse a file of the folder `data_dir` and check it against its schema; None when it cannot be used."""
    _, document = _parsed(path, name, schema_name, errors, data_dir, remembered)
    return document


def _parsed(
    path: Path, name: str, schema_name: str, errors: list[DataError], data_dir: Path, remembered: Remembered
) -> tuple[bytes, YamlDocument | None]:
    """The digest of a file's bytes and its document when it can be used. A file whose bytes are the same as when it
    was last read is not parsed again: a preview rebuild after a one-file edit reads one file. Nothing downstream changes
    a parsed document."""
    raw, read_errors = read_data_bytes(path, name, data_dir)
    if raw is None:
        errors.extend(read_errors)
        return b"", None

    def parse() -> tuple[YamlDocument | None, tuple[DataError, ...]]:
        document, found = parse_yaml(raw, name)
        if document is not None and not found:  # a character or size refused while reading comes first
            found = schema_errors(document, schema_name, name)
        return (None if found else document), tuple(found)

    digest = hashlib.blake2b(raw, digest_size=16).digest()
    document, found = remembered.get(("parsed", name, schema_name), digest, parse)
    errors.extend(found)
    return digest, document


def _load_release(
    path: Path, name: str, topic_ids: set[str], labels: Labels, errors: list[DataError], data_dir: Path, remembered: Remembered
) -> Release | None:
    """Read, validate and convert one release file; one read before, checked against the same topics and labels, is reused."""
    digest, document = _parsed(path, name, "release.schema.json", errors, data_dir, remembered)
    if document is None:
        return None

    def convert() -> tuple[Release | None, tuple[DataError, ...]]:
        found: list[DataError] = []
        return _convert_release(document, name, path.stem, topic_ids, labels, found), tuple(found)

    release, found = remembered.get(("release", name), (digest, path.stem, frozenset(topic_ids), labels), convert)
    errors.extend(found)
    return release


def _convert_release(
    document: YamlDocument, name: str, stem: str, topic_ids: set[str], labels: Labels, errors: list[DataError]
) -> Release | None:
    """Check one parsed release file beyond its schema and convert it into the model."""
    before = len(errors)
    version = document.data["version"]
    report = _FileReport(name, document, errors)
    if stem != version:
        report.error(("version",), f'the file name says {stem} but the version is "{version}"; name the file {version}.yaml')
    _check_todos(report)
    _check_date(report)
    _check_ids(report, _reserved_ids(labels))
    _check_setups(report)
    _check_sources(report)
    _check_topics(report, topic_ids)
    _check_labels(report, labels)
    _check_text(report)
    return None if len(errors) > before else structure(Release, document.data)


def _check_todos(report: _FileReport) -> None:
    """A draft written by `make new-release` is published only once a person has replaced each of its to-dos."""
    for path, text in _strings(report.document.data, ()):
        if DRAFT_TODO in text:
            report.error(path, f"a to-do of the draft that `make new-release` wrote: {text.partition(': ')[2] or text}")


def _strings(value: object, path: FieldPath) -> list[tuple[FieldPath, str]]:
    """Every string anywhere in a document, with its path."""
    if isinstance(value, dict):
        return [item for key, child in value.items() for item in _strings(child, (*path, key))]
    if isinstance(value, list):
        return [item for index, child in enumerate(value) for item in _strings(child, (*path, index))]
    return [(path, value)] if isinstance(value, str) else []


def _check_date(report: _FileReport) -> None:
    """The release date must exist in the calendar."""
    text = report.document.data["released"]["date"]
    try:
        date.fromisoformat(text)
    except ValueError:
        report.error(("released", "date"), f"{text} is not a real calendar date")


def _check_labels(report: _FileReport, labels: Labels) -> None:
    """Every feature carries a word of the labeling scheme its release used, or Unlabeled."""
    version = report.document.data["version"]
    scheme = labels.scheme_for(version)
    allowed = [label.name for label in scheme.labels] if scheme else []
    allowed.append(labels.unlabeled.name)
    era = f"PyTorch {version} announcements use " + (f"the scheme '{scheme.title}'" if scheme else "no scheme in data/labels.yaml")
    for index, feature in enumerate(report.document.data["features"]):
        if feature["stability"] not in allowed:
            found = feature["stability"]
            report.error(("features", index, "stability"), f"expected one of {', '.join(allowed)}; found {found!r} ({era})")


def _reserved_ids(labels: Labels) -> frozenset[str]:
    """The anchors of a release page's own sections, which no feature or change may take."""
    return SECTION_IDS | {f"{name.lower()}-features" for name in labels.order}


def _check_ids(report: _FileReport, reserved: frozenset[str]) -> None:
    """Feature and change ids (and their aliases) are unique in a release and avoid section anchors."""
    data = report.document.data
    entries = [(kind, index, item) for kind in ("features", "changes") for index, item in enumerate(data.get(kind, []))]
    seen: dict[str, FieldPath] = {}
    for kind, index, item in entries:
        for position, item_id in enumerate([item["id"], *item.get("aliases", [])]):
            path: FieldPath = (kind, index, "id") if position == 0 else (kind, index, "aliases", position - 1)
            if item_id in reserved:
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


def _check_setups(report: _FileReport) -> None:
    """Setup ids are unique, every block's `setup` names one, and every setup is used."""
    data = report.document.data
    declared = [setup["id"] for setup in data.get("setups", [])]
    _check_unique(declared, ("setups",), "setup id", report)
    used = set()
    for kind in ("features", "changes"):
        for index, item in enumerate(data.get(kind, [])):
            path: FieldPath = (kind, index, "example", "setup") if kind == "features" else (kind, index, "setup")
            name = (item.get("example") or {}).get("setup") if kind == "features" else item.get("setup")
            if name is None:
                continue
            used.add(name)
            if name not in declared:
                report.error(path, f"'{name}' is not the id of one of this release's `setups`")
    for index, name in enumerate(declared):
        if name not in used:
            report.error(("setups", index, "id"), f"the setup '{name}' is used by no block of this release; remove it")


def _check_sources(report: _FileReport) -> None:
    """Every cited URL is listed once in the release's `sources`, which gives it a title; platform facts cite pages that do not move."""
    data = report.document.data
    listed = [source["url"] for source in data["sources"]]
    _check_unique(listed, ("sources",), "source URL", report)
    for path, url in _citations(data):
        if url not in listed:
            report.error(path, f"the source {url} is not listed in the release's `sources` (add it there with a title)")
        if path[0] in PLATFORM_FACTS and _MOVING_PAGE.search(url):
            message = (
                f"{url} changes over time; cite a platform fact with a page that does not move, such as a commit or tag "
                "permalink (https://github.com/pytorch/pytorch/blob/<commit>/RELEASE.md) or the release's own notes"
            )
            report.error(path, message)


def _citations(data: dict) -> list[tuple[FieldPath, str]]:
    """Every (path, URL) a release file cites as a source."""
    facts = ("released", "commits", "contributors", "python", "cuda", "rocm", "macos")
    cited = [((key, "source"), data[key]["source"]) for key in facts if key in data]
    for key in ("patches", "fixes", "companions"):
        cited += [((key, index, "source"), entry["source"]) for index, entry in enumerate(data.get(key, []))]
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
    """Text fields may hold inline Markdown but no raw HTML or unsafe links, and only so much syntax (see markup.py)."""
    in_file = 0
    for path, text in _text_fields(report.document.data, ()):
        syntax = syntax_count(text)
        in_file += syntax
        if syntax > MAX_SYNTAX_PER_FIELD:
            shown = " ".join(sorted(markup.SYNTAX_CHARACTERS))
            limit = f"a field may have at most {MAX_SYNTAX_PER_FIELD:,}"
            report.error(path, f"this text has {syntax:,} characters of Markdown or HTML syntax ({shown}); {limit}")
            return
        if in_file > MAX_SYNTAX_PER_FILE:
            message = f"the text fields of this file hold more than {MAX_SYNTAX_PER_FILE:,} characters of Markdown or HTML syntax"
            report.error(path, message)
            return
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


def structure(cls: type[T], raw: dict) -> T:
    """A model object from its validated mapping: YAML keys are the dataclass field names."""
    return cls(**{name: _convert(hint, raw[name]) for name, hint in _field_types(cls) if name in raw})


@functools.cache
def _field_types(cls: type) -> tuple[tuple[str, object], ...]:
    """Each field of a model class with its declared type, resolved once per class."""
    hints = get_type_hints(cls)
    return tuple((item.name, hints[item.name]) for item in fields(cls))


def _convert(hint: object, value: object) -> object:
    """One validated YAML value as the type its field declares."""
    if get_origin(hint) in (UnionType, Union):  # `X | None`: the value is present, so it is an X
        hint = next(arg for arg in get_args(hint) if arg is not type(None))
    if get_origin(hint) is tuple:
        return tuple(_convert(get_args(hint)[0], item) for item in value)
    if is_dataclass(hint):
        return structure(hint, value)
    return value
