"""What a whole DataFrame script writes, and the search for files on which two scripts write different
things (``docs/scripts.md``, "DataFrame scripts").

``frontend.script.df_script`` reads each script into its sources (tables read from CSV/JSON files or fixed by
``createDataFrame``), its sinks in order and the actions they run (``RelProgram``s of the relational
kernel). This module holds the model a pair is decided on (the kind that decides it is
``verifier.core.kinds.df_script``; the replay on Spark is ``verifier.runtime.df_script_replay``):

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
* **Verdicts**: ``equivalent`` only with a proof (``verifier.core.df_script_prove``: the same sinks in the
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
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from frontend.script.df_listing import listing_text
from frontend.script.df_program import DfScriptProgram, DfSink, Part
from sparklite.relational.types import DoubleType, Schema, StringType
from sparklite.values import Bag, Sorted

__all__ = [
    "DfFound",
    "DfObservation",
    "observe",
    "observably_differ",
    "input_files",
    "realisable",
    "describe",
    "search",
    "show_lines",
]

_SHRINK_SLACK_S = 0.5  # shrinking a difference found may run this far past the hard cap


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
    unmodelled: str | None = None  # why the run's outputs are not known (an operation not modelled)

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
        """The lines printed, as a multiset; a printed list (after the text its line starts with) as its
        elements in any order, as ``line_key`` reads a real run's line."""
        keys: Counter = Counter()
        pending = ""  # the start of a line a printed list ends
        for kind, value in self.stdout:
            if kind == "list":
                keys[line_key(pending + "[" + ", ".join(sorted(_all_items(value))) + "]")] += 1
                pending = ""
                continue
            texts = [value] if kind == "text" else _all_items(value)
            for t in texts:
                lines = t.split("\n")
                pending, lines = pending + lines[0], lines[1:]
                for line in lines:
                    keys[line_key(pending)] += 1
                    pending = line
        if pending:
            keys[line_key(pending)] += 1
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
        if self.unmodelled is not None:  # the output goes on past what is shown: not known
            out["then"] = f"not known: {self.unmodelled}"
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
    """A printed line; a printed list (``[Row(a=1), Row(a=2)]``, also after text: ``rows: [Row(a=1)]``)
    as the text before it and its elements in any order (the list starts at the first ``[`` from which
    the rest of the line is a list display)."""
    if not line.endswith("]"):
        return line
    start = line.find("[")
    while start >= 0:
        try:
            node = pyast.parse(line[start:], mode="eval").body
        except SyntaxError:
            node = None
        if isinstance(node, pyast.List):
            elements = tuple(sorted(pyast.unparse(e) for e in node.elts))
            return ("list", elements) if start == 0 else ("list", line[:start], elements)
        start = line.find("[", start + 1)
    return line


def _normal_repr(text: str) -> str:
    try:
        return pyast.unparse(pyast.parse(text, mode="eval").body)
    except SyntaxError:
        return text


def observe(sp: DfScriptProgram, tables: Mapping[str, list[tuple]]) -> DfObservation:
    """What ``sp`` writes when its sources hold ``tables`` (by parameter), as the interpreter predicts."""
    from sparklite.relational.interpreter import run
    from sparklite.relational.opaque import NotModelled
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
    texts = _file_texts(sp, full)
    try:
        for sink in sp.sinks:
            _observe_sink(sp, sink, result, stdout, files, caveats, texts)
    except _Raised as raised:
        err = raised.error
        return DfObservation(
            tuple(_merged(stdout)), tuple(sorted(files.items())), str(err), frozenset(caveats), err.condition
        )
    except NotModelled as exc:  # an opaque operation's result is needed: what the script writes is unknown
        return DfObservation(tuple(_merged(stdout)), tuple(sorted(files.items())), None, frozenset(caveats),
                             unmodelled=str(exc))
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
    texts: Mapping[str, str] | None = None,
) -> None:
    if sink.kind == "job":
        assert sink.action is not None
        result(sink.action)
        return
    if sink.kind == "print":
        stdout.append(("text", "".join(_part_text(p, None, result, texts) for p in sink.parts)))
        return
    if sink.kind == "glue":  # frontend.script.glue: what Glue writes is not modelled
        from sparklite.relational.opaque import NotModelled

        raise NotModelled(f"{sink.fmt} (AWS Glue) is not modelled: only proved by congruence")
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
                _part_text(p, (row, outcome.columns), result, texts) for line in sink.lines for p in line
            ),
        )
        stdout.append((_kind(texts), texts))
        return
    if sink.kind == "print_collection":
        stdout.append(("text", "".join(_part_text(p, None, result, texts) for p in sink.parts)))
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


def _file_texts(sp: DfScriptProgram, full: Mapping[str, list[tuple]]) -> dict[str, str]:
    """The text of each input file by path expression, as the replay writes it (``open(p).read()``
    printed, ``frontend.script.df_files``); only computed when the script prints one."""
    parts = [p for k in sp.sinks for p in (*k.parts, *(q for line in k.lines for q in line))]
    if not any(p.kind in ("file", "listing") for p in parts):
        return {}
    out: dict[str, str] = {}
    for p in parts:
        if p.kind == "listing":  # frontend.script.df_listing
            out[f"listing:{p.text}"] = listing_text(sp.sources, p.text)
    for s in sp.sources:
        if s.kind in FILE_KINDS and s.path not in out:
            lines = source_lines(s.schema, full.get(s.param, []), s.kind, s.header, s.sep)
            out[s.path] = "".join(f"{line}\n" for line in lines)
    return out


def _part_text(p: Part, row: tuple[tuple, Any] | None, result: Any, texts: Mapping[str, str] | None = None
               ) -> str:
    if p.kind in ("lit", "arg", "opaque"):  # an argument or an opaque value: its stand-in on both sides
        return p.text
    if p.kind == "file":  # an input file's text (open(p).read())
        assert texts is not None
        return texts[p.text]
    if p.kind == "listing":  # os.listdir of a directory a source reads: the one file a check writes
        assert texts is not None
        return texts[f"listing:{p.text}"]
    if p.kind == "action":
        value = result(p.action)
        if p.conversion.startswith("spec:"):  # a count's format spec (frontend.script.df_formats)
            return format(value, p.conversion[len("spec:"):])
        if value is None or isinstance(value, int):
            return str(value)
        return _row_repr(tuple(value), value.columns)
    assert row is not None
    values, columns = row
    if p.conversion == "row":
        return _row_repr(values, columns)
    v = python_value(values[p.column], columns[p.column][1])
    return repr(v) if p.conversion == "repr" else str(v)


def _row_repr(values: Sequence[Any], columns: Sequence[tuple[str, str]]) -> str:
    """``repr(Row)`` as PySpark prints it: ``Row(dept='eng', total=10)``."""
    cells = (f"{n}={python_value(v, t)!r}" for (n, t), v in zip(columns, values, strict=True))
    return "Row(" + ", ".join(cells) + ")"


class _PyRow(tuple):
    """A struct cell as ``collect()`` returns it, a ``Row``: printed ``Row(a=1, b='x')``."""

    names: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return "Row(" + ", ".join(f"{n}={v!r}" for n, v in zip(self.names, self, strict=True)) + ")"

    __str__ = __repr__


def _top_split(text: str) -> list[str]:
    """``a:int,b:array<int,x>`` split at its top-level commas."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch == "<"
        depth -= ch == ">"
        if ch == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return out


def python_value(v: Any, type_text: str) -> Any:
    """A cell as PySpark's ``collect()`` gives it to the script, from the interpreter's value (which
    holds arrays and maps as tuples): an array is a ``list``, a map a ``dict``, a struct a ``Row``, so
    that ``print(row.a)`` prints ``['x', 'y']`` as Python does (review s4: it printed ``('x', 'y')``)."""
    t = type_text.strip()
    if v is None or not isinstance(v, tuple):
        return v
    if t.startswith("array<") and t.endswith(">"):
        return [python_value(x, t[len("array<"):-1]) for x in v]
    if t.startswith("map<") and t.endswith(">"):
        kt, vt = _top_split(t[len("map<"):-1])
        return {python_value(k, kt): python_value(x, vt) for k, x in v}
    if t.startswith("struct<") and t.endswith(">"):
        fields = [f.split(":", 1) for f in _top_split(t[len("struct<"):-1])]
        row = _PyRow(python_value(x, ft) for (_, ft), x in zip(fields, v, strict=True))
        row.names = tuple(n.strip("`") for n, _ in fields)
        return row
    return v


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


def show_string(v: Any, type_text: str, caveats: set[str] | None = None) -> str:
    """A cell as ``show()`` prints it (Spark 4's ``ToPrettyString``): a timestamp as ``CAST(ts AS
    STRING)`` (``2024-01-02 03:04:05``, not Python's isoformat with a ``T``), an array ``[a, NULL]``,
    a map ``{k -> v}``, a struct ``{a, 1}``; other values as ``spark_string`` (review s4)."""
    import datetime

    from sparklite.relational.timestamps import format_default

    t = type_text.strip()
    if isinstance(v, datetime.datetime):
        return format_default(v)
    if not isinstance(v, tuple):
        return spark_string(v, caveats)
    if t.startswith("array<") and t.endswith(">"):
        inner = t[len("array<"):-1]
        return "[" + ", ".join(show_string(x, inner, caveats) for x in v) + "]"
    if t.startswith("map<") and t.endswith(">"):
        kt, vt = _top_split(t[len("map<"):-1])
        pairs = (f"{show_string(k, kt, caveats)} -> {show_string(x, vt, caveats)}" for k, x in v)
        return "{" + ", ".join(pairs) + "}"
    if t.startswith("struct<") and t.endswith(">"):
        fts = [f.split(":", 1)[1] for f in _top_split(t[len("struct<"):-1])]
        return "{" + ", ".join(show_string(x, ft, caveats) for x, ft in zip(v, fts, strict=True)) + "}"
    return spark_string(v, caveats)


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
    types = [t for _, t in outcome.columns]
    cells = [[cell(show_string(v, t, caveats)) for v, t in zip(r, types, strict=True)]
             for r in _all_items(shown)]
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
    body = _map_rows(shown, lambda r: line([cell(show_string(v, t)) for v, t in zip(r, types, strict=True)]))
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
    """Could no run of one script write what a run of the other writes? (Errors: the error alone.)

    A run that needs an operation sparkeq does not model (``unmodelled``) is known only up to that point:
    its standard output *starts* with the text observed so far, and nothing is known of the rest or of
    its files. Such a run differs from another only when their known texts (exact, not depending on
    Spark's order of rows) disagree before either ends: no completion can make them equal."""
    if a.unmodelled is not None or b.unmodelled is not None:
        ta, tb = a.text(), b.text()
        if ta is None or tb is None:
            return False
        if a.unmodelled is not None and b.unmodelled is not None:
            return not (ta.startswith(tb) or tb.startswith(ta))
        return not (tb.startswith(ta) if a.unmodelled is not None else ta.startswith(tb))
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


FILE_KINDS = ("csv", "json", "text")


def realisable(sp: DfScriptProgram, tables: Mapping[str, list[tuple]]) -> bool:
    """Can every file source hold these rows, read back by Spark as themselves (a text file: one line
    per row, never NULL; a file read without a schema: one in which Spark finds the declared one)?"""
    for s in sp.sources:
        if s.kind not in FILE_KINDS:
            continue
        rows = tables.get(s.param, [])
        if s.kind == "text":
            if not all(_file_value_ok(r[0], "json", None) and r[0] is not None for r in rows):
                return False
            continue
        if s.inferred and not _infers(s, rows):
            return False
        types = [f.type for f in s.schema.fields]
        for row in rows:
            if s.kind == "csv" and all(v is None for v in row) and len(row) == 1:
                return False  # an empty line: Spark's CSV reader skips it
            if not all(_file_value_ok(v, s.kind, t) for v, t in zip(row, types, strict=True)):
                return False
    return True


_NOT_INFERRED = set("ghjkmopqvwxzGHJKMOPQVWXZ")  # letters no number, boolean, NaN or date holds


def _infers(s: Any, rows: Sequence[tuple]) -> bool:
    """Rows of a file read without a schema from which Spark infers the declared types (a column's
    widest value decides; an all-NULL column is a string in CSV and absent in JSON): every column has a
    value, ``int`` only 32-bit values, ``bigint`` (CSV) at least one beyond, ``double`` finite values,
    ``string`` (CSV) at least one value that reads as nothing else."""
    for i, f in enumerate(s.schema.fields):
        values = [r[i] for r in rows if r[i] is not None]
        t = f.type.simple
        if not values:
            return False
        if t == "int" and not all(-(2**31) <= v < 2**31 for v in values):
            return False
        if t == "bigint" and s.kind == "csv" and all(-(2**31) <= v < 2**31 for v in values):
            return False
        if t == "double" and not all(math.isfinite(v) for v in values):
            return False
        if t == "string" and s.kind == "csv" and not any(set(v) & _NOT_INFERRED for v in values):
            return False
    return True


def source_lines(schema: Schema, rows: Sequence[tuple], fmt: str, header: bool, sep: str) -> list[str]:
    """The lines of a file Spark reads back as ``rows``."""
    if fmt == "text":
        return [r[0] for r in rows]
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
    from verifier.core.relational_search import rows_json

    out: dict[str, Any] = {}
    for s in sp.sources:
        rows = tables.get(s.param, [])
        if s.kind in FILE_KINDS:
            out[s.path] = source_lines(s.schema, rows, s.kind, s.header, s.sep)
        elif s.kind == "table":
            out[s.path] = rows_json(s.schema, rows)
    return out


# --- the search ------------------------------------------------------------------------------------


@dataclass
class DfFound:
    """Input tables on which the scripts' observations differ (``why``: the caveat or error the difference
    rests on, None for a definite one) and which step found them (``origin``)."""

    tables: dict[str, list[tuple]]
    left: DfObservation
    right: DfObservation
    why: str | None
    origin: str


def _pair(
    left: DfScriptProgram, right: DfScriptProgram, tables: dict[str, list[tuple]], origin: str
) -> DfFound | None:
    lo, ro = observe(left, tables), observe(right, tables)
    if not observably_differ(lo, ro):
        return None
    return DfFound(tables, lo, ro, definite(lo, ro), origin)


def search(
    left: DfScriptProgram, right: DfScriptProgram, tries: int, seed: int = 0, *, until: float = float("inf")
) -> tuple[DfFound | None, DfFound | None, int]:
    """(a definite difference, the first one that waits for Spark, candidates tried): up to ``tries``
    seeded candidates, the same on every machine; ``until`` (monotonic time) is a hard cap only."""
    from verifier.core.relational_search import Pools, candidates

    params = left.params
    pools = Pools.of(params, (*left.actions, *right.actions))
    fixed = {s.param: list(s.rows) for s in left.sources if s.rows is not None}
    pending: DfFound | None = None
    tried = 0
    for tables, _, origin in candidates(params, pools, seed):
        if tried >= tries or (tried > 0 and time.monotonic() >= until):
            break
        tables = {**{k: list(v) for k, v in tables.items()}, **fixed}
        if not realisable(left, tables):
            continue
        tried += 1
        found = _pair(left, right, tables, origin)
        if found is None:
            continue
        if found.why is None:
            return _shrink(left, right, found, until + _SHRINK_SLACK_S), pending, tried
        if pending is None:
            pending = _shrink(left, right, found, until + _SHRINK_SLACK_S)
        if fixed and len(fixed) == len(params):
            break  # every input is fixed by the scripts: one candidate is all there is
    return None, pending, tried


def _shrink(left: DfScriptProgram, right: DfScriptProgram, found: DfFound, until: float) -> DfFound:
    """Fewer rows, then simpler values, while the difference stays (and stays as definite)."""
    from verifier.core.relational_search import _simpler_values

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


def describe(left: DfScriptProgram, right: DfScriptProgram) -> dict[str, Any]:
    """Where each source and sink is in both scripts, for the report (``verifier.interfaces.render``)."""
    # aligned sources share their table name; data written in one script only (a literal table with
    # no equal on the other side, ``align_df_sources``) is listed with the one side it is on
    theirs = {s.param: s for s in right.sources}
    sources = [
        {"path": ls.path, "kind": ls.kind, "left": str(ls.loc),
         "right": str(theirs[ls.param].loc) if ls.param in theirs else None}
        for ls in left.sources
    ]
    ours = {s.param for s in left.sources}
    sources += [{"path": rs.path, "kind": rs.kind, "left": None, "right": str(rs.loc)}
                for rs in right.sources if rs.param not in ours]
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
