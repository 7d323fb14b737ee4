"""The verdict check the script-pair manifests share (``cases/scripts/*.json``, ``cases/mixed``): each pair's
``expected`` verdict and ``method``, a valid JSON result, and for a refuted pair the lines (``differs``)
each side's output must show."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from schema_util import validate


def stdout(side: Any) -> str:
    """A script's printed text in a counterexample side."""
    return side["stdout"]


def assert_verdict(result: Any, pair: dict[str, Any], output: Callable[[Any], str] = stdout) -> None:
    validate(result.to_json())
    assert result.verdict == pair["expected"], result.reason
    assert result.method == pair["method"]
    if pair["expected"] == "equivalent":
        assert result.counterexample is None
        return
    cex = result.counterexample
    for side, text in pair["differs"].items():
        out = output(getattr(cex, side))
        assert text in out, out
