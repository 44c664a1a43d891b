"""torch_needs.py, the checker for the command line (docs/torch_needs.py, published at the site's root): the cases it
shares with the checker page, its text and JSON, its exit status, and hostile files, indexes and options, all against
the committed API index."""

from __future__ import annotations

import ast
import http.server
import importlib.util
import json
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from macros.views import urls

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / urls.TORCH_NEEDS_SCRIPT
INDEX = ROOT / "data" / "api" / "index.json"
CASES = json.loads((ROOT / "tests" / "fixtures" / "checker_cases.json").read_text(encoding="utf-8"))
NEEDS_2_0 = "import torch.nn.functional as F\n\ny = F.scaled_dot_product_attention(q, k, v)\n"


def load_script():
    """The script as a module, loaded from its file as a user's Python would run it."""
    spec = importlib.util.spec_from_file_location("torch_needs", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def needs():
    return load_script()


@pytest.fixture(scope="module")
def index(needs):
    return needs.load_index(str(INDEX))


def summary(result: dict) -> dict:
    """What a case states of an answer: its bounds, the uses that set them, and what was not checked."""

    def label(use):
        return f"{use['name']}({use['keyword']}=)" if use["keyword"] else use["name"]

    return {
        "oldest": result["oldest"],
        "newest": result["newest"],
        "sets_oldest": [label(use) for use in result["uses"] if use["sets_oldest"]],
        "sets_newest": [label(use) for use in result["uses"] if use["sets_newest"]],
        "unresolved": [[item["line"], item["why"], item["path"]] for item in result["unresolved"]],
    }


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300, cwd=cwd)


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_the_shared_cases(needs, index, case):
    expected = {key: case[key] for key in ("oldest", "newest", "sets_oldest", "sets_newest", "unresolved")}
    assert summary(needs.answer(index, [("", case["code"])])) == expected


def test_a_folder_is_read_file_by_file_and_answered_as_text_and_json(tmp_path):
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "a.py").write_text(NEEDS_2_0, encoding="utf-8")
    (tmp_path / "pkg" / "sub" / "b.py").write_text("import torch\nx = torch.load(f, weights_only=True)\n", encoding="utf-8")
    for skipped in (".venv", "__pycache__"):
        (tmp_path / "pkg" / skipped).mkdir()
        (tmp_path / "pkg" / skipped / "c.py").write_text("import torch\ntorch.no_such_name\n", encoding="utf-8")
    text = run("--index", str(INDEX), "pkg", cwd=tmp_path)
    assert text.returncode == 0, text.stderr
    assert "Needs PyTorch 2.0 or newer" in text.stdout
    assert "since 2.0: torch.nn.functional.scaled_dot_product_attention  pkg/a.py:3" in text.stdout
    as_json = run("--index", str(INDEX), "--json", "pkg", cwd=tmp_path)
    result = json.loads(as_json.stdout)
    assert result["oldest"] == "2.0" and result["newest"] is None
    assert {at["file"] for use in result["uses"] for at in use["at"]} == {"pkg/a.py", "pkg/sub/b.py"}
    assert [item["file"] for item in result["unresolved"]] == ["pkg/sub/b.py"]  # torch.load's **kwargs; c.py was not read


def test_the_exit_status_says_whether_the_oldest_release_allowed_has_everything(tmp_path):
    code = tmp_path / "code.py"
    code.write_text(NEEDS_2_0, encoding="utf-8")
    too_old = run("--index", str(INDEX), "--min", "1.13", str(code))
    assert too_old.returncode == 1
    assert "PyTorch 1.13 lacks something the code uses" in too_old.stderr
    assert run("--index", str(INDEX), "--min", "2.0", str(code)).returncode == 0
    removed = tmp_path / "removed.py"
    removed.write_text("import torch\nx, lu = torch.solve(b, A)\n", encoding="utf-8")
    assert run("--index", str(INDEX), "--min", "2.0", str(removed)).returncode == 1  # gone by then
    assert run("--index", str(INDEX), "--min", "1.5", str(removed)).returncode == 0
    unknown = run("--index", str(INDEX), "--min", "9.9", str(code))
    assert unknown.returncode == 2
    assert "--min '9.9' is not a release of the index" in unknown.stderr


@pytest.mark.timeout(300)
def test_hostile_files_get_an_answer_or_a_clear_message(tmp_path):
    (tmp_path / "latin1.py").write_bytes(b"x = '\xe9'\nimport torch\n")
    (tmp_path / "declared.py").write_bytes(b"# -*- coding: latin-1 -*-\nx = '\xe9'\nimport torch.fft\n")
    (tmp_path / "markup.py").write_bytes(b"</textarea><script>alert(1)</script>\x00\nimport torch\ntorch.zeros(1)\n")
    (tmp_path / "deep.py").write_text("torch.zeros(" * 100_000 + ")" * 100_000 + "\n" + "[" * 100_000, encoding="utf-8")
    (tmp_path / "big.py").write_text(NEEDS_2_0 * (10_000_000 // len(NEEDS_2_0)), encoding="utf-8")
    done = run(
        "--index",
        str(INDEX),
        "--json",
        *(str(tmp_path / name) for name in ("latin1.py", "declared.py", "markup.py", "deep.py", "big.py", "gone.py")),
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert f"{tmp_path / 'latin1.py'}: not UTF-8 text (byte 0xe9 at offset 5)" in done.stderr
    assert f"{tmp_path / 'gone.py'}: No such file or directory" in done.stderr
    result = json.loads(done.stdout)  # the files that could be read are still answered
    assert result["oldest"] == "2.0"
    files = {at["file"].rpartition("/")[2] for use in result["uses"] for at in use["at"]}
    assert files == {"declared.py", "markup.py", "deep.py", "big.py"}


def test_a_hostile_index_is_refused_with_a_clear_message(tmp_path):
    code = tmp_path / "code.py"
    code.write_text(NEEDS_2_0, encoding="utf-8")
    (tmp_path / "text.json").write_text("</script> not json", encoding="utf-8")
    (tmp_path / "list.json").write_text("[1, 2]", encoding="utf-8")
    (tmp_path / "names.json").write_text('{"format": 1, "releases": ["1.0"], "names": {"torch": [1]}}', encoding="utf-8")
    with open(tmp_path / "huge.json", "wb") as huge:
        huge.truncate(65 << 20)
    expected = {
        "text.json": "not JSON",
        "list.json": 'not the atlas\'s API index (no "format": 1)',
        "names.json": '"names" must map each module or class to its names',
        "huge.json": "larger than 64 MB",
        "missing.json": "cannot read the index",
        "file:///etc/passwd": "an index is a file or an http(s) URL",
    }
    for name, message in expected.items():
        where = name if "://" in name else str(tmp_path / name)
        done = run("--index", where, str(code))
        assert done.returncode == 2, name
        assert done.stderr.startswith(f"torch_needs.py: {where}: ") and message in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and not done.stdout


def test_the_index_is_read_from_a_url():
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), lambda *a: Quiet(*a, directory=str(INDEX.parent)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        done = run("--index", f"http://127.0.0.1:{server.server_port}/{INDEX.name}", str(SCRIPT))
    finally:
        server.shutdown()
    assert done.returncode == 0, done.stderr
    assert "Needs PyTorch 1.0 or newer" in done.stdout  # the script itself uses no torch name


def test_the_default_index_is_the_one_the_site_publishes(needs):
    site_url = re.search(r'^site_url: !ENV \[SITE_URL, "([^"]+)"\]', (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M)[1]
    assert urls.absolute(site_url, urls.API_INDEX) == needs.INDEX_URL


def test_it_is_one_file_of_the_standard_library_for_python_3_8():
    tree = ast.parse(SCRIPT.read_text(encoding="utf-8"), feature_version=(3, 8))
    imported = {alias.name.partition(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module.partition(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}
    calls = {node.func.attr for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)}
    assert not calls & {"removeprefix", "removesuffix"}  # str methods of 3.9
    keywords = {k.arg for node in ast.walk(tree) if isinstance(node, ast.Call) for k in node.keywords}
    assert "strict" not in keywords  # zip(strict=) is 3.10
