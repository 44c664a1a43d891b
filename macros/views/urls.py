"""The site's URL layout: where every page, file and anchor lives. Nothing else spells a path.

Pages are named by their Markdown path under docs/ (`releases/1.10.md`), which MkDocs serves at a
directory URL (`releases/1.10/`); links inside Markdown use the first, HTML and the exports the second.
"""

from __future__ import annotations

HOME = "index.md"
RELEASES_INDEX = "releases/index.md"
TOPICS_INDEX = "topics/index.md"
FEATURES_INDEX = "features/index.md"
MATRIX = "matrix.md"
UPGRADE = "upgrade.md"
PLATFORMS = "platforms.md"
ABOUT = "about.md"
CONTRIBUTING = "contributing.md"
REFERENCE_INDEX = "reference/index.md"
REFERENCE_MODULES = "reference/modules.md"
REFERENCE_NEEDS = "reference/needs.md"  # which torch a piece of code needs: the checker
REFERENCE_DIFF = "reference/diff.md"  # the API differences between any two releases (?from=&to=)
WILL_IT_RUN = "will-it-run.md"
ERRORS_INDEX = "errors/index.md"
HAND_WRITTEN = (HOME, ABOUT, CONTRIBUTING)

FEED = "feed.xml"
RELEASES_JSON = "api/releases.json"
RELEASES_SCHEMA = "api/releases.schema.json"
API_INDEX = "api/api-index.json"
API_INDEX_SCHEMA = "api/api-index.schema.json"
API_MENTIONS = "api/api-mentions.json"
API_MENTIONS_SCHEMA = "api/api-mentions.schema.json"
FEATURE_NAMES = "api/feature-names.json"
FEATURE_NAMES_SCHEMA = "api/feature-names.schema.json"
COMPATIBILITY = "api/compatibility.json"
COMPATIBILITY_SCHEMA = "api/compatibility.schema.json"
BUILDS = "api/builds.json"
BUILDS_SCHEMA = "api/builds.schema.json"
TORCH_NEEDS_SCRIPT = "torch_needs.py"  # the checker for the command line, kept as docs/torch_needs.py
WORDS_SCRIPT = "assets/words.js"  # in a translated edition's folder: the interface text of the scripts in its language
THEME_ICON = "assets/images/favicon.png"  # Material's default icon, which every theme page links
# What MkDocs and the theme write at the top of the site, beside the pages and files the data generates.
HREFLANG_SITEMAP = "sitemap-hreflang.xml"  # every page of every edition with its editions (`hreflang`), for search engines
THEME_OUTPUTS = ("404.html", "sitemap.xml", "sitemap.xml.gz", HREFLANG_SITEMAP, "assets/", "search/")
RELEASE_FACTS = "release-facts"  # the section of a release page that states its platforms


def release_doc(version: str) -> str:
    """A release's page: `releases/1.10.md`."""
    return f"releases/{version}.md"


def release_entry(version: str, item_id: str) -> str:
    """A feature's or change's entry on its release page: `releases/1.10.md#cuda-graphs`."""
    return with_anchor(release_doc(version), item_id)


def topic_doc(topic_id: str) -> str:
    """A topic index page."""
    return f"topics/{topic_id}.md"


def feature_doc(feature_id: str) -> str:
    """The history page of a feature that several releases mention."""
    return f"features/{feature_id}.md"


def feature_redirect(feature_id: str) -> str:
    """The page at a one-release feature's own address, which leads to its entry on the release page."""
    return f"features/{feature_id}/index.html"


def feature_badge(feature_id: str) -> str:
    """A feature's SVG status badge."""
    return f"features/{feature_id}/badge.svg"


def error_doc(error_id: str) -> str:
    """The page that explains one error."""
    return f"errors/{error_id}.md"


def reference_doc(module: str) -> str:
    """The page of one public module of torch: `reference/torch.nn.functional.md`."""
    return f"reference/{module}.md"


def reference_changes(version: str) -> str:
    """The page listing the public names a release added and removed."""
    return f"reference/releases/{version}.md"


def schema_file(name: str) -> str:
    """Where a data schema (such as `release.schema.json`) is published."""
    return f"api/{name}"


def data_file(version: str) -> str:
    """A release's data file in the repository."""
    return f"data/releases/{version}.yaml"


def anchor(prefix: str, version: str) -> str:
    """An anchor for one platform version in a table, such as `cuda-12-1` (never a dot, which CSS selectors trip on)."""
    return f"{prefix}-{version.replace(' / ', '-or-').replace('.', '-')}"


def patch_anchor(version: str) -> str:
    """The anchor of one release on PyPI on its release page, such as `patch-2-5-1`."""
    return "patch-" + version.replace(".", "-")


def with_anchor(path: str, fragment: str = "") -> str:
    """A path with an optional `#fragment`."""
    return f"{path}#{fragment}" if fragment else path


def site_path(path: str) -> str:
    """Where a docs page or generated file is served, keeping any anchor: `releases/1.10.md#x` -> `releases/1.10/#x`,
    `index.md` -> ``, `features/x/index.html` -> `features/x/`, `feed.xml` -> `feed.xml`."""
    page, _, fragment = path.partition("#")
    if page == "index.md" or page.endswith("/index.md"):
        page = page.removesuffix("index.md")
    elif page.endswith(".md"):
        page = page.removesuffix(".md") + "/"
    elif page == "index.html" or page.endswith("/index.html"):
        page = page.removesuffix("index.html")
    return with_anchor(page, fragment)


def absolute(site_url: str, path: str) -> str:
    """The absolute URL of a docs page, anchor or file."""
    return site_url + site_path(path)


def published_path(path: str) -> str:
    """A site path as the registry of published URLs writes it, from the site root: `releases/1.10/` -> `/releases/1.10/`."""
    return "/" + path
