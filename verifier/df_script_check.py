"""Whole DataFrame scripts in the check pipeline (``docs/scripts.md``, "DataFrame scripts").

``frontend.script.df_script`` reads each script into its sources (tables read from CSV/JSON files or fixed by
``createDataFrame``), its sinks in order and the actions they run (``RelProgram``s of the relational
kernel). This module decides a pair:

* **What a script writes** (``observe``): the actions run in the order the script runs them, on the
  reference interpreter (``sparklite.relational.interpreter``), with each file source in one partition
  in file order (what Spark makes of a small file); each sink becomes what the user sees: ``show()`` is
  Spark's text table of ``take(n + 1)`` (cells as Spark casts them to strings, truncated, right-aligned),
  rows printed in a loop are Python's ``str()`` of the values, ``print(df.collect())`` the list's repr,
  ``df.write.csv/json`` the lines of the part files (as a bag; a CSV header once per part file is set
  apart). The first action that raises ends the script with that error.
* **Different means observably different**: standard output whose lines differ as a multiset, or that
  is fully determined on both sides and differs; files that differ as bags of lines; different errors.
  Lines printed from an unsorted result are in Spark's order, so they compare as a bag; a sorted result
  in order modulo ties.
* **Candidates are files**: the relational search's tables (empty tables, pool values with NULLs and
  bounds, random tables), kept only when every value can be written to the script's file format and read
  back as itself (no line break in a string, no quote or backslash in a CSV string, no NaN in JSON), and
  shown as the files' lines (``{"sys.argv[1]": ["name,dept,salary", "ann,,10"]}``).
* **Verdicts**: ``equivalent`` only with a proof (``verifier.df_script_prove``: the same sinks in the
  same order with the same constant text, each pair of DataFrame results proved equal by the
  term-matching prover), tried first; ``not_equivalent`` at once for a difference with no caveat and no
  error on either side (and replayed on Spark by running both unmodified scripts); a difference that
  rests on an error or a caveat waits for Spark (``unknown`` without replay); no proof and no difference
  found is ``unknown``, saying why there is no proof.
"""

from __future__ import annotations

import ast as pyast
import json
import math
import os
import re
import tempfile
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from frontend.script.df_program import DfScriptProgram, DfSink, Part
from sparklite.relational.types import DoubleType, Schema, StringType
from sparklite.values import Bag, Sorted
from verifier.result import Counterexample, Result

if TYPE_CHECKING:
    from verifier.api import _Run

__all__ = [
    "DfObservation",
    "observe",
    "observably_differ",
    "input_files",
    "realisable",
    "check_df_scripts",
    "describe",
    "show_lines",
    "replay_df_scripts",
    "replay_df_result",
]

SEARCH_PATIENCES = 3.0
PROOF_PATIENCES = 2.0
METHOD = "bounded"
_SHRINK_SECONDS = 1.0
_CONDITION = re.compile(r"\[([A-Z][A-Z0-9_]+(?:\.[A-Z0-9_]+)*)\]")


# --- what a script writes ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DfObservation:
    """What one run of a script writes: ``stdout`` as segments (``("text", s)``, ``("bag", Bag of
    texts)``, ``("sorted", Sorted of texts)``, ``("list", Bag | Sorted of element reprs)`` for a printed
    list), ``files`` per written path expression (``(header or None, Bag of lines)``), the ``error`` that
    ended it (``"ArithmeticException [DIVIDE_BY_ZERO]"``) and the interpreter's ``caveats``."""

    stdout: tuple[tuple[str, Any], ...]
    files: tuple[tuple[str, Any], ...] = ()
    error: str | None = None
    caveats: frozenset[str] = frozenset()
    condition: str | None = None

    def text(self) -> str | None:
        """The exact standard output, when it does not depend on Spark's order of rows."""
        out = []
        for kind, value in self.stdout:
            if kind == "text":
                out.append(value)
                continue
            items = _deterministic(value)
            if items is None:
                return None
            out.append(f"[{', '.join(items)}]\n" if kind == "list" else "".join(items))
        return "".join(out)

    def line_keys(self) -> Counter:
        keys: Counter = Counter()
        for kind, value in self.stdout:
            if kind == "list":
                keys[("list", tuple(sorted(_all_items(value))))] += 1
                continue
            texts = [value] if kind == "text" else _all_items(value)
            for t in texts:
                keys.update(line_key(line) for line in t.splitlines())
        return keys

    def to_json(self) -> Any:
        out: dict[str, Any] = {}
        text = self.text()
        if text is not None:
            out["stdout"] = text.splitlines()
        else:
            out["stdout"] = [line for kind, value in self.stdout for line in _json_lines(kind, value)]
        if self.files:
            out["files"] = {
                path: ([header] if header else []) + sorted(lines.items)
                for path, (header, lines) in self.files
            }
        if self.error is not None:
            out["error"] = self.error
        return out


def _json_lines(kind: str, value: Any) -> list[str]:
    if kind == "text":
        return value.splitlines()
    items = _all_items(value)
    if kind == "list":
        return [f"[{', '.join(sorted(items))}]  (elements in any order)"]
    return [line for t in sorted(items) for line in t.splitlines()]


def _deterministic(value: Any) -> list[str] | None:
    if isinstance(value, Bag):
        return list(value.items) if len(set(value.items)) <= 1 else None
    if isinstance(value, Sorted):
        if value.taken is not None and value.groups and value.taken < len(value.groups[-1].items):
            return None
        if any(len(set(g.items)) > 1 for g in value.groups):
            return None
        return [x for g in value.groups for x in g.items]
    return None


def _all_items(value: Any) -> list[str]:
    if isinstance(value, Bag):
        return list(value.items)
    items = [x for g in value.groups for x in g.items]
    if value.taken is not None and value.groups:
        items = items[: len(items) - len(value.groups[-1].items) + value.taken]
    return items


def line_key(line: str) -> Any:
    """A printed line; a printed list (``[Row(a=1), Row(a=2)]``) as its elements in any order."""
    if line.startswith("[") and line.endswith("]"):
        try:
            node = pyast.parse(line, mode="eval").body
        except SyntaxError:
            return line
        if isinstance(node, pyast.List):
            return ("list", tuple(sorted(pyast.unparse(e) for e in node.elts)))
    return line


def _normal_repr(text: str) -> str:
    try:
        return pyast.unparse(pyast.parse(text, mode="eval").body)
    except SyntaxError:
        return text


def observe(sp: DfScriptProgram, tables: Mapping[str, list[tuple]]) -> DfObservation:
    """What ``sp`` writes when its sources hold ``tables`` (by parameter), as the interpreter predicts."""
    from sparklite.relational.interpreter import run
    from sparklite.relational.values import RelError

    cache: dict[int, Any] = {}
    caveats: set[str] = set()
    full = {
        s.param: list(s.rows) if s.rows is not None else list(tables.get(s.param, [])) for s in sp.sources
    }

    def result(index: int) -> Any:
        if index not in cache:
            r = run(sp.actions[index], full)
            caveats.update(r.caveats)
            cache[index] = r.outcome
        if isinstance(cache[index], RelError):
            raise _Raised(cache[index])
        return cache[index]

    stdout: list[tuple[str, Any]] = []
    files: dict[str, Any] = {}
    try:
        for sink in sp.sinks:
            _observe_sink(sp, sink, result, stdout, files, caveats)
    except _Raised as raised:
        err = raised.error
        return DfObservation(
            tuple(_merged(stdout)), tuple(sorted(files.items())), str(err), frozenset(caveats), err.condition
        )
    return DfObservation(tuple(_merged(stdout)), tuple(sorted(files.items())), None, frozenset(caveats))


class _Raised(Exception):
    def __init__(self, error: Any) -> None:
        super().__init__(str(error))
        self.error = error


def _merged(segs: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for kind, value in segs:
        if kind == "text" and not value:
            continue
        if kind == "text" and out and out[-1][0] == "text":
            out[-1] = ("text", out[-1][1] + value)
        else:
            out.append((kind, value))
    return out


def _observe_sink(
    sp: DfScriptProgram,
    sink: DfSink,
    result: Any,
    stdout: list[tuple[str, Any]],
    files: dict[str, Any],
    caveats: set[str],
) -> None:
    if sink.kind == "job":
        assert sink.action is not None
        result(sink.action)
        return
    if sink.kind == "print":
        stdout.append(("text", "".join(_part_text(p, None, result) for p in sink.parts)))
        return
    assert sink.action is not None
    outcome = result(sink.action)
    if sink.kind == "show":
        head, rows, foot = show_lines(outcome, sink.show_n, sink.truncate, caveats)
        stdout.extend([("text", head), (_kind(rows), rows), ("text", foot)])
        return
    if sink.kind == "print_rows":
        texts = _map_rows(
            outcome.rows,
            lambda row: "".join(
                _part_text(p, (row, outcome.columns), result) for line in sink.lines for p in line
            ),
        )
        stdout.append((_kind(texts), texts))
        return
    if sink.kind == "print_collection":
        stdout.append(
            ("list", _map_rows(outcome.rows, lambda row: _normal_repr(_row_repr(row, outcome.columns))))
        )
        return
    if sink.kind == "write":
        assert sink.path is not None and sink.fmt is not None
        names = [n for n, _ in outcome.columns]
        types = [f.type for f in sp.actions[sink.action].body.schema.fields]  # type: ignore[union-attr]
        render = (
            (lambda row: csv_line(row, types, sink.sep, caveats))
            if sink.fmt == "csv"
            else (lambda row: json_line(row, names, types, caveats))
        )
        lines = [render(r) for r in _all_rows(outcome.rows)]
        if sink.fmt == "json":
            lines = [canonical_json(line) for line in lines]
        header = sink.sep.join(names) if sink.header and lines else None  # no row: no header compared
        files[sink.path] = (header, Bag.of(lines))
        return
    raise AssertionError(sink.kind)  # pragma: no cover


def _kind(rows: Any) -> str:
    return "sorted" if isinstance(rows, Sorted) else "bag"


def _map_rows(rows: Any, f: Any) -> Any:
    if isinstance(rows, Bag):
        return Bag.of(f(r) for r in rows.items)
    return Sorted(tuple(Bag.of(f(r) for r in g.items) for g in rows.groups), rows.taken)


def _all_rows(rows: Any) -> list[tuple]:
    return _all_items(rows)


def _part_text(p: Part, row: tuple[tuple, Any] | None, result: Any) -> str:
    if p.kind == "lit":
        return p.text
    if p.kind == "action":
        value = result(p.action)
        if value is None or isinstance(value, int):
            return str(value)
        return _row_repr(tuple(value), value.columns)
    assert row is not None
    values, columns = row
    if p.conversion == "row":
        return _row_repr(values, columns)
    v = values[p.column]
    return repr(v) if p.conversion == "repr" else str(v)


def _row_repr(values: Sequence[Any], columns: Sequence[tuple[str, str]]) -> str:
    """``repr(Row)`` as PySpark prints it: ``Row(dept='eng', total=10)``."""
    return "Row(" + ", ".join(f"{n}={v!r}" for (n, _), v in zip(columns, values, strict=True)) + ")"


# --- Spark's text forms ----------------------------------------------------------------------------


def spark_string(v: Any, caveats: set[str] | None = None) -> str:
    """A value cast to a string as ``show()`` and the CSV writer print it."""
    import datetime

    from sparklite.relational.functions import java_double_str, jvm_may_print_otherwise
    from sparklite.relational.interpreter import CAVEAT_JVM_DOUBLE

    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if caveats is not None and jvm_may_print_otherwise(v):
            caveats.add(CAVEAT_JVM_DOUBLE)
        return java_double_str(v)
    if isinstance(v, Decimal):
        return format(v, "f")
    if isinstance(v, datetime.date):
        return v.isoformat()
    return str(v)


def _half_width(s: str) -> int:
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in s)


def show_lines(outcome: Any, n: int, truncate: int, caveats: set[str] | None = None) -> tuple[str, Any, str]:
    """``df.show(n, truncate)``'s text for ``take(n + 1)``'s ``outcome`` (Spark's ``showString``, then
    ``print``'s newline): the header lines, the rows' lines (a ``Bag``, or ``Sorted`` after ``orderBy``)
    and the closing lines."""
    names = [name for name, _ in outcome.columns]
    rows = _all_items(outcome.rows)
    more = len(rows) > n

    def cell(s: str) -> str:
        if truncate > 0 and len(s) > truncate:
            return s[:truncate] if truncate < 4 else s[: truncate - 3] + "..."
        return s

    header = [cell(x) for x in names]
    shown = outcome.rows
    if more:  # take(n + 1) gave one more: Spark shows the first n
        shown = _first(outcome.rows, n)
    cells = [[cell(spark_string(v, caveats)) for v in r] for r in _all_items(shown)]
    widths = [max([3, _half_width(h)] + [_half_width(r[i]) for r in cells]) for i, h in enumerate(header)]

    def line(values: Sequence[str]) -> str:
        out = []
        for v, w in zip(values, widths, strict=True):
            pad = " " * (w - _half_width(v))
            out.append(pad + v if truncate > 0 else v + pad)
        return "|" + "|".join(out) + "|\n"

    sep = "+" + "+".join("-" * w for w in widths) + "+\n"
    head = sep + line(header) + sep
    foot = sep + (f"only showing top {n} row{'' if n == 1 else 's'}\n" if more else "") + "\n"
    body = _map_rows(shown, lambda r: line([cell(spark_string(v)) for v in r]))
    return head, body, foot


def _first(rows: Any, n: int) -> Any:
    if isinstance(rows, Bag):
        items = list(rows.items)
        return Bag.of(items[:n]) if len(set(items)) <= 1 else Sorted((Bag.of(items),), n)
    groups, left = [], n
    for g in rows.groups:
        if left <= 0:
            break
        groups.append(g)
        left -= len(g.items)
    if left < 0:
        return Sorted(tuple(groups), len(groups[-1].items) + left)
    return Sorted(tuple(groups), None)


def csv_field(v: Any, t: Any, sep: str, caveats: set[str] | None = None) -> str:
    """One value as Spark's CSV writer writes it (defaults: NULL empty, '' quoted, whitespace trimmed,
    a field holding the separator or a quote quoted with backslash escapes)."""
    if v is None:
        return ""
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
    s = spark_string(v, caveats)
    if isinstance(v, str):
        s = s.strip(" \t")
        if s == "":
            return '""'
        if any(c in s for c in (sep, '"', "\\", "\n", "\r")):
            return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return s


def csv_line(row: Sequence[Any], types: Sequence[Any], sep: str, caveats: set[str] | None = None) -> str:
    return sep.join(csv_field(v, t, sep, caveats) for v, t in zip(row, types, strict=True))


def json_line(
    row: Sequence[Any], names: Sequence[str], types: Sequence[Any], caveats: set[str] | None = None
) -> str:
    """One row as Spark's JSON writer writes it (NULL fields left out)."""
    parts = []
    for n, v in zip(names, row, strict=True):
        if v is None:
            continue
        if isinstance(v, bool):
            text = "true" if v else "false"
        elif isinstance(v, float):
            text = f'"{spark_string(v)}"' if math.isnan(v) or math.isinf(v) else spark_string(v, caveats)
        elif isinstance(v, int | Decimal):
            text = spark_string(v)
        else:
            text = json.dumps(spark_string(v), ensure_ascii=False)
        parts.append(f"{json.dumps(n, ensure_ascii=False)}:{text}")
    return "{" + ",".join(parts) + "}"


def canonical_json(line: str) -> str:
    """A JSON line with its numbers in one form, so that ``1.0E7`` and ``10000000.0`` compare equal."""
    try:
        obj = json.loads(line, parse_float=Decimal)
    except ValueError:
        return line

    def norm(v: Any) -> Any:
        if isinstance(v, Decimal):
            return {"number": str(v.normalize())}
        if isinstance(v, int) and not isinstance(v, bool):
            return {"number": str(Decimal(v).normalize())}
        return v

    if not isinstance(obj, dict):
        return line
    return json.dumps([[k, norm(v)] for k, v in obj.items()], ensure_ascii=False)


# --- comparing two scripts' outputs ------------------------------------------------------------------


def observably_differ(a: DfObservation, b: DfObservation) -> bool:
    """Could no run of one script write what a run of the other writes? (Errors: the error alone.)"""
    if a.error is not None or b.error is not None:
        return (a.condition or a.error) != (b.condition or b.error)
    if dict(a.files).keys() != dict(b.files).keys():
        return True
    for path, (ha, la) in a.files:
        hb, lb = dict(b.files)[path]
        if ha != hb or la != lb:
            return True
    if a.line_keys() != b.line_keys():
        return True
    ta, tb = a.text(), b.text()
    return ta is not None and tb is not None and ta != tb


def definite(a: DfObservation, b: DfObservation) -> str | None:
    """None when a difference between ``a`` and ``b`` needs no Spark to confirm it, else why it does."""
    reasons = sorted(a.caveats | b.caveats)
    if a.error is not None or b.error is not None:
        reasons.append("a runtime error, which Spark raises only where its optimiser evaluates the value")
    return "; ".join(reasons) or None


# --- inputs as files ---------------------------------------------------------------------------------


def _file_value_ok(v: Any, fmt: str, t: Any) -> bool:
    if isinstance(v, str):
        if "\n" in v or "\r" in v:
            return False
        try:
            v.encode("utf-8")
        except UnicodeEncodeError:
            return False
        # Spark's CSV reader reads an empty field, quoted or not (``""``), as NULL (nullValue "")
        return fmt != "csv" or not (v == "" or '"' in v or "\\" in v or v != v.strip(" \t"))
    if isinstance(v, float) and fmt == "json":
        return math.isfinite(v)
    return True


def realisable(sp: DfScriptProgram, tables: Mapping[str, list[tuple]]) -> bool:
    """Can every file source hold these rows, read back by Spark as themselves?"""
    for s in sp.sources:
        if s.kind not in ("csv", "json"):
            continue
        types = [f.type for f in s.schema.fields]
        for row in tables.get(s.param, []):
            if s.kind == "csv" and all(v is None for v in row) and len(row) == 1:
                return False  # an empty line: Spark's CSV reader skips it
            if not all(_file_value_ok(v, s.kind, t) for v, t in zip(row, types, strict=True)):
                return False
    return True


def source_lines(schema: Schema, rows: Sequence[tuple], fmt: str, header: bool, sep: str) -> list[str]:
    """The lines of a file Spark reads back as ``rows``."""
    types = [f.type for f in schema.fields]
    names = [f.name for f in schema.fields]
    if fmt == "json":
        out = []
        for row in rows:
            parts = []
            for n, v in zip(names, row, strict=True):
                if v is None:
                    text = "null"
                elif isinstance(v, bool):
                    text = "true" if v else "false"
                elif isinstance(v, int | Decimal | float):
                    text = spark_string(v) if not isinstance(v, Decimal) else format(v, "f")
                else:
                    text = json.dumps(spark_string(v), ensure_ascii=False)
                parts.append(f"{json.dumps(n)}: {text}")
            out.append("{" + ", ".join(parts) + "}")
        return out
    lines = [sep.join(names)] if header else []
    for row in rows:
        fields = []
        for v, t in zip(row, types, strict=True):
            if isinstance(v, float) and not math.isfinite(v):
                fields.append("NaN" if math.isnan(v) else ("Inf" if v > 0 else "-Inf"))
            elif isinstance(t, StringType) and v is not None and (sep in v or v == ""):
                fields.append('"' + v + '"')
            elif isinstance(t, DoubleType) and v is not None:
                fields.append(spark_string(v))
            else:
                fields.append("" if v is None else spark_string(v))
        lines.append(sep.join(fields))
    return lines


def input_files(sp: DfScriptProgram, tables: Mapping[str, list[tuple]]) -> dict[str, Any]:
    """A counterexample as the script's user sees it: each file's lines by the path expression the script
    reads it from; a catalog table's rows as JSON objects by its name."""
    from verifier.relational import rows_json

    out: dict[str, Any] = {}
    for s in sp.sources:
        rows = tables.get(s.param, [])
        if s.kind in ("csv", "json"):
            out[s.path] = source_lines(s.schema, rows, s.kind, s.header, s.sep)
        elif s.kind == "table":
            out[s.path] = rows_json(s.schema, rows)
    return out


# --- the search ------------------------------------------------------------------------------------


@dataclass
class _Found:
    tables: dict[str, list[tuple]]
    left: DfObservation
    right: DfObservation
    why: str | None
    origin: str


def _pair(
    left: DfScriptProgram, right: DfScriptProgram, tables: dict[str, list[tuple]], origin: str
) -> _Found | None:
    lo, ro = observe(left, tables), observe(right, tables)
    if not observably_differ(lo, ro):
        return None
    return _Found(tables, lo, ro, definite(lo, ro), origin)


def search(
    left: DfScriptProgram, right: DfScriptProgram, until: float, seed: int = 0
) -> tuple[_Found | None, _Found | None, int]:
    """(a definite difference, the first one that waits for Spark, candidates tried)."""
    from verifier.relational import Pools, candidates

    params = left.params
    pools = Pools.of(params, (*left.actions, *right.actions))
    fixed = {s.param: list(s.rows) for s in left.sources if s.rows is not None}
    pending: _Found | None = None
    tried = 0
    for tables, _, origin in candidates(params, pools, seed):
        if tried > 0 and time.monotonic() >= until:
            break
        tables = {**{k: list(v) for k, v in tables.items()}, **fixed}
        if not realisable(left, tables):
            continue
        tried += 1
        found = _pair(left, right, tables, origin)
        if found is None:
            continue
        if found.why is None:
            return _shrink(left, right, found, time.monotonic() + _SHRINK_SECONDS), pending, tried
        if pending is None:
            pending = _shrink(left, right, found, time.monotonic() + _SHRINK_SECONDS)
        if fixed and len(fixed) == len(params):
            break  # every input is fixed by the scripts: one candidate is all there is
    return None, pending, tried


def _shrink(left: DfScriptProgram, right: DfScriptProgram, found: _Found, until: float) -> _Found:
    """Fewer rows, then simpler values, while the difference stays (and stays as definite)."""
    from verifier.relational import _simpler_values

    best = found
    fixed = {s.param for s in left.sources if s.rows is not None}

    def better(tables: dict[str, list[tuple]]) -> bool:
        nonlocal best
        if not realisable(left, tables):
            return False
        again = _pair(left, right, tables, best.origin)
        if again is not None and (again.why is None or best.why is not None):
            best = again
            return True
        return False

    changed = True
    while changed and time.monotonic() < until:
        changed = False
        for name in [n for n in best.tables if n not in fixed]:
            for i in range(len(best.tables[name])):
                rows = best.tables[name]
                if i < len(rows) and better({**best.tables, name: rows[:i] + rows[i + 1 :]}):
                    changed = True
                    break
    schemas = {tp.name: tp.schema for tp in left.params}
    for name in [n for n in best.tables if n not in fixed]:
        for i in range(len(best.tables[name])):
            for j, fld in enumerate(schemas[name].fields):
                for simpler in _simpler_values(fld.type, True):
                    if time.monotonic() >= until:
                        return best
                    row = best.tables[name][i]
                    if type(row[j]) is type(simpler) and row[j] == simpler:
                        break
                    rows = list(best.tables[name])
                    rows[i] = row[:j] + (simpler,) + row[j + 1 :]
                    if better({**best.tables, name: rows}):
                        break
    return best


# --- the check -----------------------------------------------------------------------------------------


def describe(left: DfScriptProgram, right: DfScriptProgram) -> dict[str, Any]:
    """Where each source and sink is in both scripts, for the report (``verifier.render``)."""
    sources = [
        {"path": ls.path, "kind": ls.kind, "left": str(ls.loc), "right": str(rs.loc)}
        for ls, rs in zip(left.sources, right.sources, strict=True)
    ]
    lsinks = [k for k in left.sinks if k.kind != "job"]
    rsinks = [k for k in right.sinks if k.kind != "job"]
    sinks = []
    for i in range(max(len(lsinks), len(rsinks))):
        sinks.append(
            {
                side: [{"what": k[i].words, "at": str(k[i].loc)}] if i < len(k) else []
                for side, k in (("left", lsinks), ("right", rsinks))
            }
        )
    return {"left": left.filename, "right": right.filename, "sources": sources, "sinks": sinks}


def check_df_scripts(lp: Any, rp: Any, run: _Run) -> Result:
    """Two DataFrame scripts (``lp.script``/``rp.script`` are ``DfScriptProgram``s)."""
    from frontend.script.df_program import align_df_sources
    from verifier.df_script_prove import prove_df_scripts

    left: DfScriptProgram = lp.script
    right = align_df_sources(left, rp.script)
    stats: dict[str, Any] = {"script": describe(left, right), "df_script": True}
    proof = prove_df_scripts(left, right, until=min(run.deadline, run.step_end(PROOF_PATIENCES)))
    if not isinstance(proof, str):
        run.warnings.extend(w for w in proof.warnings if w not in run.warnings)
        return run.result(
            "equivalent",
            method=proof.method,
            explanation=proof.explanation,
            reason=proof.explanation,
            assumptions=proof.assumptions,
            stats=stats,
        )
    run.said.append(f"df-script proof: {proof}")
    until = min(run.deadline, run.step_end(SEARCH_PATIENCES))
    found, pending, tried = search(left, right, until, run.options.seed)
    run.said.append(f"df-script search: {tried} candidate input file set(s)")
    if found is not None:
        result = _not_equivalent(left, found, run, stats)
        return replay_df_result(result, left, right, run.options.master) if run.options.replay else result
    if pending is not None:
        if run.options.replay:
            return replay_df_result(
                _not_equivalent(left, pending, run, stats), left, right, run.options.master
            )
        reason = (
            f"the reference interpreter found input files on which the scripts write different things "
            f"({json.dumps(input_files(left, pending.tables))}: LEFT {json.dumps(pending.left.to_json())}, "
            f"RIGHT {json.dumps(pending.right.to_json())}), but the difference rests on {pending.why}: only "
            "Spark can confirm it; run with replay (the CLI's default, or check(..., replay=True))"
        )
        return run.result(
            "unknown",
            method=METHOD,
            reason=reason,
            stats={**stats, "pending": True, "df_found": pending, "tried": tried},
        )
    reason = (
        f"no difference on {tried} candidate input file set(s) (empty files, small files with NULLs "
        f"and boundary values, random files), and no proof: {proof}"
    )
    return run.result("unknown", method=METHOD, reason=reason, stats={**stats, "tried": tried})


def _not_equivalent(left: DfScriptProgram, found: _Found, run: _Run, stats: dict[str, Any]) -> Result:
    cex = _not_equivalent_cex(left, found)
    if found.why is None:
        why = f"{found.origin} found input files on which the scripts write different things"
    else:
        why = (
            f"{found.origin} found input files on which the interpreter shows the scripts writing different "
            f"things; the difference rests on {found.why}, so it stands only if Spark reproduces it"
        )
    return run.result(
        "not_equivalent",
        method=METHOD,
        counterexample=cex,
        explanation=why,
        stats={**{k: v for k, v in stats.items() if k != "pending"}, "df_found": found},
    )


# --- replay: both unmodified scripts on Spark --------------------------------------------------------


@dataclass(frozen=True)
class RunObservation:
    """A real run: its stdout lines, the files of every written path (header, lines), the error."""

    lines: tuple[str, ...]
    files: tuple[tuple[str, Any], ...]
    error: str | None
    condition: str | None

    def as_observation(self) -> DfObservation:
        text = "".join(f"{line}\n" for line in self.lines)
        return DfObservation((("text", text),), self.files, self.error, frozenset(), self.condition)


@dataclass(frozen=True)
class DfReplay:
    left: RunObservation
    right: RunObservation
    differs: bool
    left_agrees: bool
    right_agrees: bool
    seconds: float = 0.0
    stderr: tuple[str, str] = ("", "")


def _views(
    sp: DfScriptProgram, tables: Mapping[str, list[tuple]], workdir: str
) -> tuple[tuple[str, str, str], ...]:
    """The catalog tables a script reads (``spark.table(name)``, SQL over ``--schema`` tables), written as
    JSON lines for the replay runner to create as temp views: (name, DDL schema, file)."""
    views = []
    for s in sp.sources:
        if s.kind != "table":
            continue
        target = os.path.join(workdir, f"table_{len(views)}.json")
        with open(target, "w", encoding="utf-8", newline="") as fh:
            fh.writelines(
                f"{line}\n" for line in source_lines(s.schema, tables.get(s.param, []), "json", False, ",")
            )
        ddl = ", ".join(f"`{f.name.replace('`', '``')}` {f.type}" for f in s.schema.fields)
        views.append((s.param, ddl, target))
    return tuple(views)


def _write_inputs(sp: DfScriptProgram, tables: Mapping[str, list[tuple]], workdir: str) -> list[str]:
    from verifier.script_replay import ReplayError

    argv: list[str | None] = [None] * (sp.argv_length - 1)
    for s in sp.sources:
        if s.kind not in ("csv", "json"):
            continue
        text = "".join(
            f"{line}\n" for line in source_lines(s.schema, tables.get(s.param, []), s.kind, s.header, s.sep)
        )
        if s.literal_path is not None:
            if os.path.isabs(s.literal_path):
                raise ReplayError(
                    f"{s.loc}: the script reads the absolute path {s.literal_path!r}: a replay "
                    "cannot redirect it without editing the script (use sys.argv or a relative "
                    "path)"
                )
            target = os.path.join(workdir, s.literal_path)
        else:
            target = os.path.join(workdir, f"input_{s.argv_index}.{s.kind}")
        os.makedirs(os.path.dirname(target) or workdir, exist_ok=True)
        with open(target, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        if s.argv_index is not None:
            argv[s.argv_index - 1] = target
    for k in sp.sinks:
        if k.kind == "write" and k.argv_index is not None:
            argv[k.argv_index - 1] = os.path.join(workdir, f"output_{k.argv_index}")
        elif k.kind == "write" and k.literal_path is not None and os.path.isabs(k.literal_path):
            raise ReplayError(f"{k.loc}: the script writes the absolute path {k.literal_path!r}")
    return [a if a is not None else f"unused_{i + 1}" for i, a in enumerate(argv)]


def _written(sp: DfScriptProgram, argv: Sequence[str], workdir: str) -> tuple[tuple[str, Any], ...]:
    out: dict[str, Any] = {}
    for k in sp.sinks:
        if k.kind != "write":
            continue
        assert k.path is not None
        where = k.literal_path if k.literal_path is not None else argv[k.argv_index - 1]  # type: ignore[operator]
        directory = os.path.join(workdir, where)
        if not os.path.isdir(directory):
            out[k.path] = ("(nothing written)", Bag.of([]))
            continue
        header = None
        lines: list[str] = []
        for name in sorted(os.listdir(directory)):
            if not name.startswith("part-") or name.endswith(".crc"):
                continue
            with open(os.path.join(directory, name), encoding="utf-8", errors="replace") as fh:
                part = fh.read().splitlines()
            if k.header and part:
                header, part = part[0], part[1:]
            lines.extend(canonical_json(x) if k.fmt == "json" else x for x in part)
        out[k.path] = (header if lines else None, Bag.of(lines))
    return tuple(sorted(out.items()))


def _agrees(run: RunObservation, predicted: DfObservation) -> bool:
    if predicted.error is not None or run.error is not None:
        if predicted.error is None or run.error is None:
            return False
        return predicted.condition is None or predicted.condition == run.condition
    obs = run.as_observation()
    if dict(obs.files) != dict(predicted.files):
        return False
    if obs.line_keys() != predicted.line_keys():
        return False
    text = predicted.text()
    return text is None or text == obs.text()


def replay_df_scripts(
    pairs: Sequence[
        tuple[
            DfScriptProgram, DfScriptProgram, Mapping[str, list[tuple]], tuple[DfObservation, DfObservation]
        ]
    ],
    master: str = "local[2]",
) -> list[DfReplay]:
    """Run both unmodified scripts of every pair on Spark with the pair's input files (all runs in one
    Python process: one JVM start), and compare what they wrote."""
    from verifier.script_replay import ScriptJob, run_scripts

    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="sparkeq-dfreplay-") as root:
        plans = []
        for i, (left, right, tables, refs) in enumerate(pairs):
            sides = []
            for side, sp, ref in (("left", left, refs[0]), ("right", right, refs[1])):
                wd = os.path.join(root, f"{i}-{side}")
                os.makedirs(wd)
                sides.append((sp, ref, _write_inputs(sp, tables, wd), wd))
            plans.append(sides)
        jobs = [
            ScriptJob(sp.filename, tuple(argv), wd, _views(sp, tables, wd))
            for sides in plans
            for sp, _, argv, wd in sides
        ]
        runs = iter(run_scripts(jobs, master))
        out = []
        for sides in plans:
            seen = []
            for sp, ref, argv, wd in sides:
                r = next(runs)
                cond = None
                if r.exception is not None:
                    found = _CONDITION.findall(r.stderr)
                    cond = found[-1] if found else None
                error = None if r.exception is None else r.exception + (f" [{cond}]" if cond else "")
                if r.exception is None and r.exit_code != 0:
                    error = f"SystemExit({r.exit_code})"
                obs = RunObservation(r.stdout_lines, _written(sp, argv, wd), error, cond)
                seen.append((obs, _agrees(obs, ref), r.stderr))
            (lo, la, lerr), (ro, ra, rerr) = seen
            differs = observably_differ(lo.as_observation(), ro.as_observation())
            out.append(
                DfReplay(
                    lo, ro, differs, la, ra, (time.monotonic() - start) / max(1, len(plans)), (lerr, rerr)
                )
            )
    return out


def replay_df_result(result: Result, left: DfScriptProgram, right: DfScriptProgram, master: str) -> Result:
    """Replay a DataFrame scripts' counterexample; ``not_equivalent`` stands (replayed) only when Spark's
    runs differ and each is what the interpreter predicted; runs that write the same make it ``unknown``."""
    return replay_df_results([(result, left, right)], master)[0]


def replay_df_results(
    items: Sequence[tuple[Result, DfScriptProgram, DfScriptProgram]], master: str
) -> list[Result]:
    import dataclasses

    from verifier.script_replay import ReplayError

    todo = [(r, lsp, rsp, r.stats.get("df_found")) for r, lsp, rsp in items]
    runnable = [(r, lsp, rsp, f) for r, lsp, rsp, f in todo if f is not None]
    try:
        replays = (
            replay_df_scripts(
                [(lsp, rsp, f.tables, (f.left, f.right)) for _, lsp, rsp, f in runnable], master
            )
            if runnable
            else []
        )
    except (ReplayError, OSError, RuntimeError) as exc:
        return [_warned(r, f"counterexample not replayed on Spark: {exc}") for r, *_ in items]
    done = iter(replays)
    out = []
    for r, lsp, _, f in todo:
        if f is None:
            out.append(r)
            continue
        rep = next(done)
        stats = {
            **r.stats,
            "spark_left": rep.left.as_observation().to_json(),
            "spark_right": rep.right.as_observation().to_json(),
            "replay_seconds": rep.seconds,
        }
        stats.pop("pending", None)
        r = dataclasses.replace(r, stats=stats)
        seen = (
            f"LEFT {json.dumps(rep.left.as_observation().to_json())}, "
            f"RIGHT {json.dumps(rep.right.as_observation().to_json())}"
        )
        broken = _environment_failure(rep)
        if broken is not None:
            out.append(_warned(r, f"counterexample not replayed on Spark: {broken}"))
            continue
        cex = r.counterexample
        if cex is None:  # a pending difference: the candidate behind it
            cex = _not_equivalent_cex(lsp, f)
        if rep.differs and rep.left_agrees and rep.right_agrees:
            out.append(
                dataclasses.replace(
                    r,
                    verdict="not_equivalent",
                    counterexample=dataclasses.replace(cex, replayed_on_spark=True),
                )
            )
            continue
        if not rep.differs:
            reason = (
                f"the reference interpreter found a difference (LEFT {json.dumps(f.left.to_json())}, RIGHT "
                f"{json.dumps(f.right.to_json())}), but run on Spark with the same files both scripts "
                f"write the same ({seen})"
            )
            reason += (
                ": this is a gap in sparkeq's model of Spark, please report it"
                if f.why is None
                else f" (the difference rested on {f.why}, which Spark did not reproduce)"
            )
            out.append(dataclasses.replace(r, verdict="unknown", reason=reason, counterexample=None))
            continue
        if f.why is not None:
            out.append(
                dataclasses.replace(
                    r,
                    verdict="unknown",
                    counterexample=None,
                    reason=(
                        f"the interpreter's difference rests on {f.why}, and Spark's runs differ but "
                        f"not as predicted ({seen}): not confirmed"
                    ),
                )
            )
            continue
        out.append(
            _warned(
                dataclasses.replace(r, counterexample=cex),
                "counterexample not replayed on Spark: "
                f"Spark's runs differ from each other, but not as the interpreter predicted ({seen})",
            )
        )
    return out


def _not_equivalent_cex(sp: DfScriptProgram, f: _Found) -> Counterexample:
    return Counterexample(
        inputs=input_files(sp, f.tables),
        partitions=None,
        left=f.left.to_json(),
        right=f.right.to_json(),
        replayed_on_spark=False,
        left_outcome=f.left,
        right_outcome=f.right,
        origin=f.origin,
    )


def _environment_failure(rep: DfReplay) -> str | None:
    text = rep.stderr[0] + rep.stderr[1]
    if (
        rep.left.error is not None
        and rep.left.error == rep.right.error
        and not (rep.left_agrees or rep.right_agrees)
    ):
        if (
            "ModuleNotFoundError" in rep.left.error
            or "JAVA_GATEWAY_EXITED" in text
            or "Java gateway process exited" in text
        ):
            tail = (rep.stderr[0].strip().splitlines() or [rep.left.error])[-1]
            return f"both scripts failed on Spark before running a job ({tail})"
    return None


def _warned(result: Result, warning: str) -> Result:
    import dataclasses

    return dataclasses.replace(result, warnings=(*result.warnings, warning))
