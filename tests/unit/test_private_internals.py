"""An upgrade of MkDocs or Material cannot break `mkdocs build`: the code uses at most three of their private names, all in
the preview, which only `mkdocs serve --dirty` loads."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.conftest import PROJECT_DIR
from tests.support.site import copy_mini_data, copy_site_sources

THEIRS = ("mkdocs", "material", "pymdownx", "markdown")
UNMARKED_INTERNALS = {"search_index_prev"}  # Material's plugin state with no leading underscore, private all the same
MOST_PRIVATE_USES = 3
PREVIEW = "macros/plugin/preview.py"


def _private_uses(path: Path, root: Path = PROJECT_DIR) -> list[str]:
    """Where a file that imports MkDocs or Material imports, reads or replaces a private name of theirs, as
    `file:line name` (the private names of other modules, such as `os._exit`, are not theirs)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported_from_them, other_modules = set(), set()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            other_modules.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in THEIRS:
            for alias in node.names:
                imported_from_them.add(alias.asname or alias.name)
                if alias.name.startswith("_"):
                    found.append((node.lineno, alias.name))
    if not imported_from_them:
        return []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or (isinstance(node.value, ast.Name) and node.value.id in other_modules):
            continue
        owner = node.value.id if isinstance(node.value, ast.Name) else None
        private = node.attr.startswith("_") and not node.attr.startswith("__") and owner not in {"self", "cls"}
        replaced = isinstance(node.ctx, ast.Store) and owner in imported_from_them  # a class of theirs changed at run time
        if private or replaced or node.attr in UNMARKED_INTERNALS:
            found.append((node.lineno, node.attr))
    relative = path.relative_to(root)
    return [f"{relative}:{line} {name}" for line, name in sorted(found)]


def test_at_most_three_private_names_of_mkdocs_or_material_all_in_the_preview():
    uses = [use for top in ("macros", "tools") for path in sorted((PROJECT_DIR / top).rglob("*.py")) for use in _private_uses(path)]
    assert len(uses) <= MOST_PRIVATE_USES, uses
    assert all(use.startswith(PREVIEW) for use in uses), uses


def test_the_scan_finds_a_private_name_and_a_replaced_class_attribute(tmp_path):
    sample = tmp_path / "scan_sample.py"
    sample.write_text(
        "from mkdocs.theme import Theme\nfrom mkdocs.commands.build import _populate_page\n"
        "import os\nTheme.get_env = None\nindex._segment_chinese(None, 'x')\nself._mine = 1\nos._exit(0)\n",
        encoding="utf-8",
    )
    uses = _private_uses(sample, tmp_path)
    assert [use.split(" ")[1] for use in uses] == ["_populate_page", "get_env", "_segment_chinese"]


def test_a_full_build_never_loads_the_preview(tmp_path):
    """`mkdocs build` runs in a process that is then asked which of the site's modules it loaded."""
    project = copy_site_sources(tmp_path / "project", with_data=False)
    copy_mini_data(project / "data")
    script = (
        "import runpy, sys\n"
        f"sys.argv = ['mkdocs', 'build', '--strict', '--quiet', '--site-dir', {str(tmp_path / 'site')!r}]\n"
        "try:\n    runpy.run_module('mkdocs', run_name='__main__')\nexcept SystemExit as stop:\n    assert not stop.code, stop.code\n"
        "print(' '.join(sorted(name for name in sys.modules if name.startswith('macros'))))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=project, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    loaded = result.stdout.split()
    assert "macros.render.site" in loaded and "macros.plugin.theme" in loaded  # the build ran the site's hooks
    assert "macros.plugin.preview" not in loaded
