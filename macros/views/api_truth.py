"""The truth check of `make check`: every `torch.…` name that a feature or change cites in its code spans must be
a public name of the release it is cited for, as the measured API index says.

A change of kind `removal` (or a breaking change) may cite a name its release no longer has, if the release before
had it; any entry may list in `absent_apis` the names it cites on purpose that its release does not have (the API a
feature replaces, one that comes later), and each of those must indeed be absent; what a deprecation lists in
`deprecates` must be there in its release. Left alone, as the index cannot
speak for them: private names (a part starting with `_`) and the operator namespaces under `torch.ops`; attributes
of an object that is not a module or class (`torch.backends.cuda.matmul.allow_tf32`); the flags of `torch.backends`
modules, which are properties of the module objects' own classes; and releases without a measurement.
"""

from __future__ import annotations

from dataclasses import dataclass

from macros.data.api_catalog import CLASS, MODULE, ApiCatalog
from macros.data.model import Atlas
from macros.views.api_reference import cited_names, entry_texts

WITHOUT_THE_NAME = ("removal", "breaking")  # change kinds whose release may be the first without the name


@dataclass(frozen=True, slots=True)
class Contradiction:
    """A name an entry cites that its release did not have."""

    release: str
    kind: str  # features | changes
    index: int
    item_id: str
    name: str
    detail: str

    def __str__(self) -> str:
        return f"data/releases/{self.release}.yaml: {self.kind}[{self.index}] ({self.item_id}) cites `{self.name}`: {self.detail}"


def contradictions(atlas: Atlas, catalog: ApiCatalog) -> list[Contradiction]:
    """Every cited name the index contradicts, in release order."""
    unmeasured = set(catalog.gaps)
    found = []
    for release in atlas.releases:
        if release.version not in catalog.releases or release.version in unmeasured:
            continue
        position = catalog.position(release.version)
        for kind, items in (("features", release.features), ("changes", release.changes)):
            for index, item in enumerate(items):
                may_be_gone = getattr(item, "kind", None) in WITHOUT_THE_NAME
                for name in dict.fromkeys(name for text in entry_texts(item) for name in cited_names(text)):
                    if name in item.absent_apis or not _measurable(name):
                        continue
                    detail = _contradiction(catalog, name, position, may_be_gone)
                    if detail:
                        found.append(Contradiction(release.version, kind, index, item.id, name, detail))
                for name in item.absent_apis:
                    entry = catalog.names.get(name)
                    if entry is not None and entry.present_at(position):
                        detail = f"it is listed in `absent_apis`, but the {release.version} wheel has it; remove it from the list"
                        found.append(Contradiction(release.version, kind, index, item.id, name, detail))
                for name in getattr(item, "deprecates", ()):
                    entry = catalog.names.get(name)
                    if entry is None or not entry.present_at(position):
                        detail = f"it is listed in `deprecates`, but the {release.version} wheel does not have it"
                        found.append(Contradiction(release.version, kind, index, item.id, name, detail))
    return found


def unknown_record_apis(atlas: Atlas, catalog: ApiCatalog) -> list[str]:
    """The names a feature record lists among its APIs that no measured release has (as `data/features.yaml: id: name`);
    a name inside a module that could not be imported without other software (torch.utils.tensorboard) is left alone."""
    found = []
    for record in atlas.records:
        for name in record.apis:
            if name in catalog.names or not _measurable(name):
                continue
            owner = _nearest_known(catalog, name)
            if owner is not None and owner.kind == MODULE and len(owner.import_errors) >= len(owner.spans):
                continue
            found.append(f"data/features.yaml: {record.id}: `{name}` is in no release from {catalog.releases[0]} to {catalog.releases[-1]}")
    return found


def _measurable(name: str) -> bool:
    """Whether the index can speak for a name (see the module's docstring)."""
    parts = name.split(".")
    private = any(part.startswith("_") for part in parts)
    return not (private or name.startswith(("torch.ops.", "torch.backends.")) or name == "torch.ops")


def _contradiction(catalog: ApiCatalog, name: str, position: int, may_be_gone: bool) -> str | None:
    """Why the release at `position` contradicts a citation of `name`, or None."""
    version = catalog.version(position)
    entry = catalog.names.get(name)
    if entry is None:
        owner = _nearest_known(catalog, name)
        if owner is None or owner.kind not in (MODULE, CLASS):
            return None  # an attribute of an object: not measurable
        missing = name[len(owner.path) + 1 :]
        return f"no release from {catalog.releases[0]} to {catalog.releases[-1]} has it ({owner.path} never had `{missing}`)"
    if entry.present_at(position):
        return None
    if may_be_gone and position > 0 and entry.present_at(position - 1):
        return None
    if not entry.spans:
        return "no release has it as more than a stub that raises"
    since, last = catalog.since(entry), catalog.removed(entry)
    if position < entry.spans[0]:
        return f"the {version} wheel does not have it yet (it arrived in {since})"
    return f"the {version} wheel no longer has it (removed in {last})"


def _nearest_known(catalog: ApiCatalog, name: str):
    """The longest prefix of a dotted name that the index knows."""
    parts = name.split(".")
    for end in range(len(parts) - 1, 0, -1):
        known = catalog.names.get(".".join(parts[:end]))
        if known is not None:
            return known
    return None
