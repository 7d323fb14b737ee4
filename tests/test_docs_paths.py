"""Docs cite only files that are in the repository (issue 24: a README pointed at files that did not
exist). Every repository path in README.md and docs/*.md -- a path in backticks or a Markdown link whose
first directory is one of the repository's top-level directories (``docs/``, ``verifier/``, ``cases/``,
``bench/``...), or a relative link -- must exist (a ``*`` in it must match something). Example paths of
users' projects (``jobs/old.py``) start with directories the repository does not have, so they are not
taken for citations."""

from __future__ import annotations

import glob
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TOP_DIRS = {p.name for p in ROOT.iterdir() if p.is_dir() and p.name not in (".git", ".venv")}
_CODE = re.compile(r"`([^`\n]+)`")
_LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
_PATH = re.compile(r"^[\w.-]+(?:/[\w.*-]+)+/?$")


def cited(doc: Path) -> set[str]:
    """Repository paths ``doc`` cites, relative to the repository root."""
    text = doc.read_text()
    out: set[str] = set()
    for match in _CODE.finditer(text):
        for word in match.group(1).split():
            word = re.split(r"::|:\d", word)[0].rstrip(".,;)")
            if _PATH.match(word) and word.split("/")[0] in TOP_DIRS:
                out.add(word)
    for match in _LINK.finditer(text):
        target = match.group(1)
        if "://" in target or target.startswith("mailto:"):
            continue
        out.add(str((doc.parent / target).resolve().relative_to(ROOT)))
    return out


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_cited_paths_exist(doc: Path) -> None:
    missing = sorted(p for p in cited(doc) if not glob.glob(str(ROOT / p)))
    assert not missing, f"{doc.relative_to(ROOT)} cites files that are not in the repository: {missing}"


def test_the_scan_sees_citations() -> None:
    """The scanner is not vacuous: the README cites docs and modules."""
    found = cited(ROOT / "README.md")
    assert "docs/hook.md" in found and "sparklite/interpreter.py" in found
