"""The rows of a statements table in docs/scripts.md (statement | example | outcome), for the tests that
walk them (tests/test_scripts_table.py, tests/test_scripts_rdd_table.py)."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "scripts.md"


def table_rows(heading: str, end: str) -> list[tuple[str, str, str]]:
    """(statement, example with ``⏎`` as newlines, outcome) for each row of the table under ``heading``,
    up to the next ``end`` (a heading prefix such as ``"\\n### "``)."""
    section = DOC.read_text().split(heading, 1)[1].split(end, 1)[0]
    out = []
    for line in section.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) != 3 or cells[0] in ("statement", "---"):
            continue
        example = re.fullmatch(r"`(.*)`", cells[1])
        assert example, f"row without a single example snippet: {line}"
        out.append((cells[0], example.group(1).replace("⏎", "\n"), cells[2]))
    return out


def placed(head: str, example: str, tail: str) -> tuple[str, range]:
    """The script ``head + example + tail`` and the lines the example occupies in it."""
    first = head.count("\n") + 1
    return head + example + "\n" + tail, range(first, first + example.count("\n") + 1)
