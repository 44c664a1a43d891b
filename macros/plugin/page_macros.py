"""Macros that hand-written pages (docs/*.md) call to cite live data, such as `{{ latest_release() }}`.

Each macro reads the site generated from the current data (`build.generate_checked`), so a page never
states a number or stage that the data no longer holds. The set is listed in docs/contributing.md.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from pathlib import Path

from macros.data.markup import plain
from macros.plugin.session import SITE_CACHE
from macros.render.pages import GeneratedSite, badge_maker
from macros.render.site import generate_checked
from macros.views import urls
from macros.views.edition import ENGLISH, LANGUAGE_NAMES
from macros.views.indexes import Lifecycle

PROJECT_DIR = Path(__file__).resolve().parents[2]
DATA_DIR = PROJECT_DIR / "data"
ARCHITECTURE_SECTIONS = ("data-format",)


def _fragment_macro(name: str, doc: str) -> Callable[..., str]:
    """A macro that inserts the Markdown fragment `name`, as rendered for the page's edition (`render/pages.py`)."""

    def macro(site: GeneratedSite, language: str = ENGLISH) -> str:
        return site.fragments[language][name]

    macro.__name__ = macro.__qualname__ = name
    macro.__doc__ = doc
    return macro


release_table = _fragment_macro("release_table", "Releases, newest first, with dates, counts per stability and change coverage.")
label_schemes = _fragment_macro(
    "label_schemes", "Every labeling scheme the data uses, with its releases, source and the meaning of each word."
)
label_glosses = _fragment_macro(
    "label_glosses", "Each stability label with its gloss in the page's language and its meaning (from the language's glossary)."
)
example_counts = _fragment_macro(
    "example_counts",
    "What `make examples` found for the code blocks of each release: how many ran and checked their result, ran in several"
    " processes, were checked statically or are not Python.",
)
topic_table = _fragment_macro("topic_table", "The topic indexes with their sizes.")
api_lookup = _fragment_macro("api_lookup", 'The box that answers "which release has torch.X?" from the measured API index.')
will_it_run_question = _fragment_macro(
    "will_it_run_question", 'The link "will it run on my GPU?" to the resolver, where the site has build data (else nothing).'
)
newest_release = _fragment_macro(
    "newest_release", "The newest covered release in two lines: its date and headline, and links to what it shipped and broke."
)


def latest_release(site: GeneratedSite) -> str:
    """The newest covered release, such as `2.14`."""
    return site.atlas.newest_first[0].version


def oldest_release(site: GeneratedSite) -> str:
    """The oldest covered release."""
    return site.atlas.releases[0].version


def count(site: GeneratedSite, what: str) -> int:
    """How many `releases`, `features` (entries in release pages), `changes` or `lifecycles` (features followed across releases)."""
    counts = _counts(site)
    if what not in counts:
        raise ValueError(f"count({what!r}): expected one of {', '.join(counts)}")
    return counts[what]


def feature_stage(site: GeneratedSite, feature_id: str, language: str = ENGLISH) -> str:
    """A feature's latest stage as a badge, with its release: `Beta in 2.0`."""
    latest = _lifecycle(site, feature_id).latest
    edition = site.editions[language]
    badge = badge_maker(edition.atlas.labels, edition)(latest.stage)
    return edition.gettext("%(stage)s in %(version)s") % {"stage": badge, "version": latest.version}


def translation_coverage(site: GeneratedSite, language: str = ENGLISH) -> str:
    """How much of the data's visible text reads in this page's language (for the English page: in every edition)."""
    editions = [site.editions[language]] if language != ENGLISH else [e for e in site.editions.values() if e.coverage]
    lines = []
    for edition in editions:
        state = edition.coverage
        line = edition.gettext(
            "%(current)s of %(total)s data texts (%(share)s) have a current %(language)s translation; %(stale)s stale, %(missing)s missing."
        )
        values = {
            "current": f"{len(state.current):,}",
            "total": f"{state.total:,}",
            "share": f"{state.share:.1%}",
            "stale": len(state.stale),
        }
        lines.append(line % (values | {"missing": len(state.missing), "language": LANGUAGE_NAMES[edition.language]}))
    return "\n\n".join(lines)


def feature_badge(site: GeneratedSite, feature_id: str) -> str:
    """A feature's SVG status badge, linked to the feature (for a page at the top of docs/)."""
    lifecycle = _lifecycle(site, feature_id)
    return f"[![{plain(lifecycle.title)}]({urls.feature_badge(feature_id)})]({lifecycle.doc_path})"


def architecture_section(site: GeneratedSite, name: str) -> str:
    """The part of ARCHITECTURE.md between `<!-- section:NAME -->` and `<!-- /section:NAME -->` (one of
    ARCHITECTURE_SECTIONS), so a hand-written page can show it without a copy; no other file can be named."""
    if name not in ARCHITECTURE_SECTIONS:
        raise ValueError(f"architecture_section({name!r}): expected one of {', '.join(ARCHITECTURE_SECTIONS)}")
    text = (PROJECT_DIR / "ARCHITECTURE.md").read_text(encoding="utf-8")
    start, end = f"<!-- section:{name} -->\n", f"<!-- /section:{name} -->"
    return text.split(start, 1)[1].split(end, 1)[0]


def _counts(site: GeneratedSite) -> dict[str, int]:
    atlas = site.atlas
    return {
        "releases": len(atlas.releases),
        "features": sum(len(r.features) for r in atlas.releases),
        "changes": sum(len(r.changes) for r in atlas.releases),
        "lifecycles": sum(lc.has_history for lc in site.lifecycles.values()),
    }


def _lifecycle(site: GeneratedSite, feature_id: str) -> Lifecycle:
    if feature_id not in site.lifecycles:
        raise ValueError(f"{feature_id!r} is not the id of any feature in data/releases/")
    return site.lifecycles[feature_id]


# Every macro, and for those that take an argument, every argument the data allows.
MACROS: dict[Callable, Callable[[GeneratedSite], Iterable[str]] | None] = {
    release_table: None,
    label_schemes: None,
    label_glosses: None,
    example_counts: None,
    topic_table: None,
    api_lookup: None,
    will_it_run_question: None,
    newest_release: None,
    latest_release: None,
    oldest_release: None,
    count: _counts,
    feature_stage: lambda site: site.lifecycles,
    translation_coverage: None,
    feature_badge: lambda site: site.lifecycles,
    architecture_section: lambda site: ARCHITECTURE_SECTIONS,
}


LANGUAGE_AWARE = {
    release_table,
    label_schemes,
    label_glosses,
    example_counts,
    topic_table,
    api_lookup,
    will_it_run_question,
    newest_release,
    feature_stage,
    translation_coverage,
}


def every_output(site: GeneratedSite) -> tuple:
    """What every macro gives for every argument it accepts, in every edition: a hand-written page renders the same
    while this does."""
    return tuple(
        macro(site, *call, *language)
        for macro, arguments in MACROS.items()
        for call in ([()] if arguments is None else [(argument,) for argument in arguments(site)])
        for language in ([(language,) for language in site.editions] if macro in LANGUAGE_AWARE else [()])
    )


def define_env(env) -> None:
    """Register the macros with mkdocs-macros; each reads the site of the current data."""

    def site() -> GeneratedSite:
        """The site this build generated (the hooks generate it first, in `on_config`), else one generated now."""
        if SITE_CACHE.site is not None:
            return SITE_CACHE.site
        conf = env.conf
        return generate_checked(
            DATA_DIR, site_url=conf["site_url"] or "/", repository=conf["extra"].get("repository", ""), cache=SITE_CACHE
        )

    def language() -> str:
        """The edition of the page being rendered: its language folder (`zh/about.md`), else English."""
        folder = env.page.file.src_uri.split("/", 1)[0] if env.page else ""
        return folder if folder in site().editions else ENGLISH

    for macro in MACROS:
        env.macro(_reading_current_site(macro, site, language if macro in LANGUAGE_AWARE else None), macro.__name__)


def _reading_current_site(macro: Callable, site: Callable[[], GeneratedSite], language: Callable[[], str] | None) -> Callable:
    """The macro as pages call it: without the site, which it reads when called (nor the page's language, for a macro
    whose output is in the page's language)."""

    @functools.wraps(macro)
    def call(*args):
        return macro(site(), *args, language()) if language else macro(site(), *args)

    del call.__wrapped__  # pages see the signature without `site`
    return call
