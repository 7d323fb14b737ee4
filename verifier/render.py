"""Human-readable output of a ``Result`` with rich: the verdict, why the method applies, the
counterexample as tables (inputs and partitions; both outputs side by side with the differing elements
highlighted) and the warnings with the source lines they point at quoted."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from verifier.result import Result

_STYLES = {"equivalent": "bold green", "not_equivalent": "bold red", "unknown": "bold yellow",
           "error": "bold red"}
_TITLES = {"equivalent": "EQUIVALENT", "not_equivalent": "NOT EQUIVALENT", "unknown": "UNKNOWN",
           "error": "INPUT ERROR"}
_LOC = re.compile(r"at (?P<file>[^\s:][^:]*):(?P<line>\d+)(?::(?P<col>\d+))?")


def _dump(value: Any) -> str:
    return json.dumps(value)


def _source_line(result: Result, file: str, line: int) -> str | None:
    text = result.sources.get(file)
    if text is None:
        try:
            with open(file, encoding="utf-8") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError):
            return None
    lines = text.splitlines()
    return lines[line - 1] if 0 < line <= len(lines) else None


def _highlighted(value: Any, other: Any) -> Text:
    """``value`` as JSON, with the elements (of a list/bag) not matched in ``other`` highlighted."""
    if isinstance(value, list) and isinstance(other, list):
        remaining = Counter(_dump(v) for v in other)
        text = Text("[")
        for i, item in enumerate(value):
            key = _dump(item)
            if i:
                text.append(", ")
            if remaining[key] > 0:
                remaining[key] -= 1
                text.append(key)
            else:
                text.append(key, style="bold red reverse")
        text.append("]")
        return text
    if value == other:
        return Text(_dump(value))
    return Text(_dump(value), style="bold red")


def _inputs_table(inputs: Mapping[str, Any], partitions: Mapping[str, Any] | None) -> Table:
    table = Table(title="Inputs", title_justify="left")
    table.add_column("parameter", style="cyan")
    table.add_column("value")
    if partitions is not None:
        table.add_column("partitions")
    for name, value in inputs.items():
        row = [name, _dump(value)]
        if partitions is not None:
            row.append(_dump(partitions[name]) if name in partitions else "-")
        table.add_row(*row)
    return table


def _outputs_table(left: Any, right: Any, is_tuple: bool) -> Table:
    table = Table(title="Outputs (differing elements highlighted)", title_justify="left")
    table.add_column("LEFT")
    table.add_column("RIGHT")
    if is_tuple and isinstance(left, list) and isinstance(right, list) and len(left) == len(right):
        # a tuple of results (e.g. a bag and a count): one row per component
        for lv, rv in zip(left, right, strict=True):
            table.add_row(_highlighted(lv, rv), _highlighted(rv, lv))
    else:
        table.add_row(_highlighted(left, right), _highlighted(right, left))
    return table


def render(result: Result, console: Console | None = None, left: str = "LEFT", right: str = "RIGHT") -> None:
    """Print ``result`` for a person."""
    console = console or Console()
    title = Text(_TITLES[result.verdict], style=_STYLES[result.verdict])
    if result.method:
        title.append(f"  (method: {result.method})", style="dim")
    console.print(title)
    console.print(Text(f"  {left}\n  {right}", style="dim"))
    if result.explanation:
        console.print(Text(result.explanation))
    if result.reason:
        console.print(Text(result.reason, style="yellow" if result.verdict == "unknown" else "red"))
    cex = result.counterexample
    if cex is not None:
        console.print(_inputs_table(cex.inputs, cex.partitions))
        is_tuple = isinstance(cex.left_outcome, tuple) and isinstance(cex.right_outcome, tuple)
        console.print(_outputs_table(cex.left, cex.right, is_tuple))
        replayed = "yes: Spark reproduced the difference" if cex.replayed_on_spark else "no"
        style = "green" if cex.replayed_on_spark else "dim"
        console.print(Text(f"Replayed on Spark: {replayed}", style=style))
    for warning in result.warnings:
        console.print(Text("warning: ", style="bold yellow") + Text(warning))
        match = _LOC.search(warning)
        if match:
            line = _source_line(result, match.group("file"), int(match.group("line")))
            if line is not None:
                console.print(Text(f"    {match.group('line')} | {line.rstrip()}", style="dim"))
                if match.group("col"):
                    pad = len(match.group("line")) + 3 + int(match.group("col")) - 1
                    console.print(Text(" " * (4 + pad) + "^", style="yellow"))
    console.print(Text(f"({result.seconds:.2f} s)", style="dim"))
