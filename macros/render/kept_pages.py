"""Pages kept between the builds of one process, given again while what they read is unchanged.

A data edit under `make serve` changes one release file most of the time, and most pages read no release but a few:
a release page reads its own release (and is given the lifecycles of its features and its stage changes), a feature
page the releases that mention it or its parts, a topic page those with entries on the topic (all of them for a
platform's topic), the feature matrix and the features index no release but the lifecycles they are given. Each such
page is kept with a digest of everything it can read:
- the state (path, modification time, size) of every data file that belongs to no single release: labels, topics,
  feature records, builds, the API catalog, interface words;
- the state of its template and of every template that one includes or imports, so that an edit of the release
  page's template renders the release pages again and no other;
- the state of the files of each release it reads (`data/releases/<v>.yaml`, its results in `data/examples/` and its
  translations), which are all a release's data comes from; an edit that adds or takes away a release's entry about
  a feature or topic changes that release's file;
- the values it is given that other releases' data changes (lifecycles, stage changes).
While the digest is unchanged the page is given again instead of rendered. Such a page sees the atlas through
`AtlasView`, which holds nothing that any release's data could change but the versions: a template that reads more
fails at once, rather than being given again out of date.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from macros.data.model import Atlas, Labels, Topic

RELEASE_FOLDERS = (("releases",), ("examples",))  # under data/, and under data/translations/<language>/
TRANSLATIONS = "translations"


class InputStates(NamedTuple):
    """The state of the build's input files: the data files that belong to no release, each release's own by version,
    and each template by name."""

    shared: tuple
    releases: dict[str, tuple]
    templates: dict[str, tuple]

    @classmethod
    def of(cls, states: Iterable[tuple[str, int, int]], data_dir: Path, template_dir: Path) -> InputStates:
        """Sort (path, modification time, size) triples into the shared files, each release's files and the templates."""
        shared, releases, templates = [], {}, {}
        for state in states:
            path = Path(state[0])
            version = _release_of(path, data_dir)
            if path.is_relative_to(template_dir):
                templates[path.relative_to(template_dir).as_posix()] = state
            elif version is None:
                shared.append(state)
            else:
                releases.setdefault(version, []).append(state)
        return cls(tuple(shared), {version: tuple(found) for version, found in releases.items()}, templates)


def _release_of(path: Path, data_dir: Path) -> str | None:
    """The version whose own file `path` is, or None for a file that no single release owns."""
    if not path.is_relative_to(data_dir) or path.suffix != ".yaml":
        return None
    folder = path.relative_to(data_dir).parts[:-1]
    if folder[:1] == (TRANSLATIONS,):
        folder = folder[2:]
    return path.stem if folder in RELEASE_FOLDERS else None


class ReleaseName(NamedTuple):
    """A release as a page that may not read its data sees it: its version."""

    version: str


@dataclass(frozen=True, slots=True)
class AtlasView:
    """What a kept page may read of the whole atlas: the labels and topics (from shared files) and the versions."""

    labels: Labels
    topics: tuple[Topic, ...]
    releases: tuple[ReleaseName, ...]

    @classmethod
    def of(cls, atlas: Atlas) -> AtlasView:
        """The view of this atlas."""
        return cls(atlas.labels, atlas.topics, tuple(ReleaseName(release.version) for release in atlas.releases))

    topic = Atlas.topic  # the topic with this id, looked up as the atlas does


@dataclass(frozen=True, slots=True)
class _Kept:
    """A page as rendered, the digest of what it read, and the interface words it asked for that the catalog lacks."""

    digest: str
    page: str
    unknown_words: frozenset[str]


_kept: dict[tuple[str, str], _Kept] = {}  # (edition language, page path) -> the page as last rendered in this process


def keep(made: dict[tuple[str, str], _Kept]) -> None:
    """Keep the pages that another process rendered (`KeptPages.made` there), for the next build of this one."""
    _kept.update(made)


def kept_page(language: str, path: str) -> str:
    """The page kept at `path` for an edition: what a forked process gave again (`KeptPages.given_again` there)."""
    return _kept[(language, path)].page


class KeptPages:
    """One edition's kept pages in one build: gives a kept page again, or renders it and keeps it."""

    def __init__(
        self,
        states: InputStates,
        language: str,
        shared_values: tuple,
        unknown_words: set[str],
        templates_reached: Callable[[str], Iterable[str] | None],
    ) -> None:
        """`templates_reached` names the templates a template includes or imports, at any depth (None: it cannot tell)."""
        self._states = states
        self._templates_reached = templates_reached
        self._template_states: dict[str, tuple] = {}
        self._language = language
        self._shared = _digest((states.shared, language, shared_values))
        self._unknown_words = unknown_words
        self.made: dict[tuple[str, str], _Kept] = {}  # what this build rendered, for a parent process to keep
        self.given_again: set[str] = set()  # the paths of the pages this build gave again

    def page(self, path: str, template: str, reads: Iterable[str], values: tuple, render: Callable[[], str]) -> str:
        """The page at `path`, rendered from `template`, which reads the releases `reads` and is given `values` (besides
        what every page reads): the page kept from an earlier build of this process if none of that changed since, else
        rendered now."""
        read = {version: self._states.releases.get(version) for version in sorted(set(reads))}
        digest = _digest((self._shared, self._template_state(template), read, values))
        kept = _kept.get((self._language, path))
        if kept is not None and kept.digest == digest:
            self._unknown_words |= kept.unknown_words
            self.given_again.add(path)
            return kept.page
        before = set(self._unknown_words)
        self._unknown_words.clear()  # what this page asks for, even what an earlier page asked for too
        try:
            page = render()
            asked = frozenset(self._unknown_words)
        finally:
            self._unknown_words |= before
        self.made[(self._language, path)] = _kept[(self._language, path)] = _Kept(digest, page, asked)
        return page

    def _template_state(self, template: str) -> tuple:
        """The state of a template and of every template it reaches (of them all when that cannot be told)."""
        if template not in self._template_states:
            reached = self._templates_reached(template)
            names = sorted(self._states.templates) if reached is None else sorted({template, *reached})
            self._template_states[template] = tuple((name, self._states.templates.get(name)) for name in names)
        return self._template_states[template]


def _digest(values: tuple) -> str:
    """A digest of these values, by their repr: every value a page is given is a dataclass, tuple, dict or text."""
    return hashlib.blake2b(repr(values).encode(), digest_size=16).hexdigest()
