"""Turn the model into the site's generated pages and files: a plain function of the data."""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from packaging.version import Version

from . import exports, indexes
from .markup import fenced, front_matter, inline, link_target, plain, text_only
from .model import CORE_COMPONENT, Atlas, Labels
from .permalinks import redirect_page

PLATFORM_TITLES = {"python": "Python versions", "cuda": "CUDA versions", "rocm": "ROCm versions", "macos": "macOS for MPS"}
TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"


@dataclass(frozen=True, slots=True)
class GeneratedSite:
    """Markdown pages and other files keyed by their path under docs/, the navigation, and the
    Markdown tables that hand-written pages insert with macros (keyed by macro name), and the covered
    release versions, newest first."""

    pages: dict[str, str]
    files: dict[str, str]
    nav: list
    fragments: dict[str, str]
    releases: tuple[str, ...]


def badge_maker(labels: Labels) -> Callable[[str], str]:
    """The `badge` filter: a stage in text and colour, whose tooltip says what the stage means."""
    meanings = {name: " ".join(label.meaning.split()) for name in labels.order if (label := labels.label(name))}
    meanings |= {"Deprecated": "A later release deprecated the feature.", "Removed": "A later release removed the feature."}

    def badge(stage: str) -> str:
        title = html.escape(meanings.get(stage, ""), quote=True)
        return f'<span title="{title}" class="atlas-stage atlas-stage--{stage.lower()}">{labels.shown(stage)}</span>'

    return badge


@cache
def template_environment() -> Environment:
    """The Jinja environment that renders Markdown templates (no HTML autoescaping: the output is Markdown).

    One per process, so serve rebuilds reuse compiled templates; Jinja recompiles a template whose file changed.
    """
    env = Environment(
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
        site_path=exports.site_path,
    )
    return env


def generate_site(atlas: Atlas, *, site_url: str, repository: str = "") -> GeneratedSite:
    """Every generated page and file for this data, keyed by path relative to the docs directory."""
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
        "missing_releases": indexes.missing_releases(atlas),
        "core_component": CORE_COMPONENT,
        "repository": repository.rstrip("/"),
    }

    def render(template: str, **context: object) -> str:
        return env.get_template(template).render(**common, **context)

    pages = {"releases/index.md": render("releases_index.md.j2")}
    for index, release in enumerate(atlas.releases):
        pages[f"releases/{release.version}.md"] = render(
            "release.md.j2",
            release=release,
            sources=sources_by_release[release.version],
            moved=moved[release.version],
            previous=atlas.releases[index - 1] if index else None,
            next=atlas.releases[index + 1] if index + 1 < len(atlas.releases) else None,
        )
    by_topic = {topic.id: indexes.topic_lifecycles(atlas, lifecycles, topic.id) for topic in atlas.topics}
    sizes = {topic_id: len(chosen) for topic_id, chosen in by_topic.items()}
    pages["topics/index.md"] = render("topics_index.md.j2", topic_sizes=sizes)
    for topic in atlas.topics:
        chosen = by_topic[topic.id]
        pages[f"topics/{topic.id}.md"] = render(
            "topic.md.j2",
            topic=topic,
            topic_lifecycles=chosen,
            entries=indexes.topic_entries(atlas, topic.id),
            columns=indexes.release_columns(atlas, since=min((Version(lc.stages[0].version) for lc in chosen), default=None)),
            stages=indexes.stages_shown(atlas, chosen),
            platform_titles=PLATFORM_TITLES,
        )
    pages["features/index.md"] = render("features_index.md.j2")
    files = {f"features/{lc.id}/badge.svg": exports.feature_badge(lc, atlas.labels.shown(lc.latest.stage)) for lc in lifecycles.values()}
    for lifecycle in lifecycles.values():
        if lifecycle.has_history:
            pages[f"features/{lifecycle.id}.md"] = render("feature.md.j2", lifecycle=lifecycle, site_url=site_url)
        else:  # mentioned by one release only: the feature's own address leads to that entry
            target = "/" + exports.site_path(lifecycle.doc_path)
            files[f"features/{lifecycle.id}/index.html"] = redirect_page(f"/features/{lifecycle.id}/", target)
    pages["matrix.md"] = render(
        "matrix.md.j2",
        stages=indexes.stages_shown(atlas, lifecycles.values()),
        components=sorted({lc.component for lc in lifecycles.values()}),
        versions=indexes.release_columns(atlas),
    )
    pages["upgrade.md"] = render(
        "upgrade.md.j2", steps=indexes.upgrade_steps(atlas, lifecycles), deprecated_in=indexes.deprecated_in(atlas)
    )
    pages["platforms.md"] = render(
        "platforms.md.j2",
        python_lookup=indexes.platform_lookup(atlas, "python"),
        cuda_lookup=indexes.platform_lookup(atlas, "cuda"),
        rocm_lookup=indexes.platform_lookup(atlas, "rocm"),
        libraries=indexes.companion_libraries(atlas),
        companion_lookup=indexes.companion_lookup(atlas),
    )
    files |= {
        "api/releases.json": exports.releases_json(atlas, lifecycles, site_url=site_url),
        "feed.xml": exports.atom_feed(atlas, site_url=site_url),
        **exports.schema_files(),
    }
    fragments = {
        "release_table": render("_release_table.md.j2", root=""),
        "label_schemes": render("_label_schemes.md.j2"),
        "topic_table": render("_topic_table.md.j2", root="", topic_sizes=sizes),
    }
    versions = tuple(release.version for release in atlas.newest_first)
    return GeneratedSite(pages=pages, files=files, nav=build_nav(atlas), fragments=fragments, releases=versions)


def build_nav(atlas: Atlas) -> list:
    """The site navigation: releases in numeric version order, then the cross-release views."""
    return [
        {"Home": "index.md"},
        {"Releases": ["releases/index.md", *({r.version: f"releases/{r.version}.md"} for r in atlas.releases)]},
        {"Topics": ["topics/index.md", *({plain(t.title): f"topics/{t.id}.md"} for t in atlas.topics)]},
        {
            "Across releases": [
                {"Feature lifecycles": "features/index.md"},
                {"Feature matrix": "matrix.md"},
                {"Upgrade paths": "upgrade.md"},
                {"Platforms": "platforms.md"},
            ]
        },
        {"About": "about.md"},
        {"Contributing": "contributing.md"},
    ]
