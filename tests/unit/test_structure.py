"""The generator's modules call only forward: each imports only modules of an earlier stage."""

from __future__ import annotations

import ast

from tests.conftest import PROJECT_DIR

# Stages in the order data flows, as dotted paths inside `macros` (`api.catalog` is macros/api/catalog.py); a module may
# import only modules listed before it.
ORDER = (
    "yamlfile", "markup", "urls", "model", "sanitize", "schema", "loading", "api.catalog", "builds.catalog", "builds.pypi", "api.reference",
    "api.truth", "indexes", "joins", "exports", "builds.published", "i18n.texts", "i18n.glossary", "i18n.store", "i18n.edition", "forking", "kept_pages", "page_parts", "generate",
    "registry", "build", "page_macros", "highlighting", "searching", "preview", "watching", "reloading", "i18n.theme", "hooks", "check", "example_worker", "release_env",
    "api.worker", "api.extract", "examples", "api.index", "api.__init__", "builds.fatbin", "builds.wheels", "builds.install",
    "builds.__init__", "releaseday.watch", "releaseday.draft", "releaseday.__init__", "i18n.todo", "i18n.__init__", "__init__",
)  # fmt: skip
MACROS = PROJECT_DIR / "macros"


def _imports(module: str) -> set[str]:
    """The package modules that macros/<module as a path>.py imports, as dotted paths inside `macros`."""
    path = MACROS.joinpath(*module.split(".")).with_suffix(".py")
    package = module.split(".")[:-1]  # where a relative import starts
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom) or not (node.level or (node.module or "").startswith("macros")):
            continue
        base = package[: len(package) - node.level + 1] if node.level else []
        named = (node.module or "").removeprefix("macros").lstrip(".").split(".") if node.module else []
        target = ".".join([*base, *[part for part in named if part]])
        found.update([target] if node.module else [f"{target}.{alias.name}".lstrip(".") for alias in node.names])
    return found


def test_every_module_has_a_stage():
    assert {".".join(path.relative_to(MACROS).with_suffix("").parts) for path in MACROS.rglob("*.py")} == set(ORDER)


def test_imports_only_point_to_earlier_stages():
    for position, module in enumerate(ORDER):
        later = _imports(module) - set(ORDER[:position])
        assert not later, f"macros/{module}.py imports {sorted(later)}, which come later in the data flow"


def test_the_loader_never_imports_a_later_stage():
    assert _imports("loading") == {"markup", "model", "schema", "yamlfile"}
