"""AWS Glue jobs (``awsglue``: ``GlueContext``, ``DynamicFrame``, ``getResolvedOptions``, ``Job``) read as
DataFrame scripts, Glue's own operations kept opaque.

Why: a Glue job is a Spark job wrapped in Glue's API, and Glue runs nowhere but on AWS, so its
transforms (choice types, ``ApplyMapping``, ``Relationalize``...) cannot be observed and must not be
guessed. What can be said soundly (``sparklite.relational.opaque``): the same Glue call with the same
literal arguments on inputs proved equal gives the same result. So:

* ``GlueContext(sc)`` and ``glueContext.spark_session`` are the session; ``SparkContext()`` /
  ``SparkContext.getOrCreate()`` the context it wraps;
* ``Job(glueContext)``, ``job.init(...)``, ``job.commit()`` are Glue's bookkeeping of the run (its state
  and bookmarks for *later* runs): they write none of this run's outputs, and are listed as ignored;
* ``getResolvedOptions(sys.argv, [...])`` is the job's arguments, the same for both jobs (as
  ``sys.argv``); they may be handed to ``job.init`` only;
* ``glueContext.create_dynamic_frame.from_catalog/from_options`` (and ``create_dynamic_frame_from_*``)
  is a source: a table whose schema the user declares (``# sparkeq: schema DB.TABLE = "..."``, or
  ``--schema NAME=DDL`` by the table or the variable), matched between the jobs by the call's literal
  arguments (``transformation_ctx``'s name, a bookmark's, left out, but whether one is given kept: only a
  source given one is bookmarked; the result assumes bookmarks in the same state);
* ``dyf.toDF()`` and ``DynamicFrame.fromDF(df, ctx, name)`` carry the rows unchanged (``name`` names the
  frame for Glue's logs, it is no output);
* every Glue transform (``ApplyMapping.apply``, ``Join.apply``, ``dyf.resolveChoice``, ``drop_fields``,
  ``rename_field``...) is an ``Opaque`` node over its input frames; its output's columns are unknown
  unless declared for the variable it is bound to, and a later ``toDF()`` of an undeclared one says what
  to declare;
* ``glueContext.write_dynamic_frame.*``, ``purge_s3_path`` and ``dyf.show()`` are outputs (sinks of kind
  ``glue``) compared by their literal arguments and the rows they are given; the search cannot run them.

Anything else of Glue's is a located ``InputError``. A Glue job never runs on local Spark, so a verdict
about one is never replayed: differences that need Spark to confirm them stay ``unknown``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from typing import Any

from frontend.dataframe.columns import DF
from frontend.dataframe.values import DFV, ActionV, BoundV, ModV, PyV, SeqV, SessionV, Value
from sparklite.ast import Loc
from sparklite.errors import InputError, UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import opaque
from sparklite.relational.types import Schema

GLUE_MODULE = "awsglue"

TRANSFORMS = frozenset({
    "ApplyMapping", "ResolveChoice", "DropNullFields", "SelectFields", "DropFields", "RenameField",
    "Filter", "Map", "Join", "Relationalize", "Spigot", "Unbox", "UnnestFrame", "SplitFields", "SplitRows",
    "ErrorsAsDynamicFrame", "FillMissingValues", "FindMatches", "FlatMap", "MapToCollection", "Union",
    "DynamicFrameFilter", "EvaluateDataQuality",
})
"""The transform classes ``from awsglue.transforms import *`` brings in that jobs use."""

SIDE_EFFECTS = {
    "Spigot": "writes sample records to the path it is given (an output beyond the frame it returns, not "
              "modelled: a job calling it is not compared by its frames alone)",
    "EvaluateDataQuality": "publishes its rule outcomes (an output beyond the frame it returns, not "
                           "modelled)",
}
"""Glue transforms with an effect beyond the frame they return: refused (review 5 found an unused
``Spigot.apply(frame=f, path="s3://...")`` dropped without a word, the job proved equal to one without it)."""

BOOKKEEPING = "Glue's bookkeeping of the job run (its state and bookmarks for later runs): it writes none " \
              "of this run's outputs"

SOURCE_ASSUMPTION = ("each AWS Glue source (create_dynamic_frame) reads the same rows in both jobs, with the "
                     "schema declared for it (the same catalog table or connection, job bookmarks in the "
                     "same state)")


ROUND_TRIP = ("DynamicFrame.fromDF(df, ...) and dyf.toDF() carry the rows unchanged (the same values, "
              "column names and types; not observed, AWS Glue has no local runtime)")


def glue_names(tree: ast.Module) -> dict[str, str]:
    """Names bound by ``from awsglue... import X`` / ``import awsglue...`` at module level -> module."""
    out: dict[str, str] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.ImportFrom) and stmt.module and stmt.module.split(".")[0] == GLUE_MODULE:
            for a in stmt.names:
                out[a.asname or a.name] = stmt.module
        elif isinstance(stmt, ast.Import):
            for a in stmt.names:
                if a.name.split(".")[0] == GLUE_MODULE:
                    out[(a.asname or a.name).split(".")[0]] = a.name
    return out


def is_glue_job(tree: ast.Module) -> bool:
    """A module that imports from ``awsglue`` and builds a ``GlueContext``: a Glue job script."""
    return bool(glue_names(tree)) and any(isinstance(n, ast.Name) and n.id == "GlueContext"
                                          for n in ast.walk(tree))


def check_no_rdd_glue(tree: ast.Module, filename: str) -> None:
    """Raise at the first use of a Glue name in a Glue job that is not a DataFrame script (RDD code)."""
    if not is_glue_job(tree):
        return
    names = glue_names(tree)
    uses = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in names]
    first = min(uses, key=lambda n: (n.lineno, n.col_offset))
    raise UnsupportedError(
        f"'{first.id}' (from {names[first.id]}): an AWS Glue job is read as a DataFrame script, and this "
        "one has RDD code (textFile, parallelize, .rdd), which script mode does not read with Glue's API",
        Loc(filename, first.lineno, first.col_offset + 1),
        construct="awsglue",
    )


# --- values -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GlueContextV:
    """``GlueContext(sc)``."""


@dataclass(frozen=True)
class GlueIOV:
    """``glueContext.create_dynamic_frame`` (``write`` False), ``glueContext.write_dynamic_frame`` or
    ``glueContext.create_data_frame`` (``dataframe``: its sources give DataFrames)."""

    write: bool
    dataframe: bool = False


@dataclass(frozen=True)
class GlueLoggerV:
    """``glueContext.get_logger()``: Glue's log4j logger (records go to the job's log, not stdout)."""


@dataclass(eq=False)
class GlueSinkV:
    """``glueContext.getSink(...)``: its settings so far (``setFormat``, ``setCatalogInfo`` add to them,
    as statements), written by ``writeFrame(frame)``."""

    settings: list[tuple[str, Any]]


@dataclass(frozen=True)
class JobV:
    """``Job(glueContext)``."""


@dataclass(frozen=True)
class GlueArgsV:
    """``getResolvedOptions(sys.argv, names)``: the job's arguments, the same text for both jobs."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class GlueArgV:
    """``args[name]`` of ``getResolvedOptions``: handed to ``job.init`` or printed (the same text for
    both jobs, which get the same arguments, as a printed ``sys.argv[i]``)."""

    name: str


@dataclass(frozen=True)
class DynFrameV:
    """A ``DynamicFrame``: its rows as a relation; ``df`` when its columns are known (a source, a
    ``fromDF``, a transform whose output the user declared), ``made_by`` the transform that made it
    (for messages) and ``binding`` the variable it was first bound to."""

    rel: R.Rel
    df: DF | None
    made_by: str = ""
    binding: str | None = None


@dataclass(frozen=True)
class GlueDoneV:
    """What a Glue write returns: not read further."""

    what: str


GLUE_VALUES = (GlueContextV, GlueIOV, JobV, GlueArgsV, GlueArgV, DynFrameV, GlueDoneV, GlueSinkV, GlueLoggerV)


def is_glue_value(v: Any) -> bool:
    return isinstance(v, GLUE_VALUES)


# --- module names, calls and attributes ---------------------------------------------------------------


def star_name(info: Any, name: str) -> ModV | None:
    """A Glue transform class brought in by ``from awsglue.transforms import *``."""
    if name in TRANSFORMS and any(m.startswith(GLUE_MODULE) for m in getattr(info, "star_modules", ())):
        return ModV(f"{GLUE_MODULE}.transforms.{name}")
    return None


def module_call(tr: Any, path: str, args: list[Value], kwargs: dict[str, Value], loc: Loc,
                node: ast.AST) -> Value | None:
    """A call of a name imported from ``awsglue`` (or ``SparkContext`` in a Glue job), or None."""
    from frontend.script.df_meta import _SparkContextV

    parts = path.split(".")
    if path in ("pyspark.context.SparkContext", "pyspark.SparkContext",
                "pyspark.context.SparkContext.getOrCreate", "pyspark.SparkContext.getOrCreate"):
        return _SparkContextV()  # type: ignore[return-value]
    if parts[0] != GLUE_MODULE:
        return None
    last = parts[-1]
    if last == "GlueContext":  # the session: the job runs only on AWS Glue (DfScriptProgram.glue)
        tr.__dict__["glue_job"] = True
        return GlueContextV()  # type: ignore[return-value]
    if last == "Job":
        return JobV()  # type: ignore[return-value]
    if last == "getResolvedOptions":
        names = args[1] if len(args) > 1 else kwargs.get("options")
        if not isinstance(names, SeqV) or not all(isinstance(i, PyV) and isinstance(i.value, str)
                                                  for i in names.items):
            raise UnsupportedError("getResolvedOptions takes sys.argv and a literal list of argument names",
                                   loc, construct="getResolvedOptions")
        resolved = tuple(i.value for i in names.items)  # type: ignore[union-attr]
        # an argument check: Glue's parser fails the job when one of these is missing from the command
        # line, so two jobs resolving other names are not run alike by one command line (review 5: a job
        # requiring --OUT was proved equal to one that does not, without a word)
        tr.arg_checks.append((f"getResolvedOptions(sys.argv, {list(resolved)!r})", loc))
        return GlueArgsV(resolved)  # type: ignore[return-value]
    if parts[-2:] == ["DynamicFrame", "fromDF"]:
        df = args[0] if args else kwargs.get("dataframe")
        if not isinstance(df, DFV):
            raise UnsupportedError("DynamicFrame.fromDF takes a DataFrame", loc, construct="fromDF")
        return DynFrameV(df.df.rel, df.df, "DynamicFrame.fromDF", tr.binding)  # type: ignore[return-value]
    if len(parts) >= 2 and parts[-2] in SIDE_EFFECTS and last == "apply":
        raise UnsupportedError(f"{parts[-2]}.apply {SIDE_EFFECTS[parts[-2]]}", loc, construct=parts[-2])
    if len(parts) >= 2 and parts[-2] in TRANSFORMS and last == "apply":
        return transform(tr, f"{parts[-2]}.apply", None, args, kwargs, loc)  # type: ignore[return-value]
    raise UnsupportedError(f"{'.'.join(parts[1:]) or path} of AWS Glue is not modelled in script mode",
                           loc, construct="awsglue")


def attribute(tr: Any, base: Value, attr: str, node: ast.Attribute) -> Value:
    if isinstance(base, GlueContextV):
        if attr == "spark_session":
            return SessionV()
        if attr in ("create_dynamic_frame", "write_dynamic_frame", "create_data_frame"):
            return GlueIOV(attr == "write_dynamic_frame", attr == "create_data_frame")  # type: ignore[return-value]
    if isinstance(base, GlueArgsV | GlueArgV | GlueDoneV):
        raise UnsupportedError(f"{_what(base)} is only handed to job.init() or printed in script mode",
                               tr.loc(node), construct="awsglue")
    return BoundV(base, attr, tr.attr_loc(node))


def subscript(tr: Any, base: GlueArgsV, key: Value, node: ast.AST) -> Value:
    if not isinstance(key, PyV) or key.value not in base.names:
        raise InputError(f"getResolvedOptions resolved only {', '.join(base.names)}: args[{_text(key)}] "
                         "raises KeyError", tr.loc(node))
    return GlueArgV(key.value)  # type: ignore[return-value]


def method_call(tr: Any, recv: Value, name: str, args: list[Value], kwargs: dict[str, Value], loc: Loc,
                node: ast.AST) -> Value:
    """``recv.name(args)`` for a Glue value ``recv``."""
    if isinstance(recv, JobV):
        if name in ("init", "commit"):
            tr.ignore(node, f"job.{name}()", BOOKKEEPING)
            return PyV(None)
    elif isinstance(recv, GlueContextV):
        if name in ("create_dynamic_frame_from_catalog", "create_dynamic_frame_from_options"):
            return source(tr, name.rsplit("_", 1)[1], args, kwargs, loc)
        if name in ("create_data_frame_from_catalog", "create_data_frame_from_options"):
            frame = source(tr, name.rsplit("_", 1)[1], args, kwargs, loc, dataframe=True)
            return DFV(known(tr, frame, loc))
        if name == "get_logger" and not args and not kwargs:
            return GlueLoggerV()  # type: ignore[return-value]
        if name == "getSink":
            settings = [("getSink", _literal_args(tr, "glueContext.getSink", args, kwargs, loc))]
            return GlueSinkV(settings)  # type: ignore[return-value]
        if name in ("write_dynamic_frame_from_options", "write_dynamic_frame_from_catalog",
                    "write_dynamic_frame_from_jdbc_conf"):
            return write(tr, name.replace("write_dynamic_frame_", ""), args, kwargs, loc)
        if name == "purge_s3_path":
            tr.add_sink("glue", tr.stmt or node, fmt="glueContext.purge_s3_path",
                        path=_literal_args(tr, "purge_s3_path", args, kwargs, loc))
            return GlueDoneV("purge_s3_path")  # type: ignore[return-value]
    elif isinstance(recv, GlueIOV):
        if not recv.write and name in ("from_catalog", "from_options"):
            frame = source(tr, name[len("from_"):], args, kwargs, loc, dataframe=recv.dataframe)
            return DFV(known(tr, frame, loc)) if recv.dataframe else frame
        if recv.write and name in ("from_catalog", "from_options", "from_jdbc_conf"):
            return write(tr, name[len("from_"):], args, kwargs, loc)
    elif isinstance(recv, GlueLoggerV):
        if name in ("info", "warn", "error", "debug"):
            for v in [*args, *kwargs.values()]:  # a job among the arguments still runs there (and may raise)
                if isinstance(v, ActionV):
                    tr.add_action_sink("job", v, tr.stmt or node)
                for part in getattr(v, "parts", ()):  # str(df.count()) in the message
                    if getattr(part, "kind", None) == "action":
                        tr.add_sink("job", tr.stmt or node, action=part.action)
            tr.ignore(node, f"logger.{name}()", "a Glue log record goes to the job's log (CloudWatch), not "
                      "to its outputs")
            return PyV(None)
    elif isinstance(recv, GlueSinkV):
        if name in ("setFormat", "setCatalogInfo"):
            recv.settings.append((name, _literal_args(tr, f"sink.{name}", args, kwargs, loc)))
            return PyV(None)
        if name == "writeFrame":
            frame = args[0] if args else kwargs.get("dynamic_frame")
            if not isinstance(frame, DynFrameV) or len(args) + len(kwargs) != 1:
                raise UnsupportedError("sink.writeFrame takes one DynamicFrame", loc, construct="writeFrame")
            text = "; ".join(f"{k}({v})" for k, v in recv.settings)
            tr.add_sink("glue", tr.stmt or node, fmt="glueContext.getSink(...).writeFrame", path=text,
                        action=tr.new_action(frame.rel, loc))
            return GlueDoneV("writeFrame")  # type: ignore[return-value]
    elif isinstance(recv, DynFrameV):
        if name == "toDF" and not args and not kwargs:
            return DFV(known(tr, recv, loc))
        if name in ("show", "printSchema"):
            n = _literal_args(tr, f"DynamicFrame.{name}", args, kwargs, loc)
            tr.add_sink("glue", tr.stmt or node, fmt=f"DynamicFrame.{name}", path=n,
                        action=tr.new_action(recv.rel, loc))
            return PyV(None)
        if name == "spigot":
            raise UnsupportedError(f"DynamicFrame.spigot {SIDE_EFFECTS['Spigot']}", loc, construct=name)
        if name in ("relationalize", "split_fields", "split_rows"):
            raise UnsupportedError(f"DynamicFrame.{name} returns a DynamicFrameCollection, whose frames "
                                   "are not known statically: not modelled in script mode", loc,
                                   construct=name)
        if name == "count" and not args and not kwargs:  # the number of Glue's records: not modelled
            node = R.Opaque("DynamicFrame.count", (), (recv.rel,), Schema(()), False, loc=loc)
            return ActionV(R.Action("count", node, None, loc=loc))
        if name in ("schema", "toJSON", "getNumPartitions", "errorsCount", "stageErrorsCount"):
            raise UnsupportedError(f"DynamicFrame.{name}() is not modelled in script mode", loc,
                                   construct=name)
        return transform(tr, f"DynamicFrame.{name}", recv, args, kwargs, loc)
    raise UnsupportedError(f"{_what(recv)}.{name}() of AWS Glue is not modelled in script mode", loc,
                           construct=name)


# --- sources, transforms, writes ------------------------------------------------------------------------


def source(tr: Any, kind: str, args: list[Value], kwargs: dict[str, Value], loc: Loc,
           dataframe: bool = False) -> DynFrameV:
    """A Glue source: a table input whose schema the user declares (``dataframe``: read by
    ``create_data_frame``, whose catalog reader takes no ``redshift_tmp_dir``)."""
    what = "create_data_frame" if dataframe else "create_dynamic_frame"
    order = {"catalog": ("database", "table_name", "redshift_tmp_dir", "transformation_ctx",
                         "push_down_predicate", "additional_options", "catalog_id"),
             "options": ("connection_type", "connection_options", "format", "format_options",
                         "transformation_ctx")}[kind]
    if dataframe and kind == "catalog":
        order = ("database", "table_name", "transformation_ctx", "additional_options", "catalog_id")
    named = _bind(order, args, kwargs, f"{what}.from_{kind}", loc)
    # its name is a bookmark's, but whether there is one is not: AWS Glue's job bookmarks apply only to a
    # source given a transformation_ctx (then a run reads only data no earlier run processed), so a
    # source with one and a source without are not the same input (review 5)
    bookmarked = named.pop("transformation_ctx", None) is not None
    call = f"glueContext.{what}.from_{kind}"
    values = {k: _python(tr, v, call, loc) for k, v in named.items()}
    shown = [f"{k}={v!r}" for k, v in values.items()] + (["<bookmarked>"] if bookmarked else [])
    path = f"{call}({', '.join(shown)})"
    keys: list[str] = []
    if kind == "catalog" and isinstance(values.get("table_name"), str):
        if isinstance(values.get("database"), str):
            keys.append(f"{values['database']}.{values['table_name']}")
        keys.append(values["table_name"])
    if tr.binding and tr.binding.lower() not in _bound(tr):
        keys.append(tr.binding)
    schema = next((s for k in keys for s in (tr.declared.get(k.lower()), tr.schemas.get(k.lower()))
                   if s is not None), None)
    if schema is None:
        first = keys[0] if keys else "NAME"
        option = next((k for k in reversed(keys) if k.isidentifier()), None)  # --schema takes identifiers
        raise InputError(
            f"{call}(...) needs a schema in script mode (AWS Glue reads the columns from its Data Catalog "
            f"or the data, which sparkeq cannot see): declare it with a comment `# sparkeq: schema {first} = "
            f"\"id INT, name STRING\"`" + (f" or pass --schema '{option}=id INT, name STRING'" if option else
                                            "; bind the frame to a variable to name it"),
            loc,
        )
    schema = Schema(tuple(replace(f, nullable=True) for f in schema.fields))  # never NOT NULL
    key = (path, "glue")
    src = tr.source_keys.get(key)
    if src is None:
        src = tr._add_source(tr.fresh_param(), "table", call, path, loc, schema)
        tr.source_keys[key] = src
    df = tr.table_df(src.param, src.schema, loc)
    return DynFrameV(df.rel, df, call, tr.binding)


def transform(tr: Any, op: str, recv: DynFrameV | None, args: list[Value], kwargs: dict[str, Value],
              loc: Loc) -> DynFrameV:
    """A Glue transform: an ``Opaque`` node over its input frames (in argument order) with its literal
    arguments; the output's columns are the ones declared for the variable it is bound to, if any."""
    sources: list[R.Rel] = [] if recv is None else [recv.rel]
    lits: list[tuple[str, Any]] = []
    items = [(str(i), v) for i, v in enumerate(args)] + sorted(kwargs.items())
    for name, v in items:
        if name == "transformation_ctx":
            continue
        if isinstance(v, DynFrameV):
            sources.append(v.rel)
            lits.append((name, ("frame", len(sources) - 1)))
        else:
            lits.append((name, _python(tr, v, op, loc)))
    if not sources:
        raise UnsupportedError(f"{op} without a DynamicFrame argument is not modelled", loc, construct=op)
    node = R.Opaque(op, tuple(lits), tuple(sources), Schema(()), False, loc=loc)
    return DynFrameV(node, None, op, tr.binding)  # columns unknown, unless declared (``bound``)


def bound(tr: Any, name: str, value: Value) -> Value:
    """``name = value`` in the job: the first frame bound to ``name`` takes the schema declared for
    ``name`` (``--schema customer_df=...``), if the transform that made it has none; a later frame bound to
    the same name (``customer_df = ApplyMapping.apply(frame=customer_df, ...)``) is another frame, with
    other columns, and takes none."""
    if not isinstance(value, DynFrameV):
        return value
    seen = _bound(tr)
    first = name.lower() not in seen
    seen.add(name.lower())
    node = value.rel
    declared = tr.declared.get(name.lower()) or tr.schemas.get(name.lower())
    if not first or declared is None or not isinstance(node, R.Opaque) or node.declared:
        return value
    # the declared names and types are part of the call's key: two jobs declaring other columns for the
    # same call are not the same call (congruence and the prover compare only types otherwise)
    columns = tuple((f.name, f.type.simple) for f in declared.fields)
    node = replace(node, schema=declared, declared=True, args=(*node.args, ("declared columns", columns)))
    return DynFrameV(node, tr.fresh_df(node), value.made_by, name)


def write(tr: Any, kind: str, args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    """A Glue write: a sink compared by its literal arguments and the rows of the frame it writes."""
    order = {"options": ("frame", "connection_type", "connection_options", "format", "format_options",
                         "transformation_ctx"),
             "catalog": ("frame", "database", "table_name", "redshift_tmp_dir", "transformation_ctx",
                         "additional_options", "catalog_id"),
             "jdbc_conf": ("frame", "catalog_connection", "connection_options", "redshift_tmp_dir",
                           "transformation_ctx", "catalog_id")}[kind]
    call = f"glueContext.write_dynamic_frame.from_{kind}"
    named = _bind(order, args, kwargs, call, loc)
    frame = named.pop("frame", None)
    if not isinstance(frame, DynFrameV):
        raise UnsupportedError(f"{call} takes frame=<a DynamicFrame>", loc, construct="write_dynamic_frame")
    named.pop("transformation_ctx", None)
    values = {k: _python(tr, v, call, loc) for k, v in named.items()}
    text = ", ".join(f"{k}={v!r}" for k, v in values.items())
    tr.add_sink("glue", tr.stmt, fmt=call, path=text, action=tr.new_action(frame.rel, loc))
    return GlueDoneV(call)  # type: ignore[return-value]


def known(tr: Any, frame: DynFrameV, loc: Loc) -> DF:
    """The frame's columns, or a message saying what to declare."""
    if frame.df is not None:
        return frame.df
    name = frame.binding or "NAME"
    raise InputError(
        f"the columns of {frame.made_by}'s result are not known (AWS Glue's transforms are not modelled): "
        f"declare them for the variable it is bound to, `# sparkeq: schema {name} = \"id INT, name STRING\"` "
        f"or --schema '{name}=id INT, name STRING' (an assumption the result lists)",
        loc,
    )


# --- what a Glue job's result assumes -----------------------------------------------------------------


def assumptions(sp: Any) -> list[str]:
    """What a proof (or congruence) of a DataFrame script rests on beyond its DataFrame code: its Glue
    sources and outputs, every opaque call it makes (a Glue transform, a random column:
    ``sparklite.relational.opaque``), the output schemas declared for Glue transforms."""
    out: list[str] = []
    if any(s.reader.startswith("glueContext.") for s in sp.sources):
        out.append(SOURCE_ASSUMPTION)
    if getattr(sp, "glue", False):
        out.append(ROUND_TRIP)
    for sink in sp.sinks:
        if sink.kind == "glue":
            out.append(sink_assumption(sink))
    for action in sp.actions:
        out += opaque.assumptions(action.body)
        out += [f"the result of {n.op} has the columns declared for it ({n.schema})"
                for n in opaque.opaque_nodes(action.body) if n.declared and is_glue_op(n.op)]
    return list(dict.fromkeys(out))


def is_glue_op(op: str) -> bool:
    """Is ``op`` a Glue transform (whose output columns only a user's declaration gives)?"""
    return op.split(".")[0] in TRANSFORMS | {"DynamicFrame"}


def sink_assumption(sink: Any) -> str:
    what = sink.fmt
    if sink.action is None:
        return f"{what} is not modelled: the same call has the same effect in both jobs"
    return (f"{what} is not modelled: it writes the same for the same arguments and equal rows (the same "
            "rows with the same column names and types, in the same order where either is sorted)")


def unmodelled(sp: Any) -> list[str]:
    """Why the interpreter cannot say what ``sp`` writes (its Glue outputs, its opaque operations)."""
    out = [f"{s.fmt} (AWS Glue) is not modelled: only proved by congruence" for s in sp.sinks
           if s.kind == "glue"]
    out += [opaque.reason(n) for a in sp.actions for n in opaque.opaque_nodes(a.body)]
    return list(dict.fromkeys(out))


def is_glue(sp: Any) -> bool:
    """Does ``sp`` run only on AWS Glue (it builds a GlueContext)? Then it is never replayed."""
    return bool(getattr(sp, "glue", False))


# --- helpers ------------------------------------------------------------------------------------------


def _bound(tr: Any) -> set[str]:
    """The variables a frame was bound to so far (lower-cased)."""
    out: set[str] = tr.__dict__.setdefault("glue_bound", set())
    return out


def _bind(order: tuple[str, ...], args: list[Value], kwargs: dict[str, Value], call: str, loc: Loc
          ) -> dict[str, Value]:
    if len(args) > len(order):
        raise InputError(f"{call} takes at most {len(order)} positional arguments", loc)
    named = dict(zip(order, args, strict=False))
    for k, v in kwargs.items():
        if k not in order:
            raise UnsupportedError(f"{call}: the argument {k!r} is not modelled", loc, construct=k)
        if k in named:
            raise InputError(f"{call} got {k!r} twice (Python raises TypeError)", loc)
        named[k] = v
    return {k: named[k] for k in order if k in named}


def _python(tr: Any, v: Value, call: str, loc: Loc) -> Any:
    """A literal argument as a hashable key (``opaque.literal``), or a located refusal. A function
    (``Filter.apply(frame=f, f=lambda r: r["a"] > 1)``, ``Map.apply(frame=f, f=fix)``) is keyed by its
    code when it reads nothing but its parameters and builtins: the same code is the same function."""
    from frontend.dataframe.values import FuncV

    if isinstance(v, FuncV):
        return ("function", _function_key(v.node, call, loc, _shadowed(getattr(tr, "tree", None))))
    value = _plain(v)
    key = opaque.literal(value) if value is not _NOT_LITERAL else None
    if value is _NOT_LITERAL or (key is None and value is not None):
        raise UnsupportedError(
            f"{call}: an argument that is {_what(v)} is not modelled (Glue's operations are compared by "
            "their literal arguments: strings, numbers, lists, tuples, dicts)",
            loc,
            construct="awsglue",
        )
    return key


_NOT_LITERAL = object()

_SAFE_BUILTINS = frozenset({"len", "str", "int", "float", "bool", "abs", "min", "max", "round", "None",
                            "True", "False", "isinstance", "dict", "list", "tuple", "sorted", "sum"})


def _shadowed(tree: ast.Module | None) -> frozenset[str]:
    """The names of ``_SAFE_BUILTINS`` the job may bind to something else (a def, an assignment, an
    import, a star import of a module other than Glue's): all of them when the tree is unknown. Review 5
    found a job defining ``len`` proved equal to one using the builtin, as the function code was equal."""
    if tree is None:
        return _SAFE_BUILTINS
    bound: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            bound.add(n.id)
        elif isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(n.name)
        elif isinstance(n, ast.Global | ast.Nonlocal):
            bound.update(n.names)
        elif isinstance(n, ast.Import | ast.ImportFrom):
            if any(a.name == "*" for a in n.names):
                if not (isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] == GLUE_MODULE):
                    return _SAFE_BUILTINS
            bound.update((a.asname or a.name).split(".")[0] for a in n.names)
    return _SAFE_BUILTINS & frozenset(bound)


def _function_key(node: ast.FunctionDef | ast.Lambda, call: str, loc: Loc,
                  shadowed: frozenset[str] = frozenset()) -> str:
    """The code of a function handed to a Glue transform, without locations; refused when it reads a
    name other than its parameters, its own local names and a few builtins (a module value or a closure
    could differ between the jobs with the same code)."""
    params = {a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)}
    if node.args.vararg or node.args.kwarg or node.args.defaults or node.args.kw_defaults:
        raise UnsupportedError(f"{call}: a function with defaults or *args is not modelled", loc,
                               construct="awsglue")
    assigned = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    free = sorted({n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
                  - params - assigned - (_SAFE_BUILTINS - shadowed))
    if free or isinstance(node, ast.FunctionDef) and node.decorator_list:
        raise UnsupportedError(
            f"{call}: the function handed to it reads {', '.join(free) or 'a decorator'}, which may differ "
            "between jobs with the same code: only functions of their parameters are compared (by code)",
            loc, construct="awsglue")
    body: ast.AST = ast.Lambda(node.args, node.body)
    if isinstance(node, ast.FunctionDef):  # its name is not its meaning
        body = ast.FunctionDef(name="f", args=node.args, body=node.body, decorator_list=[], returns=None)
    return ast.dump(body, annotate_fields=False, include_attributes=False)


def _plain(v: Any) -> Any:
    from frontend.dataframe.values import DictV

    if isinstance(v, PyV):
        return v.value
    if isinstance(v, SeqV):
        items = [_plain(i) for i in v.items]
        if any(i is _NOT_LITERAL for i in items):
            return _NOT_LITERAL
        return items if v.is_list else tuple(items)
    if isinstance(v, DictV):
        pairs = [(_plain(k), _plain(x)) for k, x in v.items]
        if any(k is _NOT_LITERAL or x is _NOT_LITERAL for k, x in pairs):
            return _NOT_LITERAL
        try:
            return dict(pairs)
        except TypeError:
            return _NOT_LITERAL
    return _NOT_LITERAL


def _literal_args(tr: Any, call: str, args: list[Value], kwargs: dict[str, Value], loc: Loc) -> str:
    values = [repr(_python(tr, a, call, loc)) for a in args]
    values += [f"{k}={_python(tr, v, call, loc)!r}" for k, v in sorted(kwargs.items())
               if k != "transformation_ctx"]
    return ", ".join(values)


def _what(v: Any) -> str:
    names = {GlueContextV: "the GlueContext", GlueIOV: "glueContext.create/write_dynamic_frame",
             GlueSinkV: "a Glue sink (getSink)", GlueLoggerV: "Glue's logger",
             JobV: "a Glue Job", GlueArgsV: "the job's arguments (getResolvedOptions)",
             GlueArgV: "a job argument (getResolvedOptions)", DynFrameV: "a DynamicFrame",
             GlueDoneV: "the result of a Glue write"}
    for cls, text in names.items():
        if isinstance(v, cls):
            return text
    return type(v).__name__.removesuffix("V").lower() or "a value"


def _text(v: Any) -> str:
    return repr(v.value) if isinstance(v, PyV) else "..."
