"""What a release needs (issue 24): the licence, the changelog of every version, the CI recipe, and a
README snippet whose ``rev:`` is this version's tag (tests/test_readme_snippet.py runs it verbatim)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

import verifier

ROOT = Path(__file__).resolve().parent.parent


def test_license_is_mit_with_the_authors() -> None:
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "Copyright (c) 2026 the sparkeq authors" in text


def test_changelog_has_every_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text()
    assert re.search(rf"^## {re.escape(verifier.__version__)} ", text, re.M)
    assert re.search(r"^## 0\.1\.0 ", text, re.M)


def test_readme_pre_commit_snippet_names_this_version() -> None:
    text = (ROOT / "README.md").read_text()
    snippet = re.search(r"```yaml\n(.*?)```", text[text.index("**pre-commit.**"):], re.S).group(1)
    config = yaml.safe_load(snippet)
    (repo,) = config["repos"]
    assert repo["rev"] == f"v{verifier.__version__}"
    assert [h["id"] for h in repo["hooks"]] == ["sparkeq"]
    assert yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())[0]["id"] == "sparkeq"


def test_ci_recipe() -> None:
    workflow = yaml.safe_load((ROOT / "docs" / "ci" / "github-actions.yml").read_text())
    steps = workflow["jobs"]["sparkeq"]["steps"]
    java = next(s for s in steps if s.get("uses", "").startswith("actions/setup-java"))
    assert str(java["with"]["java-version"]) == "17"
    cache = next(s for s in steps if s.get("uses", "").startswith("actions/cache"))
    assert "pre-commit" in cache["with"]["path"]
    runs = " ".join(s.get("run", "") for s in steps)
    assert "pre-commit run sparkeq" in runs and '--from-ref "$base" --to-ref HEAD' in runs
    assert "base=origin/main" in runs
    checkout = next(s for s in steps if s.get("uses", "").startswith("actions/checkout"))
    assert checkout["with"]["fetch-depth"] == 0  # the merge base with origin/main is in the clone
