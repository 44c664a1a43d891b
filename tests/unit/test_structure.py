"""The generator's modules call only forward: each imports only modules of an earlier stage."""

from __future__ import annotations

import ast

from tests.conftest import PROJECT_DIR

# Stages in the order data flows; a module may import only modules listed before it.
ORDER = (
    "yamlfile", "markup", "urls", "model", "sanitize", "schema", "loading", "indexes", "joins",
    "exports", "generate", "registry", "build", "page_macros", "highlighting", "searching", "forking", "preview", "watching", "hooks", "check", "example_worker", "examples", "__init__",
)  # fmt: skip


def _imports(module: str) -> set[str]:
    """The package modules that `macros/<module>.py` imports."""
    tree = ast.parse((PROJECT_DIR / "macros" / f"{module}.py").read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level == 1 or (node.module or "").startswith("macros")):
            name = (node.module or "").removeprefix("macros").lstrip(".")
            found.update([name] if name else [alias.name for alias in node.names])
    return found


def test_every_module_has_a_stage():
    assert {path.stem for path in (PROJECT_DIR / "macros").glob("*.py")} == set(ORDER)


def test_imports_only_point_to_earlier_stages():
    for position, module in enumerate(ORDER):
        later = _imports(module) - set(ORDER[:position])
        assert not later, f"macros/{module}.py imports {sorted(later)}, which come later in the data flow"


def test_the_loader_never_imports_a_later_stage():
    assert _imports("loading") == {"markup", "model", "schema", "yamlfile"}
