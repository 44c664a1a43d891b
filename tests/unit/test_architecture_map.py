"""ARCHITECTURE.md's map of modules names every Python module under macros/ and tools/, and nothing else, with the project
modules each imports.

The map leaves out the empty `__init__.py` files of the subpackages; an `__init__.py` with code in it is listed."""

from __future__ import annotations

import ast
import re

from tests.conftest import PROJECT_DIR

ARCHITECTURE = PROJECT_DIR / "ARCHITECTURE.md"
PACKAGES = ("macros", "tools")
MAP_HEADING = "## Map of modules"
# The first cell of a table row: one module path in backticks, such as | `macros/data/model.py` |
ROW = re.compile(r"^\|\s*`(?P<path>[^`]+\.py)`\s*\|")


def _map_section() -> str:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    assert MAP_HEADING in text, f"ARCHITECTURE.md has no {MAP_HEADING!r} section"
    section = text.split(MAP_HEADING, 1)[1]
    return re.split(r"^## ", section, maxsplit=1, flags=re.MULTILINE)[0]


def listed_modules() -> list[str]:
    """The module paths in the first column of the map's tables, in the order they are listed."""
    return [match["path"] for line in _map_section().splitlines() if (match := ROW.match(line))]


def modules_in_code() -> set[str]:
    """Every .py file under macros/ and tools/, less the empty `__init__.py` files."""
    found = set()
    for package in PACKAGES:
        for path in (PROJECT_DIR / package).rglob("*.py"):
            if path.name == "__init__.py" and not path.read_text(encoding="utf-8").strip():
                continue
            found.add(path.relative_to(PROJECT_DIR).as_posix())
    return found


def test_the_map_lists_each_module_once():
    listed = listed_modules()
    assert listed, "the map of modules in ARCHITECTURE.md has no table rows"
    twice = sorted({path for path in listed if listed.count(path) > 1})
    assert not twice, f"ARCHITECTURE.md lists these modules more than once: {twice}"


def test_the_map_lists_exactly_the_modules_in_the_code():
    listed, present = set(listed_modules()), modules_in_code()
    missing, gone = sorted(present - listed), sorted(listed - present)
    assert not missing, f"modules missing from the map of modules in ARCHITECTURE.md: {missing}"
    assert not gone, f"ARCHITECTURE.md maps modules that do not exist: {gone}"


IMPORTS_CELL = re.compile(r"^\|\s*`(?P<path>[^`]+\.py)`\s*\|.*\|\s*(?P<imports>[^|]*?)\s*\|\s*$")


def listed_imports() -> dict[str, set[str]]:
    """Each mapped module's "Imports" cell, as dotted module names (the site's without their leading `macros.`)."""
    found = {}
    for line in _map_section().splitlines():
        if match := IMPORTS_CELL.match(line):
            cell = match["imports"]
            found[match["path"]] = set() if cell in ("–", "-", "") else {name.strip() for name in cell.split(",")}
    return found


def imports_in_code(path: str) -> set[str]:
    """The project modules a file imports, written as the map writes them."""
    modules = {module.removesuffix(".py").replace("/", ".").removesuffix(".__init__") for module in modules_in_code()}
    packages = {name.rsplit(".", 1)[0] for name in modules}
    found = set()
    for node in ast.walk(ast.parse((PROJECT_DIR / path).read_text(encoding="utf-8"))):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        found.update(name for name in names if name in modules and name not in packages)
    own = path.removesuffix(".py").replace("/", ".")
    site = path.startswith("macros/")
    return {name.removeprefix("macros.") if site and name.startswith("macros.") else name for name in found - {own}}


def test_the_map_names_what_each_module_imports():
    wrong = {
        path: f"listed {sorted(listed)}, imports {sorted(imports_in_code(path))}"
        for path, listed in listed_imports().items()
        if listed != imports_in_code(path)
    }
    assert not wrong, "ARCHITECTURE.md's Imports column disagrees with the code:\n" + "\n".join(f"{p}: {w}" for p, w in wrong.items())
