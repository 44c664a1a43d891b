"""The layout holds: the site's stages call only forward, only the glue imports MkDocs, and the site imports no tool."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import PROJECT_DIR

# The site's stages in the order data flows. A module may import its own stage's earlier modules and earlier stages.
STAGES = (
    ("data", ("remembered", "yamlfile", "markup", "model", "schema", "texts", "glossary", "translations", "api_catalog", "builds_catalog", "loading")),
    ("views", ("urls", "slots", "indexes", "joins", "api_reference", "api_truth", "builds", "edition")),
    ("render", ("sanitize", "exports", "pages", "registry", "site")),
    ("plugin", ("highlighting", "tables", "searching", "theme", "session", "page_macros", "preview", "hooks")),
)  # fmt: skip
COMMANDS = ("check",)  # macros/check.py: `make check`, reading what the stages make
GLUE_ONLY = ("mkdocs", "material", "pymdownx", "markdown")  # what only the plugin stage may import


def _modules(top: str) -> dict[str, Path]:
    """Every module under a top-level package, by dotted name (a package by its own name)."""
    found = {}
    for path in (PROJECT_DIR / top).rglob("*.py"):
        parts = list(path.relative_to(PROJECT_DIR).with_suffix("").parts)
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _imports(path: Path) -> set[str]:
    """The modules a file imports (absolute names; the names an import takes from a package count as modules too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: imports are absolute (`from macros.data.model import …`)"
            found.add(node.module or "")
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _ordered() -> list[str]:
    return [f"macros.{stage}.{name}" for stage, names in STAGES for name in names]


def test_every_module_of_the_site_has_a_stage():
    packages = {"macros", *(f"macros.{stage}" for stage, _ in STAGES)}
    assert set(_modules("macros")) == packages | set(_ordered()) | {f"macros.{name}" for name in COMMANDS}


def test_the_site_calls_only_forward():
    order, modules = _ordered(), _modules("macros")
    for position, module in enumerate(order):
        later = {name for name in _imports(modules[module]) if name in order[position:]}
        assert not later, f"{module} imports {sorted(later)}, which come later in the data flow"


def test_only_the_plugin_imports_mkdocs_or_material():
    for module, path in _modules("macros").items():
        if module.startswith("macros.plugin"):
            continue
        glue = {name for name in _imports(path) if name.split(".")[0] in GLUE_ONLY}
        assert not glue, f"{module} imports {sorted(glue)}: only macros/plugin/ talks to MkDocs and Material"


def test_the_site_imports_no_tool_and_tools_no_glue():
    for module, path in _modules("macros").items():
        tools = {name for name in _imports(path) if name.split(".")[0] == "tools"}
        assert not tools, f"{module} imports {sorted(tools)}: the site reads data/, it never imports a tool"
    for module, path in _modules("tools").items():
        glue = {name for name in _imports(path) if name.split(".")[0] in GLUE_ONLY or name.startswith("macros.plugin")}
        assert not glue, f"{module} imports {sorted(glue)}: a tool needs no MkDocs"


def test_the_reader_imports_only_the_data_stage():
    allowed = ("macros.data.markup", "macros.data.model", "macros.data.remembered", "macros.data.schema", "macros.data.yamlfile")
    imported = {name for name in _imports(PROJECT_DIR / "macros/data/loading.py") if name.startswith("macros.")}
    assert imported and all(name == "macros.data" or name.startswith(allowed) for name in imported), sorted(imported)
