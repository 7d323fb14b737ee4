"""The table of supported functions and methods in ``docs/dataframes.md`` is the registries' own
(``frontend/dataframe/support.py``): regenerate it with ``python -m frontend.dataframe.support --write``."""

from __future__ import annotations

from frontend.dataframe.support import DOC, END, START, spliced, support_table
from sparklite.relational.functions import FUNCTIONS


def test_docs_table_matches_the_registries() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert START in text and END in text
    assert spliced(text) == text, "stale: run python -m frontend.dataframe.support --write"


def test_every_kernel_function_is_listed() -> None:
    table = support_table()
    assert all(f"| `{name}` |" in table for name in FUNCTIONS)
