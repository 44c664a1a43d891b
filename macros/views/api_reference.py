"""The API reference as the site shows it: what to say of each measured name (since, removed, stubs, aliases, parameter
history), which modules get a page, and what each release added and removed. Templates render what this gives."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import ClassVar

from macros.data.api_catalog import CLASS, MODULE, ApiCatalog, ApiName, inside_spans
from macros.data.markup import text_only, tokens
from macros.data.model import Atlas, Change, Feature
from macros.data.remembered import Remembered, Same, remembered_or_new
from macros.views import urls
from macros.views.slots import HtmlSlots

KIND_WORDS = {
    "builtin": "function (C)",
    "classmethod": "class method",
    "staticmethod": "static method",
    "dtype": "dtype",
    "error": "exception",
    "other": "object",
}
DOTTED_TORCH_NAME = re.compile(r"\btorch(?:\.[A-Za-z_][A-Za-z0-9_]*)+")


Deprecations = tuple[tuple[str, str, str], ...]  # (torch name, release, id of the deprecation entry), in release order


def deprecations(atlas: Atlas) -> Deprecations:
    """What the atlas's deprecation entries list in `deprecates`: each name with its release and entry."""
    return tuple(
        (name, release.version, change.id) for release in atlas.releases for change in release.changes for name in change.deprecates
    )


def kind_word(kind: str) -> str:
    """A kind as a reader says it: `constant:int` -> `constant (int)`."""
    if kind.startswith("constant:"):
        return f"constant ({kind.partition(':')[2]})"
    return KIND_WORDS.get(kind, kind)


def _listed(name: ApiName) -> bool:
    """Whether the reference lists a name: all but a module merely imported into another under a name of its own."""
    return not (name.kind == MODULE and name.alias is not None)


@dataclass(frozen=True, slots=True)
class Note:
    """A fact about a name in words: its sentence, with `%(slot)s` for each value (the interface text that an edition
    translates), and the values (releases, parameter names, defaults), which read the same in every language."""

    message: str
    values: dict[str, str]

    def __str__(self) -> str:
        return self.message % self.values


@dataclass(frozen=True, slots=True)
class Row:
    """One name on a module page: its anchor, what is shown, and its release facts as (label, release or None)."""

    anchor: str
    shown: str
    kind: str
    since: tuple[str, str | None]
    removed: tuple[str, str | None]
    notes: tuple[Note, ...]
    alias: ApiName | None
    members: Group | None = None  # for a class: the group that lists its members
    deprecated: tuple[tuple[str, str], ...] = ()  # (release, id of the entry that deprecates it there)


@dataclass(frozen=True, slots=True)
class Group:
    """What a reference page shows under one summary that opens it: one class's members, the names of a module that
    start with one letter, or the modules of one package, when a page has too many to show at once."""

    anchor: str  # never a Python name: it holds a hyphen
    name: str  # what the group is of: a class, a letter, a module
    items: tuple  # rows, or modules on the page of every module


@dataclass(frozen=True, slots=True)
class ModuleSections:
    """What a module page lists: its names (in one table, or in closed groups by letter when there are more than
    `Reference.OPEN_ROWS`) and each class's members in a closed group of their own, so a phone lays out only what a
    reader opens (the browser opens a group by itself when an address or find-in-page leads into it)."""

    names: tuple[Row, ...]
    letters: tuple[Group, ...]
    members: tuple[Group, ...]
    private: Group | None = None  # its names that start with `_`: shown when a reader opens them (or an address leads in)


class Reference:
    """What the site says about every measured name."""

    OPEN_ROWS: ClassVar[int] = 400  # a module page shows at most this many names before it groups them by letter

    @classmethod
    def of(cls, catalog: ApiCatalog, remembered: Remembered | None = None, deprecations: Deprecations = ()) -> Reference:
        """The reference of this catalog and the deprecations the atlas records; with `remembered`, made once while
        they are the same (its per-release lists are then computed once too)."""
        return remembered_or_new(remembered).get("api-reference", (Same(catalog), deprecations), lambda: cls(catalog, deprecations))

    def __init__(self, catalog: ApiCatalog, deprecations: Deprecations = ()) -> None:
        self.catalog = catalog
        self.deprecated: dict[str, tuple[tuple[str, str], ...]] = {}
        for name, version, entry in deprecations:
            self.deprecated[name] = (*self.deprecated.get(name, ()), (version, entry))
        self._changes: dict[str, tuple[list[ApiName], list[ApiName]]] = {}
        self._parameters: dict[str, list[tuple[ApiName, str]]] = {}
        self.gaps = set(catalog.gaps)
        self.modules = tuple(m for m in catalog.modules if m.alias is None and any(map(_listed, catalog.children.get(m.path, ()))))
        """The modules that get a page: real modules (not one imported under another name) with names in them."""
        self._paged = {module.path for module in self.modules}

    def _at(self, position: int) -> tuple[str, str]:
        """A release as a label and its version; "≤ 2.1" when the release before it was not measured."""
        version = self.catalog.version(position)
        unsure = position > 0 and self.catalog.version(position - 1) in self.gaps
        return (f"≤ {version}" if unsure else version), version

    def since(self, name: ApiName) -> tuple[str, str | None]:
        return self._at(name.spans[0]) if name.spans else ("never usable" if name.stub_spans else "–", None)

    def removed(self, name: ApiName) -> tuple[str, str | None]:
        return self._at(name.spans[-1]) if name.spans and len(name.spans) % 2 == 0 else ("–", None)

    def notes(self, name: ApiName) -> tuple[Note, ...]:
        """The notes of a name: came back, raises as a stub, parameters added or removed, defaults changed."""
        found = [Note("back in %(release)s", {"release": self._at(start)[0]}) for start in name.spans[2::2]]
        found += [Note("only raises from %(release)s", {"release": self._at(start)[0]}) for start in name.stub_spans[0::2]]
        cuda_only = [self.catalog.version(at) for at in range(len(self.catalog.releases)) if inside_spans(name.cuda_only_spans, at)]
        if cuda_only:
            found.append(Note("only the CUDA build has it in %(release)s", {"release": ", ".join(cuda_only)}))
        for parameter in name.parameters:
            if parameter.spans:
                starts, ends = parameter.spans[0::2], parameter.spans[1::2]
                added = [self._at(s)[0] for s in starts if name.spans and s > name.spans[0]]
                found += [Note("parameter %(name)s added in %(release)s", {"name": parameter.name, "release": label}) for label in added]
                found += [
                    Note("parameter %(name)s removed in %(release)s", {"name": parameter.name, "release": self._at(e)[0]}) for e in ends
                ]
            for (_, before), (at, after) in zip(parameter.defaults, parameter.defaults[1:], strict=False):
                values = {"name": parameter.name, "before": before, "after": after, "release": self._at(at)[0]}
                found.append(Note("%(name)s default %(before)s → %(after)s in %(release)s", values))
        return tuple(found)

    def row(self, name: ApiName, prefix: str = "") -> Row:
        alias = self.catalog.names.get(name.alias) if name.alias else None
        return Row(
            anchor=prefix + name.leaf,
            shown=prefix + name.leaf,
            kind=kind_word(name.kind),
            since=self.since(name),
            removed=self.removed(name),
            notes=self.notes(name),
            alias=alias,
            deprecated=self.deprecated.get(name.path, ()),
        )

    def sections(self, module: ApiName) -> ModuleSections:
        """A module's names (modules it merely imports left out) and its classes' members."""
        names, members, private = [], [], []
        for name in filter(_listed, self.catalog.children.get(module.path, ())):
            group = None
            if name.kind == CLASS and self.catalog.children.get(name.path):
                rows = tuple(self.row(member, prefix=f"{name.leaf}.") for member in self.catalog.children[name.path])
                group = Group(anchor=f"members-{name.leaf}", name=name.leaf, items=rows)
                members.append(group)
            (private if name.leaf.startswith("_") else names).append(replace(self.row(name), members=group))
        hidden = Group(anchor="private-names", name="Private names", items=tuple(private)) if private else None
        if len(names) <= self.OPEN_ROWS:
            return ModuleSections(names=tuple(names), letters=(), members=tuple(members), private=hidden)
        letters = {}
        for row in names:
            letters.setdefault(row.shown[0].upper(), []).append(row)
        groups = tuple(Group(anchor=f"names-{letter.lower()}", name=letter, items=tuple(rows)) for letter, rows in letters.items())
        return ModuleSections(names=(), letters=groups, members=tuple(members), private=hidden)

    def packages(self) -> tuple[Group, ...]:
        """Every module with a page, grouped by the module right inside torch that holds it (torch on its own)."""
        grouped: dict[str, list[ApiName]] = {}
        for module in self.modules:
            grouped.setdefault(".".join(module.path.split(".")[:2]), []).append(module)
        return tuple(Group(anchor=f"package-{path}", name=path, items=tuple(found)) for path, found in grouped.items())

    def page_of(self, name: ApiName) -> str | None:
        """The docs path (with anchor) of a name's row, if a module page lists it: a name of the module, or a member of
        one of its classes."""
        parts = name.path.split(".")
        module, anchor = ".".join(parts[:-1]), parts[-1]
        if module in self._paged and _listed(name):
            return urls.with_anchor(urls.reference_doc(module), anchor)
        owner = self.catalog.names.get(module)
        if owner is not None and owner.kind == CLASS and owner.parent in self._paged:
            return urls.with_anchor(urls.reference_doc(owner.parent), f"{owner.leaf}.{anchor}")
        return None

    def parameter_changes(self, version: str) -> list[tuple[ApiName, Note]]:
        """The parameters a release added to or removed from a callable that was there before, and the defaults it changed."""
        if version not in self._parameters:
            self._parameters[version] = self._parameter_changes(version)
        return self._parameters[version]

    def _parameter_changes(self, version: str) -> list[tuple[ApiName, Note]]:
        position = self.catalog.position(version)
        found = []
        for name in sorted(self.catalog.names.values(), key=lambda n: n.path):
            if not (name.present_at(position) and position > 0 and name.present_at(position - 1)):
                continue
            for parameter in name.parameters:
                spans = parameter.spans or ()
                if position in spans[0::2]:
                    found.append((name, Note("parameter %(name)s added", {"name": parameter.name})))
                if position in spans[1::2]:
                    found.append((name, Note("parameter %(name)s removed", {"name": parameter.name})))
                for (_, before), (at, after) in zip(parameter.defaults, parameter.defaults[1:], strict=False):
                    if at == position:
                        values = {"name": parameter.name, "before": before, "after": after}
                        found.append((name, Note("default of %(name)s: %(before)s → %(after)s", values)))
        return found

    def changed_in(self, version: str) -> tuple[list[ApiName], list[ApiName]]:
        """The public names a release added and removed, leaving out modules that are only imported under another name."""
        if version not in self._changes:
            added, removed = self.catalog.changed_in(version)
            self._changes[version] = list(filter(_listed, added)), list(filter(_listed, removed))
        return self._changes[version]


def published_index(catalog: ApiCatalog, schema_url: str, remembered: Remembered | None = None) -> str:
    """The API index as published under api/: the committed file's content, naming the schema it validates against
    (with `remembered`, written once while the catalog and the address are the same)."""

    def written() -> str:
        document = {"schema": schema_url, **catalog.document}
        return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"

    return remembered_or_new(remembered).get("api-index-published", (Same(catalog), schema_url), written)


def reference_pages(reference: Reference, render: Callable[..., str], slots: HtmlSlots) -> dict[str, str]:
    """The reference's pages, keyed by docs path: the index with the lookup, a page per module, a page per release;
    their long tables go into `slots`."""
    catalog = reference.catalog
    changes = {version: reference.changed_in(version) for version in catalog.releases}
    context = {"reference": reference, "catalog": catalog}
    top = [module for module in reference.modules if module.path.count(".") <= 1]  # torch and the modules right in it
    modules = slots.put(render("_api_modules.html.j2", modules=top, up="../", **context))
    pages = {urls.REFERENCE_INDEX: render("reference_index.md.j2", changes=changes, modules=modules, shown=len(top), **context)}
    every = slots.put(render("_api_modules.html.j2", groups=reference.packages(), up="../../", **context))
    pages[urls.REFERENCE_MODULES] = render("reference_modules.md.j2", table=every, **context)
    pages[urls.REFERENCE_NEEDS] = render("reference_needs.md.j2", **context)
    pages[urls.REFERENCE_DIFF] = render("reference_diff.md.j2", **context)
    for module in reference.modules:
        table = slots.put(render("_api_table.html.j2", sections=reference.sections(module), up="../../", **context))
        pages[urls.reference_doc(module.path)] = render("reference_module.md.j2", module=module, table=table, **context)
    for version, (added, removed) in changes.items():
        parameters = reference.parameter_changes(version)
        lists = [slots.put(render("_api_names.html.j2", names=names, up="../../../", **context)) for names in (added, removed)]
        lists.append(slots.put(render("_api_parameters.html.j2", changes=parameters, up="../../../", **context)))
        pages[urls.reference_changes(version)] = render(
            "reference_changes.md.j2", version=version, added=added, removed=removed, parameters=parameters, lists=lists, **context
        )
    return pages


def entry_texts(item: Feature | Change) -> tuple[str, ...]:
    """The texts of a feature or change that can cite names: its title, summary and details."""
    return (item.title, item.summary, getattr(item, "details", None) or "")


def cited_names(text: str) -> list[str]:
    """The dotted `torch.…` names a data text cites in its code spans."""
    return [name for token in tokens(text) if token.kind == "code" for name in DOTTED_TORCH_NAME.findall(token.text)]


def cited_apis(reference: Reference, texts: list[str]) -> list[ApiName]:
    """The measured public names that some of these texts cite, in the order they are first cited."""
    names = reference.catalog.names
    return [names[name] for name in dict.fromkeys(n for text in texts for n in cited_names(text)) if name in names and _listed(names[name])]


def deprecated_names(atlas: Atlas) -> dict[str, list[list[str]]]:
    """Each torch name a deprecation entry lists in `deprecates`, with [release, entry id] of each, oldest first."""
    found: dict[str, list[list[str]]] = {}
    for name, version, entry in deprecations(atlas):
        found.setdefault(name, []).append([version, entry])
    return found


def mentions(atlas: Atlas) -> dict[str, list[list[str]]]:
    """Each torch name that a feature or change cites, with every entry citing it: [release, id, what (the feature's
    stability, or the change's kind), title as plain text], oldest first."""
    found: dict[str, list[list[str]]] = {}
    for release in atlas.releases:
        for item in release.entries:
            what = getattr(item, "stability", None) or getattr(item, "kind", "")
            for name in dict.fromkeys(name for text in entry_texts(item) for name in cited_names(text)):
                found.setdefault(name, []).append([release.version, item.id, what, text_only(item.title)])
    return found


def mentions_json(atlas: Atlas, schema_url: str) -> str:
    """The published mentions file: which entries of the atlas cite each torch name, and which deprecate one (read by
    the lookup)."""
    document = {"schema": schema_url, "names": mentions(atlas), "deprecated": deprecated_names(atlas)}
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
