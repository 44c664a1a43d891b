"""Fold every release's API surface into one index of intervals: `python -m tools.api.index` (`make api-index`).

data/api/surfaces/<version>.json.gz -> data/api/index.json, compact JSON with sorted keys:

    {"format": 1,
     "releases": ["1.0", ..., "2.14"],                 every release of the atlas; versions below are indexes into it
     "measured": [{"torch": "1.0.0", "python": "3.7.16"}, null, ...],   what each surface measured (null: none yet)
     "kinds": ["builtin", "class", "constant:int", ...],               kinds below are indexes into it
     "names": {"torch": {"solve": {"k": 7, "v": [2, 13], "x": [13], "p": {"out": {"v": [2]}, "A": {"v": [22]}}}, ...},
               "torch.nn": {"Linear": {"k": 1, "v": [0], "a": "torch.nn.modules.linear.Linear", ...}, ...},
               "torch.utils": {"tensorboard": {"k": 9, "v": [14], "e": [[14, "ModuleNotFoundError"]]}, ...}, ...}}

Names are grouped by the path they live in (its parent module or class), each under its last component.

`v`: the releases a name exists in, as intervals: [since, removed, since again, removed again, ...]; an odd length
means it is still there in the last release. A name whose body only raises (a removed API kept as a stub that errors)
counts as removed; `x` holds the intervals in which it was such a stub. `w`: for a callable that ever took any keyword
argument (a `**kwargs` parameter), the intervals in which it did, so that a keyword it accepted that way is not
mistaken for one it lacked. `c`: the releases in which only the CUDA build has the name, where a CPU-only build of
the release was measured too (`make api-cpu`: data/api/surfaces/<version>+cpu.json.gz); PyPI's wheel, the one
measured, is a CUDA build. `k`: its kind in the last release that had it;
`a`: for a re-export or an alias, the public name of the same object (by `__module__` + `__qualname__`): its
definition where that is public, else the shortest public path to it (torch.nn.parameter.Tensor -> torch.Tensor).
`e`: releases in which a module failed to import, with the error's type. `p`: only the parameters of a callable that
have a history: `v` the intervals of the parameter where it was not there from the callable's first release with a
known signature to the last (a parameter never outlives its callable: its intervals end where the callable's do),
`d` its default at the first release it had one and at each release it changed (a stub's `...` is no value and
changes nothing). A release that was not measured, a module that failed to import and
a callable whose parameters could not be read are gaps: the state before the gap carries through them.

A name exists in a release while its module has it, whether or not `__all__` lists it: the surfaces record private
names too (marked `private`), and the index keeps those that some release listed or made public
(torch._foreach_floor, torch.return_types._unpack_dual), dropping the rest. What the wheels state statically
(data/api/static/<version>.json.gz, `make api-static`) corrects what an import cannot see: a C builtin's parameters
are checked against the argument parser compiled into the release,
which is what callers meet: where the stubs name the first parameter `self` and the parser says `input`, it is
`input`; a docstring's signature (1.0 ships no stubs; its torch.atan2 says input1, input2) gives way to the
parser's; where the stubs share no parameter but `input`, `self` and `out` with the parser's signatures of that name,
they describe another function (torch.fft.rfft in 1.7 carried the old torch.rfft's) and the parser's parameters are
taken. The same holds for the methods of torch.Tensor, whose parser signatures are those without `input`.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any

from tools.api.extract import PROJECT_DIR, SURFACES_DIR, read_surface, release_versions, surface_path
from tools.api.static import STATIC_DIR, static_path

INDEX_PATH = PROJECT_DIR / "data" / "api" / "index.json"
FORMAT = 1
UNKNOWN_DEFAULT = "..."

# States of a name in one release.
ABSENT, PRESENT, RAISES, UNKNOWN = "absent", "present", "raises", "unknown"


def intervals(flags: list[bool]) -> list[int]:
    """[since, removed, since again, ...] of the indexes where `flags` is true."""
    found, inside = [], False
    for number, flag in enumerate(flags):
        if flag != inside:
            found.append(number)
            inside = flag
    return found


def carried(states: list[Any]) -> list[Any]:
    """Each UNKNOWN replaced by the state before it (ABSENT at the start)."""
    result, previous = [], ABSENT
    for state in states:
        previous = previous if state == UNKNOWN else state
        result.append(previous)
    return result


def kind_label(record: dict[str, Any]) -> str:
    """A name's kind, with its type for a constant (`constant:int`)."""
    return f"constant:{record['type']}" if record["kind"] == "constant" else record["kind"]


def failed_modules(surface: dict[str, Any]) -> set[str]:
    """The modules of one release that failed to import."""
    return {name for name, error in surface["modules"].items() if error}


def inside_failed(name: str, failed: set[str]) -> bool:
    """Whether a name lives in (or under) a module that failed to import."""
    parts = name.split(".")
    return any(".".join(parts[:end]) in failed for end in range(1, len(parts)))


def records_of(surface: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """One release's names, with each walked module as a name of kind module (also one that failed to import)."""
    records = dict(surface["names"])
    for module, error in surface["modules"].items():
        record = dict(records.get(module) or {"kind": "module"})
        if error:
            record["error"] = error
        records[module] = record
    return records


def parameter_history(signatures: list[list[list] | None], first: int, alive: list[bool]) -> dict[str, dict[str, list]]:
    """The parameters that have a history, from a callable's parameter lists per release (None where unknown); `alive`
    says where the callable itself is there, which bounds every parameter."""
    own_spans = intervals([there and number >= first for number, there in enumerate(alive)])
    names: list[str] = []
    for parameters in signatures:
        for name, _kind, _default in parameters or ():
            if name not in names:
                names.append(name)
    history = {}
    for name in names:
        present, defaults = [], []
        for parameters in signatures:
            if parameters is None:
                present.append(UNKNOWN)
                continue
            found = next((p for p in parameters if p[0] == name), None)
            present.append(found is not None)
            if found is not None and found[2] is not None and found[2] != UNKNOWN_DEFAULT:
                defaults.append((len(present) - 1, found[2]))
        flags = [
            state is True and there for state, there in zip(carried([ABSENT if s is False else s for s in present]), alive, strict=True)
        ]
        entry: dict[str, list] = {}
        spans = intervals(flags)
        if spans != own_spans:
            entry["v"] = spans
        changes = [
            [number, value] for position, (number, value) in enumerate(defaults) if position == 0 or defaults[position - 1][1] != value
        ]
        if len(changes) > 1:
            entry["d"] = changes
        if entry:
            history[name] = entry
    return history


def leaf(path: str) -> str:
    """The last component of a dotted path."""
    return path.rpartition(".")[2]


def real_home(name: str, origin: str, kind: str) -> bool:
    """Whether `origin` (`__module__` + `__qualname__`) names the object itself rather than the code that made it: never
    for a closure (`<locals>`); for a function, only under its own name, since a function made by a factory or wrapped by
    a decorator carries the qualname of the factory's or the decorator's function (torch.unique: boolean_dispatch's
    `fn`; 37 names wrapped by torch.fx's `compatibility`). A class keeps a home under another name (Map = MapIterDataPipe)."""
    if "<locals>" in origin:
        return False
    return kind in ("class", "module") or leaf(origin) == leaf(name)


def releases_of(versions: list[int], count: int) -> set[int]:
    """The releases (indexes) an entry's intervals cover, of `count` releases."""
    bounds = [*versions, count] if len(versions) % 2 else versions
    return {number for start, end in zip(bounds[::2], bounds[1::2], strict=True) for number in range(start, end)}


def aliases(origins: dict[str, str], public: dict[str, Any], count: int) -> dict[str, str]:
    """Name -> the public name of the same object, for re-exports and aliases: its origin where that is a public name,
    else (an object defined in a private module, torch._tensor.Tensor) the shortest public path that shares its origin,
    one under the origin's own name first (torch.zeros_like, not a loop variable torch.obj left holding the same object).
    The name given is one there in the newest release that has the entry (of `count`), whose record the origin comes
    from. Origins that are not the object's real home are left out; so are two names whose origins name each other,
    and an origin that names a public path gone by then (a module that sets `__module__` by hand: the QuantizeHandler
    classes claim torch.ao.quantization.fx.quantization_patterns, which left in 2.0)."""
    trusted = {name: origin for name, origin in origins.items() if real_home(name, origin, public[name]["k"])}
    sharing: dict[str, list[str]] = {}
    for name, origin in trusted.items():
        sharing.setdefault(origin, []).append(name)
    found = {}
    for name, origin in trusted.items():
        newest = max(releases_of(public[name]["v"], count), default=None)
        together = [path for path in ([origin] if origin in public else sharing[origin]) if newest in releases_of(public[path]["v"], count)]
        target = min(together, key=lambda path: (leaf(path) != leaf(origin), path.count("."), path), default=name)
        if target != name and trusted.get(target) != name:  # two names naming each other: a __module__ set by hand
            found[name] = target
    return found


def tail_merged(parser: dict[str, list], key: str) -> list[list]:
    """The overloads whose string may also be `key`'s: a compiler stores a string that ends another only once, so
    `cos_(Tensor input)` is read as the tail of `acos_(Tensor input)`. Only a name whose overloads all agree on
    whether they take `input` can tell it."""
    hosts = [parser[name] for name in parser if name.endswith(key) and name != key]
    return [overloads[0] for overloads in hosts if overloads and len({_takes_input(o) for o in overloads}) == 1]


def _takes_input(overload: list[list]) -> bool:
    """Whether a parser signature names a parameter `input` (a torch function's tensor; a method's is implicit)."""
    return any(parameter[0] == "input" for parameter in overload)


def parser_checked(record: dict[str, Any], name: str, parser: dict[str, list]) -> list[list] | None:
    """A C builtin's (or a Tensor method's) parameters, from its stub or docstring, checked against the release's
    argument parser: None where they stand, else the corrected list (see the module's docstring). A method's parser
    signatures are those without `input` (the tensor is the method's own); `out`, `input` and `self` say nothing of
    which function a signature is, so they do not count as shared."""
    method = record.get("kind") == "method" and name.startswith("torch.Tensor.")
    if (record.get("kind") != "builtin" and not method) or record.get("sig") not in ("stub", "docstring") or not record.get("params"):
        return None
    key = (record.get("origin") or name).rpartition(".")[2]
    overloads = [o for o in parser.get(key, []) if o and _takes_input(o) != method]
    if not overloads and not method and record["sig"] == "docstring":  # a factory takes no tensor: torch.empty(size)
        overloads = [o for o in parser.get(key, []) if o]
    params = record["params"]
    renamed = any(p[0] == "self" for p in params) and not any(p[0] == "input" for p in params)
    if not method and renamed and any(_takes_input(o) for o in overloads or tail_merged(parser, key)):
        return [["input", *p[1:]] if p[0] == "self" else p for p in params]
    if not overloads:
        return None
    theirs: dict[str, list] = {}
    for overload in overloads:
        for parameter, keyword_only, default in overload:
            theirs.setdefault(parameter, [parameter, "keyword_only" if keyword_only else "positional_or_keyword", default])
    if record["sig"] == "docstring":  # prose, where the parser is the signature itself
        return list(theirs.values())
    neutral = {"input", "self", "out"}
    ours = {p[0] for p in params} - neutral
    if ours and not ours & (set(theirs) - neutral):
        return list(theirs.values())
    return None


def with_static_facts(records: dict[str, dict[str, Any]], static: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    """One release's records with its builtins' parameters checked against the argument parser of its wheel."""
    if not static:
        return records
    records = dict(records)
    parser = static.get("parser", {})
    for name, record in records.items():
        checked = parser_checked(record, name, parser)
        if checked is not None:
            records[name] = {**record, "params": checked, "sig": "parser"}
    return records


def with_shared_members(records: dict[str, dict[str, Any]], known: set[str]) -> dict[str, dict[str, Any]]:
    """One release's records with each class's members also under the other public paths of the same class: a surface
    records a class's members once, under its shortest public path, so when a shorter path appears
    (torch.export.experimental.OrderedSet in 2.11) the members seem to leave the longer one, which still has them.
    Only names a surface once recorded are given (`known`): the index gains no name, only the releases it was there."""
    classes: dict[str, list[str]] = {}
    for path, record in records.items():
        if record.get("kind") == "class":
            classes.setdefault(record.get("origin") or path, []).append(path)
    shared = {path: paths for paths in classes.values() if len(paths) > 1 for path in paths}
    if not shared:
        return records
    members: dict[str, list[str]] = {}
    for path in records:
        parent, _, leaf = path.rpartition(".")
        if parent in shared:
            members.setdefault(parent, []).append(leaf)
    records = dict(records)
    for holder, leaves in members.items():
        for other in shared[holder]:
            for leaf in leaves:
                name = f"{other}.{leaf}"
                if name in known and name not in records:
                    records[name] = records[f"{holder}.{leaf}"]
    return records


def with_inherited_members(records: dict[str, dict[str, Any]], known: set[str]) -> dict[str, dict[str, Any]]:
    """One release's records with each class's inherited members: a surface records a member found in a public base
    under that base only (torch.cuda.FloatStorage gets dtype from torch._C.CudaFloatStorageBase in 1.10), and one
    found in a private base under the first public class that has it (in 1.11 torch.BFloat16Storage holds the members
    torch.IntStorage also gets from torch.storage._TypedStorage). A class is given what each class of its `mro` has:
    a recorded one's members, and of a private one what the classes sharing it hold of its own (torch.IntStorage reaches
    TypedStorage through the private _LegacyStorage; a Tensor subclass gets no other subclass's members through
    torch._C.TensorBase). A member given is defined at the one it comes from. Only names a surface once recorded are
    given (`known`)."""
    classes = {path: record for path, record in records.items() if record.get("kind") == "class"}
    by_origin: dict[str, list[str]] = {}
    sharing: dict[str, list[str]] = {}
    for path, record in classes.items():
        by_origin.setdefault(record.get("origin") or path, []).append(path)
        for ancestor in record.get("mro", ()):
            sharing.setdefault(ancestor, []).append(path)
    members: dict[str, dict[str, str]] = {}  # class path -> leaf -> the recorded name it comes from
    for path in records:
        parent, _, member = path.rpartition(".")
        if parent in classes:
            members.setdefault(parent, {})[member] = path
    records = dict(records)
    for path, record in classes.items():
        granted: dict[str, str] = {}
        for ancestor in record.get("mro", ()):
            if ancestor in by_origin:  # a class recorded here: all it has
                offered = [name for holder in by_origin[ancestor] for name in members.get(holder, {}).values()]
            else:  # a private one: what the classes sharing it hold of its own (their records name it as origin)
                offered = [
                    name
                    for holder in sharing[ancestor]
                    if holder != path
                    for name in members.get(holder, {}).values()
                    if (records[name].get("origin") or "").startswith(ancestor + ".")
                ]
            for name in offered:
                granted.setdefault(leaf(name), name)
        for member, name in granted.items():
            inherited = f"{path}.{member}"
            if inherited in known and inherited not in records:  # defined at the member it comes from
                records[inherited] = {**records[name], "origin": records[name].get("origin") or name}
    return records


def build_index(
    surfaces: dict[str, dict[str, Any]],
    releases: list[str],
    statics: dict[str, dict[str, Any]] | None = None,
    cpu_surfaces: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The index of every name over `releases`, from the surfaces measured so far (version -> surface), what the
    wheels state statically (version -> static reading) and the CPU-only builds measured (version -> surface)."""
    statics, cpu_surfaces = statics or {}, cpu_surfaces or {}
    cpu_records = [records_of(cpu_surfaces[v]) if v in cpu_surfaces else None for v in releases]
    cpu_failed = [failed_modules(cpu_surfaces[v]) if v in cpu_surfaces else set() for v in releases]
    recorded = [records_of(surfaces[version]) if version in surfaces else None for version in releases]
    known = {name for records in recorded if records for name, record in records.items() if not record.get("private")}
    measured = [{n: r for n, r in records.items() if n in known} if records is not None else None for records in recorded]
    per_release = [
        with_inherited_members(with_shared_members(with_static_facts(records, statics.get(version)), known), known)
        if records is not None
        else None
        for version, records in zip(releases, measured, strict=True)
    ]
    failed = [failed_modules(surfaces[version]) if version in surfaces else set() for version in releases]
    every_name = sorted({name for records in per_release if records for name in records})
    kinds: set[str] = set()
    entries: dict[str, dict[str, Any]] = {}
    origins: dict[str, str] = {}
    for name in every_name:
        states, latest, errors, signatures = [], None, [], []
        for number, records in enumerate(per_release):
            record = records.get(name) if records is not None else None
            if record is None:
                unknown = records is None or inside_failed(name, failed[number])
                states.append(UNKNOWN if unknown else ABSENT)
                signatures.append(None)
                continue
            states.append(RAISES if record.get("raises") else PRESENT)
            latest = record
            if record.get("error") and record["kind"] == "module":
                errors.append([number, record["error"]])
            signatures.append(record.get("params") if record.get("sig") in ("signature", "stub", "docstring", "parser") else None)
        states = carried(states)
        entry: dict[str, Any] = {"k": kind_label(latest), "v": intervals([state == PRESENT for state in states])}
        kinds.add(entry["k"])
        if RAISES in states:
            entry["x"] = intervals([state == RAISES for state in states])
        cuda_only = [
            cpu is not None and records is not None and name in records and name not in cpu and not inside_failed(name, failed)
            for records, cpu, failed in zip(measured, cpu_records, cpu_failed, strict=True)  # as imported: both builds alike
        ]
        if any(cuda_only):
            entry["c"] = intervals(cuda_only)
        if latest.get("origin") and latest["origin"] != name:
            origins[name] = latest["origin"]
        if errors:
            entry["e"] = errors
        known = [number for number, parameters in enumerate(signatures) if parameters is not None]
        any_keyword = [UNKNOWN if params is None else any(kind == "var_keyword" for _, kind, _ in params) for params in signatures]
        if True in any_keyword:
            entry["w"] = intervals([flag is True and state == PRESENT for flag, state in zip(carried(any_keyword), states, strict=True)])
        if known:
            history = parameter_history(signatures, known[0], [state == PRESENT for state in states])
            if history:
                entry["p"] = history
        entries[name] = entry
    for name, target in aliases(origins, entries, len(releases)).items():
        entries[name]["a"] = target
    table = sorted(kinds)
    for entry in entries.values():
        entry["k"] = table.index(entry["k"])
    measured = [
        {"torch": surfaces[v]["provenance"]["torch"], "python": surfaces[v]["provenance"]["python"]} if v in surfaces else None
        for v in releases
    ]
    grouped: dict[str, dict[str, Any]] = {}
    for name, entry in entries.items():
        parent, _, leaf = name.rpartition(".")
        grouped.setdefault(parent, {})[leaf] = entry
    return {"format": FORMAT, "releases": releases, "measured": measured, "kinds": table, "names": grouped}


def flat_names(index: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The index's names as full dotted paths -> entries."""
    return {f"{parent}.{leaf}" if parent else leaf: entry for parent, leaves in index["names"].items() for leaf, entry in leaves.items()}


def encode_index(index: dict[str, Any]) -> bytes:
    """The index as compact JSON with sorted keys and a final newline."""
    return (json.dumps(index, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")


def load_surfaces(surfaces_dir: Path, releases: list[str]) -> dict[str, dict[str, Any]]:
    """Every stored surface of the given releases."""
    return {v: read_surface(surface_path(v, surfaces_dir)) for v in releases if surface_path(v, surfaces_dir).exists()}


def load_statics(static_dir: Path, releases: list[str]) -> dict[str, dict[str, Any]]:
    """Every stored static reading of the given releases."""
    return {v: read_surface(static_path(v, static_dir)) for v in releases if static_path(v, static_dir).exists()}


def main(argv: list[str]) -> int:
    """Write data/api/index.json from every stored surface and report its size."""
    releases = release_versions()
    surfaces = load_surfaces(SURFACES_DIR, releases)
    if not surfaces:
        raise SystemExit(f"no surface in {SURFACES_DIR.relative_to(PROJECT_DIR)}: run `make api` first")
    cpu = {v: read_surface(surface_path(v, SURFACES_DIR, "cpu")) for v in releases if surface_path(v, SURFACES_DIR, "cpu").exists()}
    index = build_index(surfaces, releases, load_statics(STATIC_DIR, releases), cpu)
    data = encode_index(index)
    INDEX_PATH.parent.mkdir(parents=True, exist_ok=True)
    if not INDEX_PATH.exists() or INDEX_PATH.read_bytes() != data:
        INDEX_PATH.write_bytes(data)
    print(
        f"{INDEX_PATH.relative_to(PROJECT_DIR)}: {len(flat_names(index))} names from {len(surfaces)} of {len(releases)} releases "
        f"({', '.join(v for v in releases if v in surfaces)}); {len(data)} bytes, {len(gzip.compress(data, 9))} gzipped",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
