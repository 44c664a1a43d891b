"""Turn the model into the site's generated pages and files: a plain function of the data."""

from __future__ import annotations

import functools
import hashlib
import html
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from jinja2 import Environment, FileSystemBytecodeCache, FileSystemLoader, StrictUndefined, meta, pass_eval_context
from packaging.version import Version

from macros.data.api_catalog import ApiCatalog, empty_catalog
from macros.data.builds_catalog import Builds
from macros.data.markup import fenced, front_matter, front_matter_problem, inline, link_target, literal, plain, text_only
from macros.data.model import BLOCK_STATUSES, CORE_COMPONENT, Atlas, BlockResult, FeatureRecord, Labels, Release
from macros.data.remembered import Remembered, Same, remembered_or_new
from macros.data.yamlfile import DataError, DataErrors
from macros.render import exports
from macros.views import indexes, urls
from macros.views.api_reference import (
    Reference,
    cited_apis,
    deprecations,
    entry_texts,
    mentions_json,
    published_index,
    reference_pages,
)
from macros.views.builds import (
    COMPANIONS,
    PLATFORM_NAMES,
    builds_json,
    compatibility_json,
    constructed_commands,
    feed_notes,
    patch_releases,
    release_builds,
    resolver_choices,
    sources_of,
    uncovered_on_pypi,
)
from macros.views.edition import ENGLISH, LANGUAGE_NAMES, Edition, english_edition
from macros.views.slots import MARKER, HtmlSlots, source_links, source_list

PLATFORM_TITLES = {"python": "Python versions", "cuda": "CUDA versions", "rocm": "ROCm versions", "macos": "macOS for MPS"}
TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class GeneratedSite:
    """What one build generates from the data: Markdown pages and other files keyed by their path under docs/,
    the navigation, the Markdown tables that hand-written pages insert with macros (keyed by macro name), and
    every URL and anchor the site serves (from the site root, as the registry records them), and the finished HTML
    that pages show in place of their slot markers."""

    atlas: Atlas
    lifecycles: dict[str, indexes.Lifecycle]
    pages: dict[str, str]
    files: dict[str, str]
    nav: list
    fragments: dict[str, dict[str, str]]  # by edition language, then macro name
    published: frozenset[str]
    slots: HtmlSlots
    editions: dict[str, Edition]


def badge_maker(labels: Labels, edition: Edition | None = None) -> Callable[[str], str]:
    """The `badge` filter: a stage in text and colour, whose tooltip says what the stage means (in another edition,
    after the label's gloss: the label itself is always the word its release used)."""
    _ = edition.gettext if edition else str
    meanings = {name: " ".join(label.meaning.split()) for name in labels.order if (label := labels.label(name))}
    meanings |= {"Deprecated": _("A later release deprecated the feature."), "Removed": _("A later release removed the feature.")}
    glosses = edition.glosses if edition else {}

    def badge(stage: str) -> str:
        meaning = f"{glosses[stage]}：{meanings.get(stage, '')}" if stage in glosses else meanings.get(stage, "")
        title = html.escape(meaning, quote=True)
        shown = shown_stage(labels, stage, edition)
        return f'<span title="{title}" class="atlas-stage atlas-stage--{stage.lower()}">{shown}</span>'

    return badge


def shown_stage(labels: Labels, stage: str, edition: Edition | None = None) -> str:
    """A stage as the site writes it: a label word exactly as its release used it, in every edition; the words for
    no label, deprecated and removed in the edition's language."""
    if stage in labels.order and stage != labels.unlabeled.name:
        return stage
    return edition.gettext(labels.shown(stage)) if edition else labels.shown(stage)


def check_summary(result: BlockResult | None, edition: Edition | None = None) -> str:
    """One line under a code block that says what `make examples` found, and on which torch and Python (the detail
    is the tool's own report, in English in every edition)."""
    _ = edition.gettext if edition else str
    if result is None:
        return _("Not run yet by make examples.")
    on = _("torch %(torch)s, Python %(python)s") % {"torch": result.torch, "python": result.python}
    if result.processes:
        on += _(", in %(n)s processes") % {"n": result.processes}
    facts = {"on": on, "detail": result.detail, "torch": result.torch}
    return {
        "ran": _("Ran on %(on)s: %(detail)s."),
        "raised": _("Ran on %(on)s: raised at %(detail)s."),
        "names-checked": _("Checked statically in torch %(torch)s, not run: %(detail)s."),
        "not-run": "%(detail)s.",
        "failed": _("Failed on %(on)s: %(detail)s") if result.torch else _("Failed: %(detail)s"),
    }[result.outcome] % (facts | {"detail": result.detail.capitalize()} if result.outcome == "not-run" else facts)


# Compiled Jinja templates (these Markdown templates and the theme's), kept between builds in a private folder under
# the system's temporary directory; Jinja compares each template's source with its checksum and recompiles on a change.
# Compiled code also depends on how the filters are called (`_never_folded`), so each version of this module keeps its own.
_THIS_VERSION = hashlib.blake2b(Path(__file__).read_bytes(), digest_size=6).hexdigest()
COMPILED_TEMPLATES = FileSystemBytecodeCache(pattern=f"__atlas_{_THIS_VERSION}_%s.cache")


@functools.cache
def template_environment() -> Environment:
    """The Jinja environment that renders Markdown templates (no HTML autoescaping: the output is Markdown).

    One per process, so serve rebuilds reuse it; its compiled templates outlive the process (COMPILED_TEMPLATES).
    """
    env = Environment(
        bytecode_cache=COMPILED_TEMPLATES,
        extensions=["jinja2.ext.i18n"],
        loader=FileSystemLoader(TEMPLATE_DIR),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters.update(
        inline=inline,
        plain=plain,
        text_only=text_only,
        link_target=link_target,
        front_matter=front_matter,
        fenced=fenced,
        site_path=urls.site_path,
        literal=literal,
    )
    env.policies["ext.i18n.trimmed"] = True  # a `{% trans %}` block's text is one line, however the template wraps it
    env.install_null_translations(newstyle=True)  # English until an edition installs its own words
    env.globals.update(urls=urls, core_component=CORE_COMPONENT, grid_row=indexes.grid_row, block_statuses=BLOCK_STATUSES)
    return env


def generate_site(
    atlas: Atlas,
    *,
    site_url: str,
    repository: str = "",
    catalog: ApiCatalog | None = None,
    builds: Builds | None = None,
    translations: tuple[Edition, ...] = (),
    remembered: Remembered | None = None,
) -> GeneratedSite:
    """Every generated page and file for this data (and the measured API index and builds, when there are), keyed by
    path relative to the docs directory: the English pages, then each translated edition's under its language folder.
    The files (JSON, feed, badges, redirects) are the English edition's: they are read by tools, not by people. With
    `remembered` (`make serve`), what depends on the API index alone is made once while the index is unchanged."""
    if catalog is None:  # made once per set of releases, so a data edit does not make every page look changed
        versions = tuple(release.version for release in atlas.releases)
        catalog = remembered_or_new(remembered).get("empty-api-catalog", versions, lambda: empty_catalog(versions))
    reference = Reference.of(catalog, remembered, deprecations(atlas))
    # Releases measured, and whose release before was too: what they changed in the API is known.
    pairs = zip(catalog.releases[1:], catalog.measured[:-1], catalog.measured[1:], strict=True)
    measured = [version for version, before, found in pairs if before and found]
    api_changes = {v: (*map(len, reference.changed_in(v)), len(reference.parameter_changes(v))) for v in measured}
    # each release's patch releases on PyPI with what must match them: made once while the data is the same
    patches = remembered_or_new(remembered).get("patch-releases", (Same(atlas), Same(builds)), lambda: _patch_releases(atlas, builds))
    shared = _Shared(site_url, repository.rstrip("/"), reference, api_changes, patches, builds, remembered)
    english = english_edition(atlas)
    slots = HtmlSlots()

    made = {edition.language: _edition_pages(edition, shared, slots) for edition in (english, *translations)}
    files = {**made[ENGLISH].files, **_tool_files(atlas, catalog, builds, made[ENGLISH].lifecycles, patches, site_url, remembered)}
    names = {e.language: made[e.language].feature_names for e in translations}
    files[urls.FEATURE_NAMES] = exports.feature_names_json(made[ENGLISH].histories, atlas.labels, site_url=site_url, translated=names)
    pages = {path: page for edition in made.values() for path, page in edition.pages.items()}
    patch_anchors = {version: [patch.anchor for patch in found] for version, found in patches.items()}
    for edition in translations:  # its redirect stubs, and the words its pages give the scripts
        files |= made[edition.language].files | {f"{edition.prefix}{urls.WORDS_SCRIPT}": edition.words_script()}
    hand_written = [edition.prefix + path for edition in (english, *translations) for path in urls.HAND_WRITTEN]
    published = published_urls(atlas, [*hand_written, *pages, *files], patch_anchors, [e.prefix for e in translations])
    files |= {r.old.lstrip("/") + "index.html": redirect_page(r.old.lstrip("/"), r.new.lstrip("/")) for r in atlas.redirects}
    _check_front_matter(pages)
    nav = made[ENGLISH].nav + [{LANGUAGE_NAMES[e.language]: made[e.language].nav} for e in translations]
    return GeneratedSite(
        atlas=atlas,
        lifecycles=made[ENGLISH].lifecycles,
        pages=pages,
        files=files,
        nav=nav,
        fragments={language: edition.fragments for language, edition in made.items()},
        published=published,
        slots=slots,
        editions={e.language: e for e in (english, *translations)},
    )


def _patch_releases(atlas: Atlas, builds: Builds | None) -> dict[str, list]:
    """Each release's patch releases on PyPI, with their wheels, commands and what must match them."""
    return {release.version: patch_releases(builds, release) if builds else [] for release in atlas.releases}


def _builds_files(atlas: Atlas, shared: _Shared) -> dict[str, str]:
    """The files about builds: what the resolver reads, and every build for tools."""
    builds, patches, site_url = shared.builds, shared.patches, shared.site_url
    return {
        urls.COMPATIBILITY: compatibility_json(atlas, builds, patches, site_url=site_url),
        urls.BUILDS: builds_json(atlas, builds, patches, site_url=site_url),
    }


def _tool_files(
    atlas: Atlas, catalog: ApiCatalog, builds: Builds | None, lifecycles: dict, patches: dict, site_url: str, remembered: Remembered | None
) -> dict[str, str]:
    """The files read by tools (API index and mentions, releases JSON, feed, schemas), made from the data alone."""
    return {
        urls.API_INDEX: published_index(catalog, urls.absolute(site_url, urls.API_INDEX_SCHEMA), remembered),
        urls.API_MENTIONS: mentions_json(atlas, urls.absolute(site_url, urls.API_MENTIONS_SCHEMA)),
        urls.RELEASES_JSON: exports.releases_json(atlas, lifecycles, site_url=site_url),
        urls.FEED: exports.atom_feed(
            atlas,
            site_url=site_url,
            patches={version: [(patch.version, patch.date) for patch in found] for version, found in patches.items()},
            checked=builds.read["date"] if builds else "",
            notes=feed_notes(atlas, builds, patches) if builds else None,
        ),
        **exports.schema_files(),
    }


@dataclass(frozen=True, slots=True)
class _Shared:
    """What every edition's pages are made from besides its own texts: the measured API, builds and PyPI releases."""

    site_url: str
    repository: str
    reference: Reference
    api_changes: dict
    patches: dict
    builds: Builds | None
    remembered: Remembered | None


@dataclass(frozen=True, slots=True)
class _EditionPages:
    """One edition's pages (keyed by their path under docs/, its language folder included), nav and fragments, its
    feature names (by id, as text), and the English edition's badges and redirect stubs. A translated edition's
    lifecycles and histories are its own."""

    lifecycles: dict[str, indexes.Lifecycle]
    histories: dict[str, indexes.FeatureHistory]
    pages: dict[str, str]
    files: dict[str, str]
    nav: list
    fragments: dict[str, str]
    feature_names: dict[str, str]


@dataclass
class _EditionRender:
    """What every page of one edition is rendered with: its texts, the shared inputs, the lifecycles, and the Jinja
    environment set to its words."""

    edition: Edition
    shared: _Shared
    slots: HtmlSlots
    env: Environment
    lifecycles: dict[str, indexes.Lifecycle]
    common: dict
    page_inputs: dict  # what a release's or a feature's page reads besides its own context
    rendered: set[str] = field(default_factory=set)  # the templates rendered since the kind in hand began

    @classmethod
    def of(cls, edition: Edition, shared: _Shared, slots: HtmlSlots) -> _EditionRender:
        atlas = edition.atlas
        env = template_environment()
        env.install_gettext_callables(edition.gettext, edition.ngettext, newstyle=True)
        badge = badge_maker(atlas.labels, edition)
        env.filters |= {  # set per edition: the labels are data, and the words are the edition's
            "shown": _never_folded(lambda stage: shown_stage(atlas.labels, stage, edition)),
            "long_date": _never_folded(edition.long_date),
            "check_summary": _never_folded(lambda result: check_summary(result, edition)),
            # stages and links to sources as finished HTML, which Markdown need not read: this build's slots hold them
            "badge": _never_folded(lambda stage: slots.put(badge(stage))),
            "source_links": _never_folded(lambda urls, sources: slots.put(source_links(urls, sources))),
            "source_list": _never_folded(lambda sources: slots.put(source_list(sources))),
            # a text read from outside (a wheel's requirement line) as code, escaped, which Markdown never reads
            "code_text": _never_folded(lambda text: slots.put(f"<code>{html.escape(text, quote=False)}</code>")),
        }
        lifecycles = indexes.build_lifecycles(atlas)
        common = {
            "atlas": atlas,
            "edition": edition,
            "lifecycles": lifecycles,
            "label_order": atlas.labels.order,
            "stage_order": indexes.stage_order(atlas),
            "missing_releases": indexes.missing_releases(atlas),
            "repository": shared.repository,
        }
        page_inputs = {
            "edition": edition,
            "labels": atlas.labels,
            "label_order": atlas.labels.order,
            "topics": {topic.id: topic for topic in atlas.topics},
            "oldest": atlas.releases[0].version,
            "repository": shared.repository,
            "reference": shared.reference,
            "site_url": shared.site_url,
        }
        return cls(edition, shared, slots, env, lifecycles, common | page_inputs, page_inputs)

    @property
    def atlas(self) -> Atlas:
        return self.edition.atlas

    def render(self, template: str, **context: object) -> str:
        self.rendered.add(template)
        return self.env.get_template(template).render({**self.common, **context})

    def remembered(self, kind: str, make: Callable[[], T], *, reads_atlas: bool = True) -> T:
        """What `make` renders (pages, or pages and files), given again from the last build of a `make serve` session
        while the data it reads and the templates it used are unchanged: a template edit renders again only the kinds
        of page that use the template."""
        atlas_reads = (Same(self.edition.atlas), Same(self.shared.builds)) if reads_atlas else ()  # the API reference: the index alone
        return self._given_again(("pages", kind, self.edition.language), (*self._edition_reads(), *atlas_reads), make)

    def page(self, name: str, template: str, **context: object) -> str:
        """One page of a kind that has many (a release's, a feature's), rendered from its context and the edition's
        `page_inputs` alone; given again in a `make serve` session while they and its templates are unchanged, so a
        data edit renders again only the pages it touches."""
        atlas = self.edition.atlas
        reads = (*self._edition_reads(), self.edition.untranslated, atlas.labels, atlas.topics, atlas.releases[0].version, context)

        def rendered() -> str:
            self.rendered.add(template)
            return self.env.get_template(template).render({**self.page_inputs, **context})

        return self._given_again(("page", name, self.edition.language), reads, rendered)

    def _edition_reads(self) -> tuple:
        """What every generated page of the edition may read: its words and glosses, the measured API, the site's address
        and repository."""
        edition, shared = self.edition, self.shared
        return (edition.words, edition.glosses, Same(shared.reference), shared.site_url, shared.repository)

    def _given_again(self, key: tuple, reads: tuple, make: Callable[[], T]) -> T:
        """`make()`, or what it gave in the last build of a `make serve` session when `reads` and the state of every
        template it used (imports included) are unchanged; the HTML of its slots and the interface words it found
        missing come back with it."""
        remembered, edition = self.shared.remembered, self.edition
        if remembered is None:
            return make()
        known = remembered.fingerprint(key)  # what it read, and the templates it used with their state then
        outer, self.rendered = self.rendered, set()
        if known is None or known != (reads, known[1], _templates_state(known[1])):
            asked = set(edition.unknown_words)
            value = make()
            markers = {marker: self.slots.html[marker] for text in _texts(value) for marker in MARKER.findall(text)}
            used = _templates_reached(self.env, self.rendered)
            remembered.put(key, (reads, used, _templates_state(used)), (value, markers, frozenset(edition.unknown_words - asked)))
        value, markers, words = remembered.last(key)
        self.rendered = outer | remembered.fingerprint(key)[1]  # what encloses it used these templates too
        self.slots.html.update(markers)
        edition.unknown_words.update(words)
        return value


def _release_pages(r: _EditionRender) -> dict[str, str]:
    """The index of releases, and one page per release."""
    atlas, shared = r.atlas, r.shared
    moved = indexes.stage_changes(atlas, r.lifecycles)
    builds = shared.builds

    def release_page(index: int, release: Release, its_lifecycles: dict[str, indexes.Lifecycle]) -> str:
        its_builds = release_builds(builds, release.version) if builds else []
        return r.page(
            release.version,
            "release.md.j2",
            lifecycles=its_lifecycles,
            release=release,
            sources={source.url: source for source in release.sources},
            moved=moved[release.version],
            overview=indexes.release_overview(atlas, release),
            previous=atlas.releases[index - 1] if index else None,
            next=atlas.releases[index + 1] if index + 1 < len(atlas.releases) else None,
            api_changes=shared.api_changes.get(release.version),
            patch_releases=shared.patches[release.version],
            platform_names=PLATFORM_NAMES,
            install_source=builds.install["source"] if builds else "",
            release_builds=its_builds,
            constructed={
                patch.version: constructed_commands(patch.version, its_builds)
                for patch in shared.patches[release.version]
                if not patch.commands and its_builds and release.number.release[0] >= 2
            },
            companion_names=COMPANIONS,
            requirements_read=builds.requirements["read"]["date"] if builds else "",
            build_sources=sources_of(its_builds),
        )

    pages = {urls.RELEASES_INDEX: r.render("releases_index.md.j2")}
    for index, release in enumerate(atlas.releases):
        path, its_lifecycles = urls.release_doc(release.version), {feature.id: r.lifecycles[feature.id] for feature in release.features}
        pages[path] = release_page(index, release, its_lifecycles)
    return pages


def _topic_pages(r: _EditionRender, topic_sizes: dict[str, int]) -> dict[str, str]:
    """The index of topics, and one grid per topic."""
    atlas = r.atlas
    pages = {urls.TOPICS_INDEX: r.render("topics_index.md.j2", topic_sizes=topic_sizes)}
    for topic in atlas.topics:
        path, chosen, entries = (
            urls.topic_doc(topic.id),
            indexes.topic_lifecycles(atlas, r.lifecycles, topic.id),
            indexes.topic_entries(atlas, topic.id),
        )
        since = min((Version(lc.stages[0].version) for lc in chosen), default=None)
        columns = indexes.grid_columns(chosen, indexes.release_columns(atlas, since=since), r.common["missing_releases"])
        platform_releases = atlas.newest_first if topic.platform else ()  # each release's platform facts, on its page
        pages[path] = r.render(
            "topic.md.j2",
            lifecycles={},
            topic=topic,
            topic_lifecycles=chosen,
            entries=entries,
            columns=columns,
            stages=indexes.stages_shown(atlas, chosen),
            platform_titles=PLATFORM_TITLES,
            platform_releases=platform_releases,
        )
    return pages


def _feature_pages(r: _EditionRender, histories: dict[str, indexes.FeatureHistory]) -> tuple[dict[str, str], dict[str, str]]:
    """The index of features and one page per feature record; and the files that go with them: each feature's badge,
    and for a feature without a page of its own, the redirect to its entry or record."""
    atlas, edition, reference = r.atlas, r.edition, r.shared.reference
    pages = {}
    pages[urls.FEATURES_INDEX] = r.render("features_index.md.j2")
    files = {}
    for lifecycle in r.lifecycles.values():
        latest = lifecycle.latest
        files[urls.feature_badge(lifecycle.id)] = exports.feature_badge(
            lifecycle.title, atlas.labels.shown(latest.stage), latest.stage, latest.version
        )
        if not lifecycle.has_page:  # one release, or a part of a record: the address leads to the entry or the record
            redirect = edition.prefix + urls.feature_redirect(lifecycle.id)
            files[redirect] = redirect_page(urls.site_path(redirect), urls.site_path(edition.prefix + lifecycle.doc_path))

    def feature_page(history: indexes.FeatureHistory, parent: FeatureRecord | None, has_badge: bool) -> str:
        apis = cited_apis(reference, [*(f"`{name}`" for name in history.record.apis), *_entry_texts(history)])
        return r.page(
            "feature " + history.id,
            "feature.md.j2",
            lifecycles={},
            history=history,
            parent=parent,
            apis=apis,
            has_badge=has_badge,
        )

    for history in histories.values():
        latest = history.latest
        if history.id not in r.lifecycles and latest:  # a record whose own entries give it a stage
            shown = atlas.labels.shown(latest.stage)
            files[urls.feature_badge(history.id)] = exports.feature_badge(history.record.name, shown, latest.stage, latest.release.version)
        path, has_badge = urls.feature_doc(history.id), urls.feature_badge(history.id) in files
        parent = histories[history.record.part_of].record if history.record.part_of else None
        pages[path] = feature_page(history, parent, has_badge)
    return pages, files


def _matrix_page(r: _EditionRender) -> dict[str, str]:
    """The feature matrix: every feature's stage in every release."""
    every_lifecycle = tuple(r.lifecycles.values())
    stages, components = indexes.stages_shown(r.atlas, every_lifecycle), sorted({lc.component for lc in every_lifecycle})
    columns = indexes.grid_columns(every_lifecycle, indexes.release_columns(r.atlas), r.common["missing_releases"])
    return {urls.MATRIX: r.render("matrix.md.j2", stages=stages, components=components, columns=columns)}


def _cross_release_pages(r: _EditionRender) -> dict[str, str]:
    """The upgrade paths, the platforms, "Will it run?" (with builds measured) and the errors explained."""
    atlas, builds = r.atlas, r.shared.builds
    pages = {
        urls.UPGRADE: r.render(
            "upgrade.md.j2",
            steps=indexes.upgrade_steps(atlas, r.lifecycles),
            deprecated_in=indexes.deprecated_in(atlas),
            api_changes=r.shared.api_changes,
        ),
        urls.PLATFORMS: r.render(
            "platforms.md.j2",
            python_lookup=indexes.platform_lookup(atlas, "python"),
            cuda_lookup=indexes.platform_lookup(atlas, "cuda"),
            rocm_lookup=indexes.platform_lookup(atlas, "rocm"),
            libraries=indexes.companion_libraries(atlas),
            companion_lookup=indexes.companion_lookup(atlas),
        ),
    }
    if builds:
        platforms, pythons = resolver_choices(builds)
        pages[urls.WILL_IT_RUN] = r.render(
            "will_it_run.md.j2", builds=builds, patches=r.shared.patches, platforms=platforms, pythons=pythons
        )
    if atlas.errors:
        pages[urls.ERRORS_INDEX] = r.render("errors_index.md.j2")
        pages |= {urls.error_doc(error.id): r.render("error.md.j2", error=error) for error in atlas.errors}
    return pages


def _fragments(r: _EditionRender, topic_sizes: dict[str, int]) -> dict[str, str]:
    """The Markdown that hand-written pages insert through their macros, by macro name."""
    newest, builds = r.atlas.newest_first[0], r.shared.builds
    return {
        "release_table": r.render("_release_table.md.j2", root=""),
        "label_schemes": r.render("_label_schemes.md.j2"),
        "label_glosses": r.render("_label_glosses.md.j2", glosses=r.edition.glosses),
        "example_counts": r.render("_example_counts.md.j2", root=""),
        "topic_table": r.render("_topic_table.md.j2", root="", topic_sizes=topic_sizes),
        "api_lookup": r.render("_api_lookup.md.j2", up=""),
        "will_it_run_question": r.render("_will_it_run_question.md.j2") if builds else "",
        "newest_release": r.render(
            "_newest_release.md.j2",
            release=newest,
            patches=r.shared.patches[newest.version],
            checked=builds.read["date"] if builds else "",
            uncovered=uncovered_on_pypi(builds, newest) if builds else [],
        ),
    }


def _edition_pages(edition: Edition, shared: _Shared, slots: HtmlSlots) -> _EditionPages:
    """Render one edition: every generated page of the site in its language, with its texts."""
    r = _EditionRender.of(edition, shared, slots)
    atlas = edition.atlas
    topic_sizes = {topic.id: len(indexes.topic_lifecycles(atlas, r.lifecycles, topic.id)) for topic in atlas.topics}
    histories = indexes.feature_histories(atlas, r.lifecycles)
    feature_pages, files = r.remembered("features", lambda: _feature_pages(r, histories))
    files = dict(files)
    pages = {
        **r.remembered("releases", lambda: _release_pages(r)),
        **r.remembered("topics", lambda: _topic_pages(r, topic_sizes)),
        **feature_pages,
        **r.remembered("matrix", lambda: _matrix_page(r)),
        **r.remembered("across releases", lambda: _cross_release_pages(r)),
        **r.remembered("reference", lambda: reference_pages(shared.reference, r.render, slots), reads_atlas=False),
    }
    if shared.builds and edition.language == ENGLISH:
        files |= remembered_or_new(shared.remembered).get(
            "files about builds", (Same(atlas), Same(shared.builds), shared.site_url), lambda: _builds_files(atlas, shared)
        )
    return _EditionPages(
        lifecycles=r.lifecycles,
        histories=histories,
        pages={edition.prefix + path: page for path, page in pages.items()},
        files=files if edition.language == ENGLISH else {k: v for k, v in files.items() if k.startswith(edition.prefix)},
        nav=build_nav(atlas, edition, will_it_run=shared.builds is not None),
        fragments=r.remembered("fragments", lambda: _fragments(r, topic_sizes)),
        feature_names={history.id: text_only(history.record.name) for history in histories.values()},
    )


def _never_folded(function: Callable) -> Callable:
    """A filter that Jinja's compiler never applies ahead of time to a constant (`"Deprecated" | badge`): compiled
    templates are shared by the editions and by every build, and this filter differs between them."""
    return pass_eval_context(lambda eval_context, *args: function(*args))


def _templates_reached(env: Environment, names: set[str]) -> frozenset[str]:
    """These templates and every template they import or include, however deep."""
    reached, waiting = set(), list(names)
    while waiting:
        name = waiting.pop()
        if name not in reached:
            reached.add(name)
            waiting += _referenced(env, name, _file_state(name))
    return frozenset(reached)


@functools.lru_cache(maxsize=256)
def _referenced(env: Environment, name: str, state: tuple[int, int]) -> list[str]:
    """The templates one template imports or includes, as its file is now (`state` says which)."""
    return [found for found in meta.find_referenced_templates(env.parse(env.loader.get_source(env, name)[0])) if found]


def _templates_state(names: frozenset[str]) -> tuple:
    """The name, modification time and size of each of these templates."""
    return tuple((name, *_file_state(name)) for name in sorted(names))


def _file_state(name: str) -> tuple[int, int]:
    """A template file's modification time and size."""
    found = (TEMPLATE_DIR / name).stat()
    return found.st_mtime_ns, found.st_size


def _texts(value: object) -> list[str]:
    """Every string in a page kind's output (a mapping of pages, or a tuple of mappings)."""
    if isinstance(value, str):
        return [value]
    parts = value.values() if isinstance(value, dict) else value
    return [text for part in parts for text in _texts(part)]


def _entry_texts(history: indexes.FeatureHistory) -> list[str]:
    """The title, summary and details of every entry about a feature and its parts, oldest first."""
    return [text for appearance in history.everything for text in entry_texts(appearance.item)]


def _check_front_matter(pages: dict[str, str]) -> None:
    """Every generated page's front matter reads back as MkDocs will read it; a page that would lose it stops the build."""
    problems = [
        DataError(f"(generated) {path}", problem) for path, markdown in pages.items() if (problem := front_matter_problem(markdown))
    ]
    if problems:
        raise DataErrors(problems)


def published_urls(
    atlas: Atlas, paths: list[str], anchors: dict[str, list[str]] | None = None, prefixes: list[str] | tuple[str, ...] = ()
) -> frozenset[str]:
    """Every URL the site serves from these docs pages and files, plus each feature and change anchor of the release pages
    and the other `anchors` of each release page (its releases on PyPI), in English and under each edition's `prefixes`."""
    served = {urls.site_path(path) for path in paths}
    for release in atlas.releases:
        found = [anchor for item in release.entries for anchor in (item.id, *item.aliases)] + (anchors or {}).get(release.version, [])
        for prefix in ("", *prefixes):
            served.update(urls.site_path(prefix + urls.release_entry(release.version, anchor)) for anchor in found)
    return frozenset(f"/{path}" for path in served)


def redirect_page(old: str, new: str) -> str:
    """The HTML served at site path `old` (such as `features/x/`) that sends the reader on to site path `new`."""
    up = "../" * old.count("/")
    target = html.escape(up + new, quote=True)
    return (  # the theme's icon is named, or the browser asks the server root for /favicon.ico
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Moved</title>'
        f'<link rel="icon" href="{up}{urls.THEME_ICON}">'
        f'<meta http-equiv="refresh" content="0; url={target}"><link rel="canonical" href="{target}">'
        f'<meta name="robots" content="noindex"></head><body><p>This page moved to <a href="{target}">{target}</a>.</p></body></html>\n'
    )


def build_nav(atlas: Atlas, edition: Edition | None = None, *, will_it_run: bool = True) -> list:
    """The site navigation of one edition (English by default): releases newest first, grouped by series (2.x, 1.x),
    then the cross-release views."""
    edition = edition or english_edition(atlas)
    _, at = edition.gettext, edition.prefix
    series: dict[str, list[dict[str, str]]] = {}
    for release in atlas.newest_first:
        series.setdefault(f"{release.number.major}.x", []).append({release.version: at + urls.release_doc(release.version)})
    return [
        {_("Home"): at + urls.HOME},
        {_("Releases"): [at + urls.RELEASES_INDEX, *({name: releases} for name, releases in series.items())]},
        {_("Topics"): [at + urls.TOPICS_INDEX, *({plain(t.title): at + urls.topic_doc(t.id)} for t in atlas.topics)]},
        {
            _("Across releases"): [
                {_("Feature lifecycles"): at + urls.FEATURES_INDEX},
                {_("Feature matrix"): at + urls.MATRIX},
                {_("Upgrade paths"): at + urls.UPGRADE},
                {_("Platforms"): at + urls.PLATFORMS},
                *([{_("Will it run?"): at + urls.WILL_IT_RUN}] if will_it_run else []),
                *([{_("Errors"): at + urls.ERRORS_INDEX}] if atlas.errors else []),
            ]
        },
        {_("API reference"): at + urls.REFERENCE_INDEX},
        {_("About"): at + urls.ABOUT},
        {_("Contributing"): at + urls.CONTRIBUTING},
    ]
