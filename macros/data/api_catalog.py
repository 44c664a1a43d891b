"""The measured API index (data/api/index.json, written by `make api`) as the site reads it: when each public name of
torch was there, what it is, and what each release added and removed.

Versions in the index are positions in its `releases` list; a name's `v` holds intervals [since, removed, since
again, ...] of those positions (see tools/api/index.py). A release the index has no measurement for is a gap: what
the site says about a name never rests on one (`ApiCatalog.gaps`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from macros.data.remembered import Remembered, remembered_or_new
from macros.data.schema import schema_errors
from macros.data.yamlfile import DataError, DataErrors, YamlDocument, read_data_bytes

INDEX_NAME = "index.json"
SCHEMA_NAME = "api-index.schema.json"
MAX_INDEX_BYTES = 16_000_000
MODULE = "module"
CLASS = "class"


@dataclass(frozen=True, slots=True)
class Parameter:
    """A parameter that has a history: the releases it was there (None: in every release with a known signature) and
    its default from the first release that had one, at each change."""

    name: str
    spans: tuple[int, ...] | None
    defaults: tuple[tuple[int, str], ...]


@dataclass(frozen=True, slots=True)
class ApiName:
    """One public name: its dotted path, kind, the intervals of releases it was there, those in which it only raised
    (a removed API kept as a stub), the public name of the same object if this one is a re-export or alias, its
    parameters with a history, and the releases in which only the CUDA build has it (where a CPU build was measured)."""

    path: str
    kind: str
    spans: tuple[int, ...]
    stub_spans: tuple[int, ...] = ()
    alias: str | None = None
    parameters: tuple[Parameter, ...] = ()
    import_errors: tuple[tuple[int, str], ...] = ()
    cuda_only_spans: tuple[int, ...] = ()

    @property
    def parent(self) -> str:
        return self.path.rpartition(".")[0]

    @property
    def leaf(self) -> str:
        return self.path.rpartition(".")[2]

    def present_at(self, position: int) -> bool:
        """Whether the name was there (and did more than raise) in the release at `position`."""
        return inside_spans(self.spans, position)


def inside_spans(spans: tuple[int, ...], position: int) -> bool:
    """Whether `position` falls in one of the intervals [start, end, start, end, ...] (an odd length is open-ended)."""
    inside = False
    for boundary in spans:
        if position < boundary:
            break
        inside = not inside
    return inside


@dataclass(frozen=True)
class ApiCatalog:
    """Every measured public name, and the releases it was measured on."""

    releases: tuple[str, ...]
    measured: tuple[dict | None, ...]
    names: dict[str, ApiName] = field(repr=False)
    document: dict = field(repr=False)  # the index as read, which the site publishes

    @cached_property
    def gaps(self) -> tuple[str, ...]:
        """The releases without a measurement."""
        return tuple(version for version, found in zip(self.releases, self.measured, strict=True) if found is None)

    @cached_property
    def children(self) -> dict[str, tuple[ApiName, ...]]:
        """The names inside each module or class, by its dotted path, sorted."""
        grouped: dict[str, list[ApiName]] = {}
        for name in self.names.values():
            grouped.setdefault(name.parent, []).append(name)
        return {parent: tuple(sorted(found, key=lambda n: n.leaf.casefold())) for parent, found in grouped.items()}

    @cached_property
    def modules(self) -> tuple[ApiName, ...]:
        """Every public module ever measured, in dotted order."""
        return tuple(sorted((n for n in self.names.values() if n.kind == MODULE), key=lambda n: n.path))

    def version(self, position: int) -> str:
        return self.releases[position]

    def position(self, version: str) -> int:
        return self.releases.index(version)

    def since(self, name: ApiName) -> str | None:
        """The first release the name was there."""
        return self.releases[name.spans[0]] if name.spans else None

    def removed(self, name: ApiName) -> str | None:
        """The first release without the name after its last interval, or None while it is there."""
        return self.releases[name.spans[-1]] if name.spans and len(name.spans) % 2 == 0 else None

    def changed_in(self, version: str) -> tuple[list[ApiName], list[ApiName]]:
        """The names a release added and those it removed (against the release before it), modules' members included."""
        position = self.position(version)
        added = [n for n in self.names.values() if position in n.spans[0::2]]
        removed = [n for n in self.names.values() if position in n.spans[1::2]]
        return sorted(added, key=lambda n: n.path), sorted(removed, key=lambda n: n.path)


def empty_catalog(releases: tuple[str, ...]) -> ApiCatalog:
    """The catalog before `make api` has measured anything: every release a gap."""
    document = {"format": 1, "releases": list(releases), "measured": [None] * len(releases), "kinds": [], "names": {}}
    return ApiCatalog(releases=releases, measured=(None,) * len(releases), names={}, document=document)


def load_catalog(data_dir: Path, remembered: Remembered | None = None) -> ApiCatalog | None:
    """The catalog of data/api/index.json, checked against its schema, or None when `make api` has not made it yet;
    raises DataErrors for a file that cannot be used. With `remembered`, a file whose bytes are unchanged is not read
    again (the same catalog is given)."""
    path = data_dir / "api" / INDEX_NAME
    if not (path.exists() or path.is_symlink()):
        return None
    name = f"{data_dir.name}/api/{INDEX_NAME}"
    raw, errors = read_data_bytes(path, name, data_dir, limit=MAX_INDEX_BYTES)
    if raw is None:
        raise DataErrors(errors)
    digest = hashlib.blake2b(raw, digest_size=16).digest()
    return remembered_or_new(remembered).get(("api-catalog", name), digest, lambda: _parsed_catalog(raw, name))


def _parsed_catalog(raw: bytes, name: str) -> ApiCatalog:
    """The catalog in the bytes of an index file; raises DataErrors if it is not readable or not valid."""
    try:
        document = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise DataErrors([DataError(name, f"not readable JSON ({exc}); run `make api-index` to write it again")]) from None
    errors = schema_errors(YamlDocument(document), SCHEMA_NAME, name)
    if errors:
        raise DataErrors(errors)
    return _catalog(document, name)


def _catalog(document: dict, name: str) -> ApiCatalog:
    """The catalog of a schema-valid index; raises DataErrors if a kind or a release position points nowhere."""
    kinds, count = document["kinds"], len(document["releases"])
    names, wrong = {}, []
    for parent, leaves in document["names"].items():
        for leaf, entry in leaves.items():
            dotted = f"{parent}.{leaf}" if parent else leaf
            spans = [entry["v"], entry.get("x", []), entry.get("c", []), *(p.get("v", []) for p in entry.get("p", {}).values())]
            if entry["k"] >= len(kinds) or any(list(s) != sorted(set(s)) or (s and s[-1] >= count) for s in spans):
                wrong.append(dotted)
                continue
            names[dotted] = ApiName(
                path=dotted,
                kind=kinds[entry["k"]],
                spans=tuple(entry["v"]),
                stub_spans=tuple(entry.get("x", ())),
                alias=entry.get("a"),
                parameters=tuple(
                    Parameter(param, tuple(p["v"]) if "v" in p else None, tuple((at, value) for at, value in p.get("d", ())))
                    for param, p in sorted(entry.get("p", {}).items())
                ),
                import_errors=tuple((at, error) for at, error in entry.get("e", ())),
                cuda_only_spans=tuple(entry.get("c", ())),
            )
    if wrong:
        message = f"{len(wrong)} names have a kind or releases outside the index's lists (first: {wrong[0]}); run `make api-index`"
        raise DataErrors([DataError(name, message)])
    return ApiCatalog(releases=tuple(document["releases"]), measured=tuple(document["measured"]), names=names, document=document)
