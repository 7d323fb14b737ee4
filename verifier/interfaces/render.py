"""Human-readable output of a ``Result`` with rich: the verdict and its plain reason, the counterexample
as tables (inputs and partitions; both outputs side by side with the differing elements highlighted,
and marked in text when the output is not a terminal) and the warnings with the source lines they point
at quoted. The methods' vocabulary is shown only on request (``explain``). For whole scripts the report
names every source and sink with its line in both scripts, shows the inputs as files (by the path
expression the scripts read them from) and labels each output row with the sink it is."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from verifier.core.result import Result

_STYLES = {"equivalent": "bold green", "not_equivalent": "bold red", "unknown": "bold yellow",
           "error": "bold red"}
_TITLES = {"equivalent": "EQUIVALENT", "not_equivalent": "NOT EQUIVALENT", "unknown": "UNKNOWN",
           "error": "INPUT ERROR"}
_MARK = ">>{}<<"
_REASON_STYLES = {"unknown": "yellow", "error": "red"}
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


def _highlighted(value: Any, other: Any, marks: bool = False) -> Text:
    """``value`` as JSON, with the elements (of a list/bag) not matched in ``other`` highlighted, and,
    with ``marks`` (output that is not a terminal, where styles vanish), wrapped in ``>>...<<``."""
    if isinstance(value, dict) and isinstance(other, dict) and "columns" in value and "columns" in other:
        # a DataFrame/SQL result: its columns (highlighted if they differ), then its rows as a bag
        header = ", ".join(f"{n}: {t}" for n, t in value["columns"])
        same = value["columns"] == other["columns"]
        text = Text(header if same or not marks else _MARK.format(header), style="" if same else "bold red")
        text.append("\n")
        key = "rows" if "rows" in value else "sorted"
        text.append(_highlighted(value.get(key), other.get("rows", other.get("sorted")), marks))
        return text
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
                text.append(_MARK.format(key) if marks else key, style="bold red reverse")
        text.append("]")
        return text
    if value == other:
        return Text(_dump(value))
    return Text(_MARK.format(_dump(value)) if marks else _dump(value), style="bold red")


def _renamed(result: Result, names: tuple[str, str]) -> Result:
    """``result`` with LEFT/RIGHT in its texts replaced by ``names``."""
    import dataclasses

    def sub(text: str | None) -> str | None:
        if text is None:
            return None
        return re.sub(r"\bRIGHT\b", names[1], re.sub(r"\bLEFT\b", names[0], text))

    return dataclasses.replace(result, reason=sub(result.reason), explanation=sub(result.explanation),
                               warnings=tuple(sub(w) or "" for w in result.warnings))


def _explain(result: Result, console: Console) -> None:
    """The method's own explanation and what each step of the pipeline said."""
    if result.explanation:
        console.print(Text("method: ", style="bold") + Text(result.explanation))
    from verifier.interfaces.reasons import detail

    steps = detail(result)
    if steps:
        console.print(Text("steps:", style="bold"))
        for step in steps:
            console.print(Text(f"  - {step}"))


def _inputs_table(inputs: Mapping[str, Any], partitions: Mapping[str, Any] | None,
                  script: bool = False) -> Table:
    """One row per input; a script's text inputs are files, shown one line per line of the file."""
    table = Table()
    table.add_column("input file" if script else "parameter", style="cyan")
    table.add_column("lines" if script else "value")
    if partitions is not None:
        table.add_column("partitions")
    for name, value in inputs.items():
        shown = _dump(value)
        if script and isinstance(value, list):
            shown = "\n".join(_dump(line) for line in value) if value else "(empty file)"
        row = [name, shown]
        if partitions is not None:
            row.append(_dump(partitions[name]) if name in partitions else "-")
        table.add_row(*row)
    return table


def _outputs_table(left: Any, right: Any, is_tuple: bool, marks: bool,
                   names: tuple[str, str] = ("LEFT", "RIGHT"), labels: list[str] | None = None) -> Table:
    """Both outputs side by side. The table has no title: a title is as wide as the table and wrapped
    into several lines when the outputs are short; the caption line above the table says it instead.
    ``labels`` name the rows of a tuple of results (a script's sinks)."""
    table = Table()
    rows = is_tuple and isinstance(left, list) and isinstance(right, list) and len(left) == len(right)
    labelled = rows and labels is not None and len(labels) == len(left)
    if labelled:
        table.add_column("output", style="cyan")
    table.add_column(names[0])
    table.add_column(names[1])
    if rows:
        # a tuple of results (e.g. a bag and a count): one row per component
        for i, (lv, rv) in enumerate(zip(left, right, strict=True)):
            cells = [_highlighted(lv, rv, marks), _highlighted(rv, lv, marks)]
            table.add_row(*([labels[i]] if labelled and labels is not None else []), *cells)
    else:
        table.add_row(_highlighted(left, right, marks), _highlighted(right, left, marks))
    return table


def _short_locs(description: Mapping[str, Any]) -> Any:
    """``file:line:col`` -> ``file.py:12`` (the base name, unless both scripts share it)."""
    left, right = description.get("left", ""), description.get("right", "")
    base = os.path.basename(left) != os.path.basename(right)

    def short(at: str) -> str:
        file, _, rest = at.rpartition(":")  # drop the column
        file, _, line = file.rpartition(":")
        return f"{os.path.basename(file) if base else file}:{line}" if file and line.isdigit() else at
    return short


def script_summary(description: Mapping[str, Any]) -> str:
    """``sources: sys.argv[1] (old.py:12, new.py:9); sinks: 1. printed lines (old.py:20, new.py:18)``:
    each input and output of two scripts, where each script reads or writes it."""
    short = _short_locs(description)
    def at(where: str | None) -> str:  # a source of one script only (data written in it) has no other side
        return short(where) if where else "-"

    sources = [f"{s['path']} ({at(s['left'])}, {at(s['right'])})" for s in description["sources"]]
    sinks = []
    for i, item in enumerate(description["sinks"]):
        sides = [" + ".join(k["what"] for k in item[side]) for side in ("left", "right")]
        where = [", ".join(short(k["at"]) for k in item[side]) or "-" for side in ("left", "right")]
        if sides[0] == sides[1]:
            sinks.append(f"{i + 1}. {sides[0]} ({where[0]}, {where[1]})")
        else:
            lw, rw = sides[0] or "nothing", sides[1] or "nothing"
            sinks.append(f"{i + 1}. {lw} ({where[0]}) / {rw} ({where[1]})")
    return f"sources: {'; '.join(sources) or 'none'}; sinks: {'; '.join(sinks) or 'none'}"


def _output_labels(description: Mapping[str, Any]) -> list[str]:
    labels = []
    for i, item in enumerate(description["sinks"]):
        sides = [" + ".join(k["what"] for k in item[side]) for side in ("left", "right")]
        labels.append(f"{i + 1}. {sides[0] if sides[0] == sides[1] else ' / '.join(sides)}")
    return labels


def replay_line(replayed: bool) -> Text:
    """The counterexample's replay status, as the report's last line about it."""
    text = "yes: Spark reproduced the difference" if replayed else "no"
    return Text(f"Replayed on Spark: {text}", style="green" if replayed else "dim")


def render(result: Result, console: Console | None = None, left: str = "LEFT", right: str = "RIGHT",
           explain: bool = False, replay_pending: bool = False,
           names: tuple[str, str] = ("LEFT", "RIGHT")) -> None:
    """Print ``result`` for a person: plain language by default; the methods' own terms (RepVarSets,
    bucket conditions, formulas) and what every step said only with ``explain``. ``replay_pending``
    leaves out the replay line (the caller prints it once Spark has run). ``names`` are what the two
    sides are called (the hook says ``HEAD`` and ``staged``): they replace LEFT/RIGHT in the text."""
    console = console or Console()
    if names != ("LEFT", "RIGHT"):
        result = _renamed(result, names)
    title = Text(_TITLES[result.verdict], style=_STYLES[result.verdict])
    if result.method:
        title.append(f"  (method: {result.method})", style="dim")
    console.print(title)
    console.print(Text(f"  {left}\n  {right}", style="dim"))
    if result.reason:
        console.print(Text(result.reason, style=_REASON_STYLES.get(result.verdict, "")))
    script = result.stats.get("script")
    if script is not None:
        console.print(Text(script_summary(script), style="dim"), highlight=False)
    if explain:
        _explain(result, console)
    cex = result.counterexample
    if cex is not None:
        marks = console.no_color or not console.is_terminal
        console.print(Text("Inputs", style="bold"))
        if script is not None and not cex.inputs:
            console.print(Text("none to give: the scripts' data is in their code (parallelize)", style="dim"))
        else:
            console.print(_inputs_table(cex.inputs, cex.partitions, script=script is not None))
        legend = ">>marked<< elements" if marks else "highlighted elements"
        console.print(Text("Outputs", style="bold") + Text(f" ({legend} appear on one side only)",
                                                           style="dim"))
        is_tuple = isinstance(cex.left_outcome, tuple) and isinstance(cex.right_outcome, tuple)
        labels = _output_labels(script) if script is not None else None
        console.print(_outputs_table(cex.left, cex.right, is_tuple, marks, names, labels))
        if not replay_pending:
            console.print(replay_line(cex.replayed_on_spark))
    for assumption in result.assumptions:
        console.print(Text("assuming: ", style="bold") + Text(assumption))
    for x in result.ignored_statements:
        where = left if x["side"] == "left" else right
        console.print(Text("not compared: ", style="dim bold") + Text(
            f"{where}:{x['line']}:{x['col']} {x['construct']}: {x['why']}", style="dim"))
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
    if not (replay_pending and cex is not None):  # else the caller ends with the time, after Spark
        console.print(Text(f"({result.seconds:.2f} s)", style="dim"))
