"""What a DataFrame script is read into (``DfScriptProgram``: its sources, sinks and the relational
program of each sink's value) and the alignment of two scripts' sources before they are compared.
Apart from the translator so that the verifier and the replay need only this.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from sparklite.ast import Loc
from sparklite.errors import InputError
from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.types import (
    Schema,
)

_SHOW_DEFAULT = 20


@dataclass(frozen=True)
class DfSource:
    """One table the script reads. ``kind``: ``csv``/``json`` (a file written as Spark reads it) or
    ``literal`` (``createDataFrame`` of literal rows: ``rows`` fixed by the script). ``param`` is the
    table's name in every ``RelProgram`` of the script; ``path`` the path expression as written
    (``sys.argv[1]``, ``'data/emp.csv'``), what two scripts' sources are matched by; ``mode`` the
    reader's parse mode (``PERMISSIVE``, ``DROPMALFORMED``, ``FAILFAST``)."""

    param: str
    kind: str
    reader: str
    path: str
    loc: Loc
    schema: Schema
    argv_index: int | None = None
    literal_path: str | None = None
    header: bool = False
    sep: str = ","
    rows: tuple[tuple[Any, ...], ...] | None = None
    mode: str = "PERMISSIVE"
    inferred: bool = False  # read without a schema: Spark infers the declared one (an assumption)
    rdd: Any = None  # kind ``rdd``: the SparkLite program over the file's lines (frontend.script.mixed_text)
    dir_glob: str | None = None  # ``sys.argv[i] + "/*.csv"``: the files ``*.csv`` of a directory (df_listing)


@dataclass(frozen=True)
class Part:
    """A piece of printed text: ``lit`` (a constant), ``action`` (``str()`` of action ``action``'s result,
    a count or a ``first()`` row), ``field`` (``str()``/``repr()`` of column ``column`` of the row a
    loop prints), ``arg`` (the command-line argument ``sys.argv[column]``: the same text in both scripts,
    which get the same arguments) or ``opaque`` (text that differs from run to run, such as the
    SparkSession's repr with its object address: ``text`` stands for it and the comparison excludes it)."""

    kind: str
    text: str = ""
    action: int = -1
    column: int = -1
    conversion: str = "str"


@dataclass(frozen=True)
class Ignored:
    """A statement shown not to change what the script writes (``spark.stop()``, ``df.explain()``...),
    reported in the result's ``ignored_statements``: where, the construct, and why it does not matter."""

    loc: Loc
    construct: str
    why: str

    def to_json(self, side: str) -> dict[str, Any]:
        return {
            "side": side, "line": self.loc.line, "col": self.loc.col, "construct": self.construct,
            "why": self.why,
        }


@dataclass(frozen=True)
class DfSink:
    """One output, in the order the script produces it.

    ``kind``: ``print`` (a line of ``parts``), ``show`` (Spark's table of action ``action``: a
    ``take(n + 1)``), ``print_rows`` (a loop printing ``lines`` for each row of a collected action),
    ``print_collection`` (``print(df.collect())``: one line, the list's repr, after the literal text of
    ``parts`` when other values are printed before it: ``print("rows:", df.collect())``), ``write``
    (the files of ``df.write`` in ``fmt`` at ``path``, save mode ``mode``), ``glue`` (an AWS Glue output,
    ``fmt`` the call and ``path`` its literal arguments: ``frontend.script.glue``) or ``job`` (an action whose
    result is kept or dropped: it runs, and may raise, and prints nothing). ``text`` is the sink's
    source line, for reports."""

    index: int
    kind: str
    loc: Loc
    text: str
    action: int | None = None
    parts: tuple[Part, ...] = ()
    lines: tuple[tuple[Part, ...], ...] = ()
    show_n: int = _SHOW_DEFAULT
    truncate: int = 20
    fmt: str | None = None
    header: bool = False
    sep: str = ","
    path: str | None = None
    argv_index: int | None = None
    literal_path: str | None = None
    mode: str = "errorifexists"

    @property
    def words(self) -> str:
        return {
            "print": "printed text",
            "show": "show()",
            "print_rows": "printed rows",
            "print_collection": "printed collection",
            "job": "action run",
            "write": f"{self.fmt} files written",
            "glue": f"{self.fmt} (AWS Glue)",
        }[self.kind]


@dataclass(frozen=True)
class DfScriptProgram:
    """A DataFrame script: its sources (the tables of every action), its sinks in order, and the
    actions they run (``RelProgram``s over the sources' tables, in the order the script runs them).
    ``arg_checks``: every ``if`` on ``sys.argv`` the driver code decided (the statement as
    ``ast.unparse`` prints it, and where), in the order it ran them. ``ignored``: statements shown not
    to change the outputs; ``opaque``: printed values whose text changes from run to run (excluded from
    the comparison, with a warning)."""

    filename: str
    sources: tuple[DfSource, ...]
    sinks: tuple[DfSink, ...]
    actions: tuple[R.RelProgram, ...]
    argv_length: int
    entry: str | None = None
    arg_checks: tuple[tuple[str, Loc], ...] = ()
    ignored: tuple[Ignored, ...] = ()
    opaque: tuple[tuple[str, Loc], ...] = ()  # printed text excluded from the comparison: (what, where)
    code: str | None = None  # what a replay runs instead of the file: a notebook's cells, a given session
    glue: bool = False  # an AWS Glue job (frontend.script.glue): it runs only on AWS Glue, never replayed

    @property
    def params(self) -> tuple[R.TableParam, ...]:
        return tuple(R.TableParam(s.param, s.schema, loc=s.loc) for s in self.sources)




def align_df_sources(left: DfScriptProgram, right: DfScriptProgram) -> DfScriptProgram:
    """``right`` with its sources renamed and reordered to line up with ``left``'s: by path expression,
    then by order. Different numbers of sources, kinds, or columns are located ``InputError``s.

    Data written in the scripts (``createDataFrame`` of literal rows, ``spark.range``) is no input: a
    literal table of RIGHT takes the name of one of LEFT with the same schema and rows (the same
    constant), else a name of its own, so each side computes with its own data."""
    lits_left = [s for s in left.sources if s.kind == "literal"]
    lits_right = [s for s in right.sources if s.kind == "literal"]
    if lits_left or lits_right:
        free = list(lits_left)
        taken = {s.param for s in left.sources}
        names: dict[str, str] = {}
        for rs in lits_right:
            same = next((ls for ls in free if (ls.rows, ls.schema) == (rs.rows, rs.schema)), None)
            again = next((ls for ls in lits_left if (ls.rows, ls.schema) == (rs.rows, rs.schema)), None)
            if same is not None:
                free.remove(same)
                names[rs.param] = same.param
            elif again is not None:  # one more copy of a constant LEFT has: the same table
                names[rs.param] = again.param
            else:
                name, i = f"{rs.param}_right", 1
                while name in taken or name in {s.param for s in right.sources}:
                    i += 1
                    name = f"{rs.param}_right{i}"
                names[rs.param] = name
            taken.add(names[rs.param])
        inputs = replace(
            right,
            sources=tuple(s for s in right.sources if s.kind != "literal"),
            actions=tuple(_renamed(a, names, a.params) for a in right.actions),
        )
        files = replace(left, sources=tuple(s for s in left.sources if s.kind != "literal"))
        aligned = align_df_sources(files, inputs)
        lits = tuple(replace(s, param=names[s.param]) for s in lits_right)
        params = (*left.params, *(R.TableParam(s.param, s.schema, loc=s.loc) for s in lits
                                  if s.param not in {x.param for x in left.sources}))
        return replace(
            aligned,
            sources=aligned.sources + lits,
            actions=tuple(replace(a, params=params) for a in aligned.actions),
        )
    if len(left.sources) != len(right.sources):
        loc = right.sources[0].loc if right.sources else Loc(right.filename, 1, 1)
        raise InputError(
            f"the scripts read different numbers of inputs ({len(left.sources)} in "
            f"{left.filename}, {len(right.sources)} in {right.filename})",
            loc,
        )
    rest = list(right.sources)
    order: list[DfSource | None] = [None] * len(left.sources)
    for i, ls in enumerate(left.sources):
        match = next((rs for rs in rest if rs.path == ls.path), None)
        if match is not None:
            order[i] = match
            rest.remove(match)
    for i in range(len(order)):
        if order[i] is None:
            order[i] = rest.pop(0)
    renames: dict[str, str] = {}
    sources = []
    for ls, rs in zip(left.sources, order, strict=True):
        assert rs is not None
        what = (
            f"input {rs.path} ({rs.kind}) of {right.filename} cannot be matched with input {ls.path} "
            f"({ls.kind}) of {left.filename}"
        )
        if rs.kind != ls.kind or (ls.kind == "literal" and ls.rows != rs.rows) \
                or ((ls.dir_glob or rs.dir_glob) and ls.path != rs.path):  # a directory: by its path only
            raise InputError(what, rs.loc)
        lt = [(f.name.lower(), f.type) for f in ls.schema.fields]
        rt = [(f.name.lower(), f.type) for f in rs.schema.fields]
        if lt != rt:
            raise InputError(
                f"{what}: they read it with different schemas ({ls.schema} against {rs.schema})", rs.loc
            )
        if (ls.header, ls.sep) != (rs.header, rs.sep):
            raise InputError(
                f"{what}: they read the file with different options (header, sep): the same "
                "file cannot be given to both",
                rs.loc,
            )
        renames[rs.param] = ls.param
        sources.append(replace(rs, param=ls.param))
    actions = tuple(_renamed(a, renames, left.params) for a in right.actions)
    return replace(right, sources=tuple(sources), actions=actions)


def _renamed(program: R.RelProgram, names: dict[str, str], params: tuple[R.TableParam, ...]) -> R.RelProgram:
    return replace(program, params=params, body=build.rename_tables(program.body, names))
