"""Turn the model into the site's generated pages and files: a plain function of the data."""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemBytecodeCache, FileSystemLoader, StrictUndefined
from packaging.version import Version

from . import exports, indexes, urls
from .api.catalog import ApiCatalog, empty_catalog
from .api.reference import HtmlSlots, Reference, cited_apis, entry_texts, mentions_json, published_index, reference_pages
from .builds.catalog import Builds
from .builds.published import PLATFORM_NAMES, compatibility_json, patch_releases, resolver_choices, uncovered_on_pypi
from .markup import fenced, front_matter, front_matter_problem, inline, link_target, literal, plain, text_only
from .model import BLOCK_STATUSES, CORE_COMPONENT, Atlas, BlockResult, Labels
from .yamlfile import DataError, DataErrors

PLATFORM_TITLES = {"python": "Python versions", "cuda": "CUDA versions", "rocm": "ROCm versions", "macos": "macOS for MPS"}
TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"
REFERENCE_TEMPLATES = ("reference_*.j2", "_api*.j2")  # the API reference's pages use these and nothing else


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
    fragments: dict[str, str]
    published: frozenset[str]
    slots: HtmlSlots


def badge_maker(labels: Labels) -> Callable[[str], str]:
    """The `badge` filter: a stage in text and colour, whose tooltip says what the stage means."""
    meanings = {name: " ".join(label.meaning.split()) for name in labels.order if (label := labels.label(name))}
    meanings |= {"Deprecated": "A later release deprecated the feature.", "Removed": "A later release removed the feature."}

    def badge(stage: str) -> str:
        title = html.escape(meanings.get(stage, ""), quote=True)
        return f'<span title="{title}" class="atlas-stage atlas-stage--{stage.lower()}">{labels.shown(stage)}</span>'

    return badge


def check_summary(result: BlockResult | None) -> str:
    """One line under a code block that says what `make examples` found, and on which torch and Python."""
    if result is None:
        return "Not run yet by make examples."
    on = f"torch {result.torch}, Python {result.python}" + (f", in {result.processes} processes" if result.processes else "")
    return {
        "ran": f"Ran on {on}: {result.detail}.",
        "raised": f"Ran on {on}: raised at {result.detail}.",
        "names-checked": f"Checked statically in torch {result.torch}, not run: {result.detail}.",
        "not-run": f"{result.detail.capitalize()}.",
        "failed": f"Failed on {on}: {result.detail}" if result.torch else f"Failed: {result.detail}",
    }[result.outcome]


# Compiled Jinja templates (these Markdown templates and the theme's), kept between builds in a private folder under
# the system's temporary directory; Jinja compares each template's source with its checksum and recompiles on a change.
COMPILED_TEMPLATES = FileSystemBytecodeCache()


@cache
def template_environment() -> Environment:
    """The Jinja environment that renders Markdown templates (no HTML autoescaping: the output is Markdown).

    One per process, so serve rebuilds reuse it; its compiled templates outlive the process (COMPILED_TEMPLATES).
    """
    env = Environment(
        bytecode_cache=COMPILED_TEMPLATES,
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
        check_summary=check_summary,
        literal=literal,
    )
    env.globals.update(urls=urls, core_component=CORE_COMPONENT, grid_row=indexes.grid_row, block_statuses=BLOCK_STATUSES)
    return env


def generate_site(
    atlas: Atlas, *, site_url: str, repository: str = "", catalog: ApiCatalog | None = None, builds: Builds | None = None
) -> GeneratedSite:
    """Every generated page and file for this data (and the measured API index and builds, when there are), keyed by
    path relative to the docs directory."""
    env = template_environment()
    env.filters["badge"] = badge_maker(atlas.labels)  # set per build: the labels are data
    env.filters["shown"] = atlas.labels.shown
    lifecycles = indexes.build_lifecycles(atlas)
    moved = indexes.stage_changes(atlas, lifecycles)
    sources_by_release = {r.version: {s.url: s for s in r.sources} for r in atlas.releases}
    common = {
        "atlas": atlas,
        "lifecycles": lifecycles,
        "label_order": atlas.labels.order,
        "stage_order": indexes.stage_order(atlas),
        "missing_releases": indexes.missing_releases(atlas),
        "repository": repository.rstrip("/"),
    }

    def render(template: str, **context: object) -> str:
        return env.get_template(template).render(**common, **context)

    catalog = catalog or empty_catalog(tuple(release.version for release in atlas.releases))
    reference = Reference.of(catalog)
    # Releases measured, and whose release before was too: what they changed in the API is known.
    pairs = zip(catalog.releases[1:], catalog.measured[:-1], catalog.measured[1:], strict=True)
    measured = [version for version, before, found in pairs if before and found]
    api_changes = {v: (*map(len, reference.changed_in(v)), len(reference.parameter_changes(v))) for v in measured}

    patches = {release.version: patch_releases(builds, release) if builds else [] for release in atlas.releases}
    pages = {urls.RELEASES_INDEX: render("releases_index.md.j2")}
    for index, release in enumerate(atlas.releases):
        pages[urls.release_doc(release.version)] = render(
            "release.md.j2",
            release=release,
            sources=sources_by_release[release.version],
            moved=moved[release.version],
            overview=indexes.release_overview(atlas, release),
            previous=atlas.releases[index - 1] if index else None,
            next=atlas.releases[index + 1] if index + 1 < len(atlas.releases) else None,
            api_changes=api_changes.get(release.version),
            patch_releases=patches[release.version],
            platform_names=PLATFORM_NAMES,
            install_source=builds.install["source"] if builds else "",
        )
    by_topic = {topic.id: indexes.topic_lifecycles(atlas, lifecycles, topic.id) for topic in atlas.topics}
    sizes = {topic_id: len(chosen) for topic_id, chosen in by_topic.items()}
    pages[urls.TOPICS_INDEX] = render("topics_index.md.j2", topic_sizes=sizes)
    for topic in atlas.topics:
        chosen = by_topic[topic.id]
        pages[urls.topic_doc(topic.id)] = render(
            "topic.md.j2",
            topic=topic,
            topic_lifecycles=chosen,
            entries=indexes.topic_entries(atlas, topic.id),
            columns=indexes.grid_columns(
                chosen,
                indexes.release_columns(atlas, since=min((Version(lc.stages[0].version) for lc in chosen), default=None)),
                common["missing_releases"],
            ),
            stages=indexes.stages_shown(atlas, chosen),
            platform_titles=PLATFORM_TITLES,
        )
    pages[urls.FEATURES_INDEX] = render("features_index.md.j2")
    files = {}
    for lifecycle in lifecycles.values():
        latest = lifecycle.latest
        files[urls.feature_badge(lifecycle.id)] = exports.feature_badge(
            lifecycle.title, atlas.labels.shown(latest.stage), latest.stage, latest.version
        )
        if not lifecycle.has_page:  # mentioned by one release only: the feature's own address leads to that entry
            redirect = urls.feature_redirect(lifecycle.id)
            files[redirect] = redirect_page(urls.site_path(redirect), urls.site_path(lifecycle.doc_path))
    histories = indexes.feature_histories(atlas, lifecycles)
    for history in histories.values():
        latest = history.latest
        if history.id not in lifecycles and latest:  # a record whose own entries give it a stage
            shown = atlas.labels.shown(latest.stage)
            files[urls.feature_badge(history.id)] = exports.feature_badge(history.record.name, shown, latest.stage, latest.release.version)
        apis = cited_apis(reference, [*(f"`{name}`" for name in history.record.apis), *_entry_texts(history)])
        pages[urls.feature_doc(history.id)] = render(
            "feature.md.j2",
            history=history,
            histories=histories,
            site_url=site_url,
            apis=apis,
            reference=reference,
            has_badge=urls.feature_badge(history.id) in files,
        )
    pages[urls.MATRIX] = render(
        "matrix.md.j2",
        stages=indexes.stages_shown(atlas, lifecycles.values()),
        components=sorted({lc.component for lc in lifecycles.values()}),
        columns=indexes.grid_columns(lifecycles.values(), indexes.release_columns(atlas), common["missing_releases"]),
    )
    pages[urls.UPGRADE] = render(
        "upgrade.md.j2", steps=indexes.upgrade_steps(atlas, lifecycles), deprecated_in=indexes.deprecated_in(atlas), api_changes=api_changes
    )
    pages[urls.PLATFORMS] = render(
        "platforms.md.j2",
        python_lookup=indexes.platform_lookup(atlas, "python"),
        cuda_lookup=indexes.platform_lookup(atlas, "cuda"),
        rocm_lookup=indexes.platform_lookup(atlas, "rocm"),
        libraries=indexes.companion_libraries(atlas),
        companion_lookup=indexes.companion_lookup(atlas),
    )
    files = files | (_builds_pages(atlas, builds, patches, render, pages, site_url) if builds else {})
    if atlas.errors:
        pages[urls.ERRORS_INDEX] = render("errors_index.md.j2")
        pages |= {urls.error_doc(error.id): render("error.md.j2", error=error) for error in atlas.errors}
    slots = HtmlSlots()
    pages |= reference_pages(reference, render, slots, templates=_template_state(REFERENCE_TEMPLATES))
    files[urls.API_INDEX] = published_index(catalog, urls.absolute(site_url, urls.API_INDEX_SCHEMA))
    files |= {
        urls.API_MENTIONS: mentions_json(atlas, urls.absolute(site_url, urls.API_MENTIONS_SCHEMA)),
        urls.FEATURE_NAMES: exports.feature_names_json(histories, atlas.labels, site_url=site_url),
        urls.RELEASES_JSON: exports.releases_json(atlas, lifecycles, site_url=site_url),
        urls.FEED: exports.atom_feed(
            atlas,
            site_url=site_url,
            patches={version: [(patch.version, patch.date) for patch in found] for version, found in patches.items()},
            checked=builds.read["date"] if builds else "",
        ),
        **exports.schema_files(),
    }
    patch_anchors = {version: [patch.anchor for patch in found] for version, found in patches.items()}
    published = published_urls(atlas, [*urls.HAND_WRITTEN, *pages, *files], patch_anchors)
    files |= {r.old.lstrip("/") + "index.html": redirect_page(r.old.lstrip("/"), r.new.lstrip("/")) for r in atlas.redirects}
    _check_front_matter(pages)
    fragments = {
        "release_table": render("_release_table.md.j2", root=""),
        "label_schemes": render("_label_schemes.md.j2"),
        "example_counts": render("_example_counts.md.j2", root=""),
        "topic_table": render("_topic_table.md.j2", root="", topic_sizes=sizes),
        "api_lookup": render("_api_lookup.md.j2", up=""),
        "newest_release": render(
            "_newest_release.md.j2",
            release=atlas.newest_first[0],
            patches=patches[atlas.newest_first[0].version],
            checked=builds.read["date"] if builds else "",
            uncovered=uncovered_on_pypi(builds, atlas.newest_first[0]) if builds else [],
        ),
    }
    return GeneratedSite(
        atlas=atlas,
        lifecycles=lifecycles,
        pages=pages,
        files=files,
        nav=build_nav(atlas, will_it_run=builds is not None),
        fragments=fragments,
        published=published,
        slots=slots,
    )


def _builds_pages(
    atlas: Atlas, builds: Builds, patches: dict, render: Callable[..., str], pages: dict[str, str], site_url: str
) -> dict[str, str]:
    """The "Will it run?" page (into `pages`) and the file its resolver reads (returned)."""
    platforms, pythons = resolver_choices(builds)
    pages[urls.WILL_IT_RUN] = render("will_it_run.md.j2", builds=builds, patches=patches, platforms=platforms, pythons=pythons)
    return {urls.COMPATIBILITY: compatibility_json(atlas, builds, site_url=site_url)}


def _template_state(patterns: tuple[str, ...]) -> tuple:
    """The name, modification time and size of each template that matches one of the patterns."""
    found = sorted(path for pattern in patterns for path in TEMPLATE_DIR.glob(pattern))
    return tuple((path.name, path.stat().st_mtime_ns, path.stat().st_size) for path in found)


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


def published_urls(atlas: Atlas, paths: list[str], anchors: dict[str, list[str]] | None = None) -> frozenset[str]:
    """Every URL the site serves from these docs pages and files, plus each feature and change anchor of the release pages
    and the other `anchors` of each release page (its releases on PyPI)."""
    served = {urls.site_path(path) for path in paths}
    for release in atlas.releases:
        found = [anchor for item in release.entries for anchor in (item.id, *item.aliases)] + (anchors or {}).get(release.version, [])
        served.update(urls.site_path(urls.release_entry(release.version, anchor)) for anchor in found)
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


def build_nav(atlas: Atlas, *, will_it_run: bool = True) -> list:
    """The site navigation: releases newest first, grouped by series (2.x, 1.x), then the cross-release views."""
    series: dict[str, list[dict[str, str]]] = {}
    for release in atlas.newest_first:
        series.setdefault(f"{release.number.major}.x", []).append({release.version: urls.release_doc(release.version)})
    return [
        {"Home": urls.HOME},
        {"Releases": [urls.RELEASES_INDEX, *({name: releases} for name, releases in series.items())]},
        {"Topics": [urls.TOPICS_INDEX, *({plain(t.title): urls.topic_doc(t.id)} for t in atlas.topics)]},
        {
            "Across releases": [
                {"Feature lifecycles": urls.FEATURES_INDEX},
                {"Feature matrix": urls.MATRIX},
                {"Upgrade paths": urls.UPGRADE},
                {"Platforms": urls.PLATFORMS},
                *([{"Will it run?": urls.WILL_IT_RUN}] if will_it_run else []),
                *([{"Errors": urls.ERRORS_INDEX}] if atlas.errors else []),
            ]
        },
        {"API reference": urls.REFERENCE_INDEX},
        {"About": urls.ABOUT},
        {"Contributing": urls.CONTRIBUTING},
    ]
