"""Whole DataFrame scripts (script mode for ``spark.read`` jobs): a job as users run it, read with ``ast``.

Why: a DataFrame job is a script too -- a session built at the top, ``spark.read.csv(sys.argv[1],
schema=..., header=True)``, DataFrame methods or ``spark.sql`` over temp views, and ``show()``,
``df.write.csv(sys.argv[2])`` or ``print(df.count())`` at the end. ``script.rdd_script`` reads RDD jobs;
this module reads DataFrame jobs by running the DataFrame frontend's driver interpreter
(``frontend.dataframe.translator.DataFrameTranslator``) over the whole module, as Python would run it, without
importing or running anything:

* every **source** is a table input of the relational kernel: ``spark.read.csv/json(p)`` (with
  ``schema=`` a DDL string or a ``StructType`` literal; file sources make every column nullable, as
  Spark does), ``spark.read.format(f).option(...).load(p)``, ``spark.createDataFrame(<literal rows>,
  schema)`` (a table whose rows the script fixes); sources are named by their path expression
  (``sys.argv[1]``), which is what two scripts' sources are matched by (then by position);
* every **sink** is an output, in the order the script produces it: ``df.show(n, truncate)`` (Spark's
  text table of ``take(n + 1)``), ``print(...)`` of constants and ``count()``/``first()`` results,
  ``print(df.collect())``, ``for row in df.collect(): print(row.a, ...)``, ``df.write...csv/json(p)``;
  each action is one ``RelProgram`` over all the sources (``DfScriptProgram.actions``);
* the rest of the driver code is as in a DataFrame function (assignments, helpers inlined, temp views,
  ``if``/``for`` on constants), plus the script's own: ``sys.argv[i]``, an argument check on
  ``len(sys.argv)`` (decided with one argument per ``sys.argv[i]`` used), ``if __name__ ==
  "__main__":``, ``main()``, ``spark.stop()``, ``setLogLevel``, prints to ``sys.stderr``.

Anything else that could change what the script writes is a located ``InputError``. The observation of
each sink (what two scripts' outputs are compared by) is computed in ``verifier.core.df_script_search``.

The result and the alignment of sources are in ``df_program``, the driver values and helpers in
``df_meta``; this module holds the entry points and the translator.
"""

from __future__ import annotations

import ast as pyast
from contextvars import ContextVar
from dataclasses import replace
from typing import Any

from frontend.dataframe.evaluator import Env, _Return
from frontend.dataframe.module import DATAFRAME_ONLY_METHODS, scan_names
from frontend.dataframe.translator import DataFrameTranslator, parse_source
from frontend.dataframe.values import (
    DFV,
    FUNCTIONS_MODULE,
    TYPES_MODULE,
    ActionV,
    BoundV,
    ModV,
    PyV,
    SeqV,
    SessionV,
    TypeV,
    Value,
    as_int,
    as_str,
    canonical,
    describe,
)
from frontend.script import (
    df_crosstab,
    df_files,
    df_formats,
    df_listing,
    df_nested,
    df_opaque,
    df_pandas,
    df_session,
    glue,
    mixed_df,
    mixed_text,
)
from frontend.script.df_meta import (
    _DONE,
    SESSION_REPR,
    _action_of,
    _ArgV,
    _FieldV,
    _flag,
    _infer,
    _Kept,
    _merged,
    _py,
    _ReaderChain,
    _RowClass,
    _RowLit,
    _RowV,
    _RuntimeConf,
    _save_mode,
    _SparkContextV,
    _StructV,
    _StrV,
    _verified,
    _what,
    _Writer,
    check_inferable,
    declared_schemas,
    df_repr,
    literal_repr,
    struct_repr,
    tree_string,
)
from frontend.script.df_program import _SHOW_DEFAULT, DfScriptProgram, DfSink, DfSource, Ignored, Part
from frontend.script.notebook import GIVEN_SESSION, given_session, notebook_code
from sparklite.ast import Loc
from sparklite.errors import InputError, NameResolutionError, UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.types import (
    BIGINT,
    STRING,
    Field,
    Schema,
    SchemaError,
    parse_ddl,
)

__all__ = [
    "COMPARE_DIAGNOSTICS",
    "is_df_script",
    "translate_df_script",
]

# --compare-diagnostics for the scripts being loaded (verifier.core.run.load_both sets it): diagnostic
# printouts (df.explain(), describe().show()) are then refused instead of excluded
COMPARE_DIAGNOSTICS: ContextVar[bool] = ContextVar("compare_diagnostics", default=False)

FILE_FORMATS = ("csv", "json")
_READ_OPTIONS = {
    "header",
    "sep",
    "delimiter",
    "mode",
    "inferSchema",
    "encoding",
    "charset",
    "multiLine",
    "multiline",
}
_HARMLESS_CONF = (
    "spark.ui.",
    "spark.app.name",
    "spark.executor.memory",
    "spark.driver.memory",
    "spark.executor.cores",
    "spark.driver.cores",
    "spark.eventLog.",
    "spark.logConf",
    "spark.master",
    "spark.sql.shuffle.partitions",
    "spark.sql.adaptive.",
    "spark.local.dir",
    "spark.driver.host",
    "spark.driver.bindAddress",
    "spark.default.parallelism",
)




# --- is this a DataFrame script? --------------------------------------------------------------------

_RDD_WORDS = frozenset({"textFile", "parallelize", "rdd", "wholeTextFiles", "binaryFiles", "sequenceFile"})
_DF_WORDS = frozenset({"read", "createDataFrame", "sql", "table"}) | DATAFRAME_ONLY_METHODS


def is_df_script(source: str, filename: str = "<input>") -> bool:
    """A whole script whose Spark code is DataFrame code: it builds a ``SparkSession`` and reads with
    ``spark.read``/``createDataFrame``/``spark.sql``/``spark.table`` (no RDD source, no ``.rdd``), and no
    top-level function takes a DataFrame parameter (a file of DataFrame functions keeps its meaning)."""
    try:
        tree = pyast.parse(source, filename=filename)
    except (SyntaxError, ValueError):
        return False
    words = {n.attr for n in pyast.walk(tree) if isinstance(n, pyast.Attribute)}
    names = {n.id for n in pyast.walk(tree) if isinstance(n, pyast.Name)}
    if glue.is_glue_job(tree) and not words & _RDD_WORDS:  # an AWS Glue job (frontend.script.glue)
        return True
    mixed = bool(words & _RDD_WORDS) and mixed_df.reads_as_df_script(words)  # issue 23
    if (words & _RDD_WORDS and not mixed) or "SparkContext" in names:
        return False
    given = given_session(tree)  # shell or notebook code: spark is predefined
    sources = {"read", "createDataFrame", "sql", "table", "range"} | ({"toDF", "rdd"} if mixed else set())
    if ("builder" not in words and not given) or not words & sources:
        return False
    for fn in tree.body:
        if isinstance(fn, pyast.FunctionDef) and any(
            a.annotation is not None and "DataFrame" in pyast.unparse(a.annotation) for a in fn.args.args
        ):
            return False
    return True


def translate_df_script_file(
    path: str,
    entry: str | None = None,
    schemas: dict[str, Schema] | None = None,
    compare_diagnostics: bool | None = None,
) -> DfScriptProgram:
    try:
        with open(path, encoding="utf-8") as fh:
            source = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path}: {exc}", Loc(path, 1, 1)) from None
    if path.endswith(".ipynb"):
        source = notebook_code(source, path)
    return translate_df_script(source, path, entry, schemas, compare_diagnostics)


def translate_df_script(
    source: str,
    filename: str = "<input>",
    entry: str | None = None,
    schemas: dict[str, Schema] | None = None,
    compare_diagnostics: bool | None = None,
) -> DfScriptProgram:
    """Read the DataFrame script ``source`` (never imported or run). ``schemas`` (``--schema``) give the
    tables ``spark.table(name)`` reads and the schema of a source bound to a name (``emp =
    spark.read.json(p)`` without a schema: ``--schema 'emp=...'``)."""
    tree = parse_source(source, filename)
    if compare_diagnostics is None:
        compare_diagnostics = COMPARE_DIAGNOSTICS.get()
    tr = _ScriptTranslator(
        scan_names(tree, filename), source, dict(schemas or {}), tree, entry, compare_diagnostics
    )
    try:
        sp = tr.run()
    except RecursionError:
        raise InputError("the script is nested too deeply to translate", Loc(filename, 1, 1)) from None
    if tr.__dict__.get("glue_job"):  # it built a GlueContext (frontend.script.glue)
        sp = replace(sp, glue=True)
    if tr.given or filename.endswith(".ipynb"):
        return replace(sp, code=(GIVEN_SESSION if tr.given else "") + source)
    return sp




# --- the translator ----------------------------------------------------------------------------------




class _ScriptTranslator(DataFrameTranslator):
    """The DataFrame driver interpreter run over a whole module, with sources and sinks recorded."""

    def __init__(
        self,
        info: Any,
        source: str,
        schemas: dict[str, Schema],
        tree: pyast.Module,
        entry: str | None,
        compare_diagnostics: bool = False,
    ) -> None:
        super().__init__(info, source, {k.lower(): v for k, v in schemas.items()})
        self.tree = tree
        self.compare_diagnostics = compare_diagnostics
        self.declared = declared_schemas(source, self.filename)
        self.given = given_session(tree)  # spark and sc are predefined (shell or notebook code)
        self.entry = entry
        self.sources: list[DfSource] = []
        self.source_keys: dict[tuple[str, str], DfSource] = {}
        self.sinks: list[DfSink] = []
        self.actions: list[R.RelProgram] = []
        self.catalog_settings: list[tuple[str, Loc]] = []  # df_session.CATALOG_CONF settings made
        self.binding: str | None = None  # the name the statement being run assigns to
        self.taken = {n.id for n in pyast.walk(tree) if isinstance(n, pyast.Name)}
        indices = [
            n.slice.value
            for n in pyast.walk(tree)
            if isinstance(n, pyast.Subscript)
            and isinstance(n.slice, pyast.Constant)
            and type(n.slice.value) is int
            and n.slice.value >= 1
            and pyast.unparse(n.value) in ("sys.argv", "argv")
        ]
        self.argv_length = max(indices, default=0) + 1
        self.stmt: pyast.stmt | None = None
        self.arg_checks: list[tuple[str, Loc]] = []
        self.module_env = Env({})  # the module's globals as the driver code binds them
        self.ignored: list[Ignored] = []
        self.opaque: list[tuple[str, Loc]] = []
        self.stopped: Loc | None = None  # where spark.stop() ran: no job may run after it
        self.unknown_stars: list[str] = []  # star imports of modules script mode does not read
        self.opened: list[df_files.OpenFile] = []  # open(p) of an input file (df_files)
        self.opened_read: set[int] = set()  # ... the handles already read (by id)
        self.listings: list[df_listing.ListingV] = []  # os.listdir(p) of a directory read (df_listing)

    def module_value(self, name: str, node: pyast.AST) -> Value:
        if name in self.module_env.vars:
            return self.module_env.vars[name]
        if name == "open" and df_files.is_builtin_open(self.info):
            return df_files.OpenBuiltin()  # type: ignore[return-value]
        try:
            return super().module_value(name, node)
        except NameResolutionError:
            found = glue.star_name(self.info, name)  # from awsglue.transforms import *
            if found is not None:
                return found
            delta = df_session.star_name(self.unknown_stars, name)  # from delta import *
            if delta is not None:
                return ModV(delta)
            if not self.unknown_stars:
                raise
            raise UnsupportedError(
                f"name '{name}' is not defined in the script: it may come from "
                f"'{self.unknown_stars[0]}', which script mode does not read",
                self.loc(node),
                construct="import",
            ) from None

    # -- the whole module ---------------------------------------------------------------------------

    def run(self) -> DfScriptProgram:
        env = self.module_env
        if self.given:
            env.vars["spark"] = SessionV()
            env.vars["sc"] = _SparkContextV()  # type: ignore[assignment]
        for name, schema in self.declared.items():
            if name.isidentifier() and name not in self.schemas:  # a catalog table spark.table(name) reads
                self.schemas[name] = schema
        for name, schema in self.schemas.items():

            self.catalog[name] = build.table(name, schema, Loc(self.filename, 1, 1))
        body = [s for s in self.tree.body if not isinstance(s, pyast.FunctionDef | pyast.ClassDef)]  # defined
        self.exec_block(body, env)
        if self.entry is not None:
            fn = self.info.defs.get(self.entry)
            if fn is None:
                raise InputError(
                    f"no top-level function named '{self.entry}' in {self.filename}", Loc(self.filename, 1, 1)
                )
            self.exec_block(fn.body, Env({}, env))
        if self.tables_used and self.catalog_settings:
            key, where = self.catalog_settings[0]
            raise UnsupportedError(
                f"{key} set by a script that reads catalog tables (spark.table or SQL): the setting decides "
                "which tables it reads", where, construct="config")
        for use in self.tables_used:
            self._add_source(
                use.name, "table", "spark.table", repr(use.name), Loc(self.filename, 1, 1), use.schema
            )
        if not self.sinks or all(k.kind == "job" for k in self.sinks):
            raise InputError(
                f"no output found in {self.filename}: script mode compares what a DataFrame "
                "script shows (show()), prints (count(), collect()) or writes (df.write)",
                Loc(self.filename, 1, 1),
            )
        df_files.check_opened(self.opened, self.sources)
        df_listing.check_listings(self.listings, self.sources, self.sinks)
        params = tuple(R.TableParam(s.param, s.schema, loc=s.loc) for s in self.sources)
        actions = tuple(replace(a, params=params) for a in self.actions)
        return DfScriptProgram(
            self.filename,
            tuple(self.sources),
            tuple(self.sinks),
            actions,
            self.argv_length,
            self.entry,
            tuple(self.arg_checks),
            tuple(self.ignored),
            tuple(self.opaque),
        )

    def snippet(self, node: pyast.AST) -> str:
        line = getattr(node, "lineno", 1)
        return self.lines[line - 1].strip() if 0 < line <= len(self.lines) else ""

    # -- statements -----------------------------------------------------------------------------------

    def exec_stmt(self, stmt: pyast.stmt, env: Env) -> _Return | None:  # noqa: C901 - one dispatch
        self.stmt = stmt
        if isinstance(stmt, pyast.Expr) and isinstance(stmt.value, pyast.Call):
            value = self.sink_statement(stmt.value, stmt, env)
            if isinstance(value, ActionV):
                self.add_action_sink("job", value, stmt)
            return None
        if (
            isinstance(stmt, pyast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], pyast.Name)
        ):
            self.binding = stmt.targets[0].id
            try:
                value = self.ev(stmt.value, env)
            finally:
                self.binding = None
            if isinstance(value, ActionV):  # the job runs here, where Python runs it
                index = self.add_action_sink("job", value, stmt)
                value = _Kept(value, index)  # type: ignore[assignment]
            value = glue.bound(self, stmt.targets[0].id, value)  # a declared Glue frame (script.glue)
            self.assign(stmt.targets[0], value, env)
            return None
        if isinstance(stmt, pyast.For) and not stmt.orelse:
            it = self.ev(stmt.iter, env)
            if isinstance(it, ActionV | _Kept):
                self.loop_sink(stmt, it, env)
                return None
        if isinstance(stmt, pyast.If):
            cond = self.ev(stmt.test, env)
            if not isinstance(cond, PyV):
                raise UnsupportedError(
                    f"an if on {describe(cond)} is not supported in script mode: only "
                    "conditions on constants and len(sys.argv) are decided",
                    self.loc(stmt.test),
                    construct="if",
                )
            if any(pyast.unparse(n) in ("sys.argv", "argv") for n in pyast.walk(stmt.test)):
                self.arg_checks.append((pyast.unparse(stmt), self.loc(stmt)))
        if isinstance(stmt, pyast.ImportFrom) and any(a.name == "*" for a in stmt.names) \
                and any(stmt is s for s in self.tree.body):
            # a module-level star import: the module scan read it (info.star_modules resolves its names)
            if stmt.level == 0 and stmt.module and canonical(stmt.module) in (FUNCTIONS_MODULE, TYPES_MODULE):
                return None
            if stmt.level == 0 and stmt.module and stmt.module.split(".")[0] == glue.GLUE_MODULE:
                return None  # Glue's transforms (frontend.script.glue.star_name)
            text = f"from {'.' * stmt.level}{stmt.module or ''} import *"
            self.unknown_stars.append(text)
            self.ignore(stmt, text, "no name the script uses comes from it: a name it does not define is "
                        "refused where it is used")
            return None
        if isinstance(stmt, pyast.Try | pyast.With | pyast.While | pyast.Raise):
            kind = type(stmt).__name__.lower()
            raise UnsupportedError(
                f"'{kind}' in the script's driver code is not supported (script mode reads "
                "straight-line driver code, argument checks and loops over collected "
                "rows)",
                self.loc(stmt),
                construct=kind,
            )
        return super().exec_stmt(stmt, env)

    def sink_statement(self, call: pyast.Call, stmt: pyast.stmt, env: Env) -> Any:
        """Run the call statement ``call``: a sink, a driver function, a session call, or an ordinary
        call whose value is returned (``_DONE`` for the rest)."""
        f = call.func
        if isinstance(f, pyast.Name) and f.id == "print" and env.lookup("print") is None:
            self.print_statement(call, stmt, env)
            return _DONE
        if isinstance(f, pyast.Attribute) and f.attr == "exit" and pyast.unparse(f.value) in ("sys", "os"):
            raise UnsupportedError(
                "sys.exit other than in an argument check is not supported in a DataFrame script",
                self.loc(call),
                construct="sys.exit",
            )
        if (
            isinstance(f, pyast.Name)
            and f.id in self.info.defs
            and f.id not in self.info.opaque
            and env.lookup(f.id) is None
        ):
            fn = self.info.defs[f.id]
            args = [self.ev(a, env) for a in call.args]
            if call.keywords:
                raise UnsupportedError(
                    "keyword arguments to a driver function are not supported",
                    self.loc(call),
                    construct="call",
                )
            params = [a.arg for a in fn.args.args]
            if len(args) != len(params):
                raise InputError(
                    f"{fn.name}() takes {len(params)} argument(s), {len(args)} given "
                    "(Python raises TypeError)",
                    self.loc(call),
                )
            self.exec_block(fn.body, Env(dict(zip(params, args, strict=True)), self.module_env))
            return _DONE
        if not isinstance(f, pyast.Attribute):
            return self.ev(call, env)
        if (
            f.attr == "show"
            and isinstance(f.value, pyast.Call)
            and isinstance(f.value.func, pyast.Attribute)
            and f.value.func.attr in ("describe", "summary")
        ):
            return self.statistics_shown(f.value.func, call, stmt, env)
        recv = self.ev(f.value, env)
        if isinstance(recv, SessionV) and f.attr == "stop" and not call.args and not call.keywords:
            self.stopped = self.loc(call)
            self.ignore(call, "spark.stop()", "stops the session once the jobs are done; it writes "
                        "nothing (a job after it would fail, and is refused)")
            return _DONE
        if isinstance(recv, _SparkContextV) and f.attr in ("setLogLevel", "setJobDescription"):
            self.ignore(call, f"sparkContext.{f.attr}()", "changes what Spark logs on stderr (or the UI), "
                        "which is not an output")
            return _DONE
        if isinstance(recv, ModV) and canonical(recv.path).startswith("logging"):
            self.logging_call(call, stmt, env)
            return _DONE
        if isinstance(recv, DFV) and f.attr == "show":
            self.show_sink(recv, call, stmt, env)
            return _DONE
        if isinstance(recv, DFV) and f.attr == "printSchema":
            self.print_schema(recv, call, stmt, env)
            return _DONE
        if isinstance(recv, DFV) and f.attr == "explain":
            self.diagnostic(call, "df.explain()", "the plan Spark prints differs between equivalent programs "
                            "by design")
            return _DONE
        if isinstance(recv, _Writer):
            self.write_sink(recv, f.attr, call, stmt, env)
            return _DONE
        func = self.attribute(recv, f.attr, f)
        args: list[Value] = []
        for a in call.args:
            if isinstance(a, pyast.Starred):
                args += self.iterate(self.ev(a.value, env), a)
            else:
                args.append(self.ev(a, env))
        kwargs = {k.arg: self.ev(k.value, env) for k in call.keywords if k.arg is not None}
        if len(kwargs) != len(call.keywords):
            raise UnsupportedError("** arguments are not supported here", self.loc(call), construct="**")
        loc = func.loc if isinstance(func, BoundV) else self.loc(call)
        return self.call(func, args, kwargs, loc, call)

    # -- statements that write nothing ------------------------------------------------------------------

    def ignore(self, node: pyast.AST, construct: str, why: str) -> None:
        self.ignored.append(Ignored(self.loc(node), construct, why))

    def diagnostic(self, node: pyast.AST, construct: str, why: str) -> None:
        """A diagnostic printout excluded from the comparison by default (``docs/scripts.md``); with
        ``compare_diagnostics`` (``--compare-diagnostics``) it is refused instead, as it is not modelled."""
        if self.compare_diagnostics:
            raise UnsupportedError(
                f"{construct} prints a diagnostic that script mode does not model ({why}); without "
                "--compare-diagnostics it is excluded from the comparison",
                self.loc(node),
                construct=construct,
            )
        self.ignore(
            node, construct, f"excluded diagnostic output: {why} (--compare-diagnostics to include it)"
        )

    def statistics_shown(self, stats: pyast.Attribute, call: pyast.Call, stmt: pyast.stmt, env: Env) -> Any:
        """``df.describe(...).show()`` / ``df.summary(...).show()``: summary statistics of the data, an
        excluded diagnostic by the stated rule (``docs/scripts.md``). Its job still runs where Python
        runs it and may raise: it is kept as the job of ``df.collect()``, which evaluates every column as
        the statistics do."""
        df = self.ev(stats.value, env)
        if not isinstance(df, DFV):
            raise UnsupportedError(
                f"{stats.attr}() on {describe(df)} is not supported", self.loc(stats), construct=stats.attr
            )
        self.diagnostic(call, f"df.{stats.attr}().show()", "summary statistics printed to look at the data")
        self.add_action_sink("job", ActionV(R.Action("collect", df.df.rel, loc=self.loc(call))), stmt)
        return _DONE

    def logging_call(self, call: pyast.Call, stmt: pyast.stmt, env: Env) -> None:
        """``logging.info(...)``/``logging.basicConfig(...)``: a record goes to stderr or a log file, not
        to the outputs; its arguments are still evaluated, and a job among them runs there. Logging told
        to write elsewhere (``basicConfig(stream=sys.stdout)``, ``handlers=``) would print its records:
        refused, else two scripts logging different text would be proved equivalent."""
        for k in call.keywords:
            dest = self.ev(k.value, env) if k.arg == "stream" else None
            if k.arg is None or k.arg == "handlers" or k.arg == "stream" and not (
                    isinstance(dest, ModV) and canonical(dest.path) == "sys.stderr"):
                raise UnsupportedError("logging configured to write elsewhere than standard error (a stream "
                                       "or handlers) is not understood in script mode: its records may be "
                                       "printed output", self.loc(k.value), construct="logging")
        for a in [*call.args, *(k.value for k in call.keywords)]:
            v = self.ev(a, env)
            if isinstance(v, ActionV):
                self.add_action_sink("job", v, stmt)
        self.ignore(call, "logging", "a log record goes to stderr or a log file, not to the outputs")

    def print_schema(self, recv: DFV, call: pyast.Call, stmt: pyast.stmt, env: Env) -> None:
        """``df.printSchema()``: the schema is known statically; PySpark prints its tree string."""
        args = [self.ev(a, env) for a in call.args] + [self.ev(k.value, env) for k in call.keywords]
        level = None
        if args:
            level = as_int(args[0], self.loc(call), "printSchema's level")
        text = tree_string(recv.df.columns, recv.df.fields, self.loc(call), level)
        self.add_sink("print", stmt, parts=(Part("lit", text),))

    # -- sinks ------------------------------------------------------------------------------------------

    def add_sink(self, kind: str, stmt: pyast.AST, **extra: Any) -> int:
        self.sinks.append(DfSink(len(self.sinks), kind, self.loc(stmt), self.snippet(stmt), **extra))
        return len(self.sinks) - 1

    def new_action(self, action: R.Action | R.Rel, loc: Loc) -> int:
        if self.stopped is not None:
            raise UnsupportedError(
                f"a job after spark.stop() ({self.stopped}) fails on Spark; script mode does not model it",
                self.loc(self.stmt) if self.stmt is not None else loc,
                construct="stop",
            )
        self.actions.append(
            R.RelProgram(f"action_{len(self.actions) + 1}", (), action, language="dataframe", loc=loc)
        )
        return len(self.actions) - 1

    def add_action_sink(self, kind: str, value: ActionV, stmt: pyast.AST) -> int:
        return self.add_sink(kind, stmt, action=self.new_action(value.action, self.loc(stmt)))

    def print_statement(self, call: pyast.Call, stmt: pyast.stmt, env: Env) -> None:
        sep, to_stderr = " ", False
        for kw in call.keywords:
            v = self.ev(kw.value, env)
            if kw.arg == "sep" and isinstance(v, PyV) and isinstance(v.value, str | None):
                sep = " " if v.value is None else v.value
            elif (
                kw.arg == "file" and isinstance(v, ModV) and canonical(v.path) in ("sys.stderr", "sys.stdout")
            ):
                to_stderr = canonical(v.path) == "sys.stderr"
            elif kw.arg == "end" and isinstance(v, PyV) and v.value in ("\n", None):
                continue
            elif kw.arg == "flush":
                continue
            else:
                raise UnsupportedError(
                    f"print's {kw.arg}= is not supported in script mode (only sep=, "
                    "file=sys.stderr and end='\\n')",
                    self.loc(kw.value),
                    construct="print",
                )
        values = [self.ev(a, env) for a in call.args]
        if to_stderr:
            if any(isinstance(v, ActionV) for v in values):
                raise UnsupportedError(
                    "an action printed to sys.stderr is not supported", self.loc(call), construct="print"
                )
            self.ignore(call, "print(..., file=sys.stderr)", "stderr is not an output")
            return
        if values and isinstance(values[-1], ActionV | _Kept):
            act = _action_of(values[-1])
            if act.kind in ("collect", "take"):
                prefix: list[Part] = []
                for i, v in enumerate(values[:-1]):
                    prefix.extend(self.printable(v, call.args[i]))
                    prefix.append(Part("lit", sep))
                if any(p.kind != "lit" for p in prefix):
                    raise UnsupportedError(
                        "a collected list can only be printed after constant text (print('rows:', "
                        "df.collect())): its text depends on the order Spark returns the rows in",
                        self.loc(call),
                        construct="print",
                    )
                self.add_sink(
                    "print_collection", stmt, action=self.action_index(values[-1], stmt),
                    parts=tuple(_merged(prefix)),
                )
                return
        parts: list[Part] = []
        for i, v in enumerate(values):
            if i and sep:
                parts.append(Part("lit", sep))
            parts.extend(self.printable(v, call.args[i]))
        parts.append(Part("lit", "\n"))
        self.add_sink("print", stmt, parts=tuple(_merged(parts)))

    def _stmt_action(self, v: Any) -> int:
        return self.action_index(v, self.stmt or pyast.Pass())

    def action_index(self, v: Any, stmt: pyast.AST) -> int:
        if isinstance(v, _Kept):
            return self.sinks[v.sink].action  # type: ignore[return-value]
        return self.new_action(v.action, self.loc(stmt))

    def printable(self, v: Any, node: pyast.AST) -> list[Part]:
        """The text ``str(v)`` as parts."""
        if isinstance(v, PyV) and (v.value is None or isinstance(v.value, str | int | float | bool)):
            return [Part("lit", str(v.value))]
        literal = literal_repr(v)
        if literal is not None:  # a literal list, tuple, dict or Row (data bound above, df.columns, dtypes)
            return [Part("lit", literal)]
        if isinstance(v, DFV):  # str(df): its dtypes, known statically
            return [Part("lit", df_repr(v.df.columns, v.df.fields))]
        if isinstance(v, _StructV) and struct_repr(v.fields) is not None:
            return [Part("lit", struct_repr(v.fields) or "")]
        if isinstance(v, SessionV):
            self.opaque.append(("the SparkSession's repr (an object address)", self.loc(node)))
            return [Part("opaque", SESSION_REPR)]
        if isinstance(v, mixed_df.LiteralRddV | mixed_df.DfRddV):
            self.opaque.append(("an RDD's repr (its id and lineage)", self.loc(node)))
            return [Part("opaque", mixed_df.RDD_REPR)]
        if isinstance(v, df_pandas.PandasV):  # pandas' own text: an opaque value (frontend.script.df_pandas)
            return [Part("action", action=self.action_index(df_pandas.repr_action(v, self.loc(node)),
                                                            self.stmt or node))]
        if isinstance(v, _ArgV):
            return [Part("arg", f"sys.argv[{v.index}]", column=v.index)]
        if isinstance(v, df_session.CwdV):  # the same directory for both scripts, as sys.argv
            return [Part("arg", v.TEXT)]
        if isinstance(v, df_listing.ListingV):  # one value both scripts see alike (df_listing)
            return [Part("listing", v.path)]
        if isinstance(v, _StrV):
            return list(v.parts)
        if isinstance(v, glue.GlueArgV):  # a Glue job's argument: the same text for both jobs, as sys.argv
            return [Part("arg", f"<job argument --{v.name}>")]
        if isinstance(v, ActionV | _Kept):
            act = _action_of(v)
            if act.kind in ("count", "first"):
                return [Part("action", action=self.action_index(v, self.stmt or node))]
            raise UnsupportedError(
                "a collected list can only be printed on its own (print(df.collect())): "
                "its text depends on the order Spark returns the rows in",
                self.loc(node),
                construct="print",
            )
        if isinstance(v, _FieldV):
            return [Part("field", column=v.column)]
        if isinstance(v, _RowV):
            return [Part("field", column=-1, conversion="row")]
        raise UnsupportedError(
            f"printing {_what(v)} is not supported in script mode", self.loc(node), construct="print"
        )

    def show_sink(self, recv: DFV, call: pyast.Call, stmt: pyast.stmt, env: Env) -> None:
        from frontend.dataframe import functions as DFF
        args = [self.ev(a, env) for a in call.args]
        kwargs = {k.arg or "": self.ev(k.value, env) for k in call.keywords}
        b, _ = DFF.sig("n=None", "truncate=True", "vertical=False").bind("show", args, kwargs, self.loc(call))
        n = _SHOW_DEFAULT if b["n"] == PyV(None) else as_int(b["n"], self.loc(call), "show()'s n")
        t = b["truncate"]
        if not isinstance(t, PyV) or not isinstance(t.value, bool | int):
            raise InputError("show()'s truncate must be a bool or an int", self.loc(call))
        truncate = (20 if t.value else 0) if isinstance(t.value, bool) else int(t.value)
        if b["vertical"] != PyV(False):
            raise UnsupportedError("show(vertical=True) is not supported", self.loc(call), construct="show")
        if n < 0:
            raise UnsupportedError(
                "show() with a negative n is not supported", self.loc(call), construct="show"
            )
        action = self.new_action(R.Action("take", recv.df.rel, n + 1, loc=self.loc(call)), self.loc(call))
        self.add_sink("show", stmt, action=action, show_n=n, truncate=truncate)

    def loop_sink(self, stmt: pyast.For, it: Any, env: Env) -> None:
        act = _action_of(it)
        if act.kind not in ("collect", "take"):
            raise UnsupportedError(
                f"a loop over {act.kind}() is not supported", self.loc(stmt.iter), construct="for"
            )
        if not isinstance(stmt.target, pyast.Name):
            raise UnsupportedError(
                "a loop over collected rows must bind one name (for row in df.collect())",
                self.loc(stmt.target),
                construct="for",
            )
        columns = tuple(f.name for f in act.source.schema.fields)
        inner = Env({stmt.target.id: _RowV(columns)}, env)  # type: ignore[dict-item]
        lines: list[tuple[Part, ...]] = []
        for s in stmt.body:
            if not (
                isinstance(s, pyast.Expr)
                and isinstance(s.value, pyast.Call)
                and isinstance(s.value.func, pyast.Name)
                and s.value.func.id == "print"
            ):
                raise UnsupportedError(
                    "a loop over collected rows may only print (print(row.a, row['b']))",
                    self.loc(s),
                    construct="for",
                )
            before = len(self.sinks)
            self.print_statement(s.value, s, inner)
            if len(self.sinks) > before:
                sink = self.sinks.pop()
                lines.append(sink.parts)
        action = self.action_index(it, stmt)
        self.add_sink("print_rows", stmt, action=action, lines=tuple(lines))

    def write_sink(self, w: _Writer, method: str, call: pyast.Call, stmt: pyast.stmt, env: Env) -> None:
        args = [self.ev(a, env) for a in call.args]
        kwargs = {k.arg or "": self.ev(k.value, env) for k in call.keywords}
        fmt = w.fmt
        options = dict(w.options)
        if method in ("csv", "json", "parquet", "text", "orc"):
            fmt = method
        elif method != "save":
            raise UnsupportedError(
                f"df.write.{method} is not supported in script mode", self.loc(call), construct=method
            )
        if not args and "path" not in kwargs:
            raise UnsupportedError(
                "df.write without a path is not supported", self.loc(call), construct="write"
            )
        path_v = args[0] if args else kwargs.pop("path")
        for k, v in kwargs.items():
            options[k] = v
        mode = w.mode
        for key in ("mode", "format"):
            if key in options:
                val = options.pop(key)
                if key == "format":
                    fmt = as_str(val, self.loc(call), "a format")
                else:
                    mode = _save_mode(as_str(val, self.loc(call), "a save mode"), self.loc(call))
        if fmt not in FILE_FORMATS:
            raise UnsupportedError(
                f"writing {fmt or 'the default format (parquet)'} is not supported in "
                "script mode (csv and json are)",
                self.loc(call),
                construct="write",
            )
        header = _flag(options.pop("header", PyV(False)), self.loc(call))
        sep = options.pop("sep", options.pop("delimiter", PyV(",")))
        for k in options:
            raise UnsupportedError(f"the write option {k!r} is not modelled", self.loc(call), construct=k)
        for f in w.df.fields:  # review s4: their written text is not modelled (Spark: CSV refuses arrays,
            # writes 2024-01-02T03:04:05.000Z for a timestamp; the search wrote tuples and isoformat)
            if f.type.simple.startswith(("array", "map", "struct", "timestamp")):
                raise UnsupportedError(
                    f"writing a {f.type.simple} column to {fmt} is not modelled in script mode",
                    self.loc(call),
                    construct="write",
                )
        path, argv_index, literal = self.path_of(path_v, call.args[0] if call.args else call)
        self.add_sink(
            "write",
            stmt,
            action=self.new_action(w.df.rel, self.loc(call)),
            fmt=fmt,
            header=header and fmt == "csv",
            sep=as_str(sep, self.loc(call), "sep"),
            path=path,
            argv_index=argv_index,
            literal_path=literal,
            mode=mode,
        )

    # -- values ----------------------------------------------------------------------------------------

    def name_value(self, name: str, node: pyast.AST, env: Env) -> Value:
        if name == "__name__" and env.lookup(name) is None:
            return PyV("__main__" if self.entry is None else self.filename)
        return super().name_value(name, node, env)

    def attribute(self, base: Value, attr: str, node: pyast.Attribute) -> Value:
        if glue.is_glue_value(base):
            return glue.attribute(self, base, attr, node)
        if isinstance(base, ModV) and canonical(base.path) == "sys" and attr == "argv":
            return ModV("sys.argv")
        if isinstance(base, DFV) and attr == "write":
            return _Writer(base.df)  # type: ignore[return-value]
        if isinstance(base, DFV) and attr == "schema":  # known statically, as df.columns and df.dtypes
            fields = tuple(replace(f, name=n) for n, f in zip(base.df.columns, base.df.fields, strict=True))
            return _StructV(fields)  # type: ignore[return-value]
        if isinstance(base, SessionV) and attr == "read":
            return _ReaderChain()  # type: ignore[return-value]
        if isinstance(base, SessionV) and attr == "conf":
            return _RuntimeConf()  # type: ignore[return-value]
        if isinstance(base, SessionV) and attr == "sparkContext":
            return _SparkContextV()  # type: ignore[return-value]
        if isinstance(base, _RowV):
            return self.row_field(base, attr, node)  # type: ignore[return-value]
        if isinstance(base, _RowLit) and attr in base.names:  # a field of a Row the script wrote
            return df_nested.driver_value(base.values[base.names.index(attr)])  # type: ignore[no-any-return]
        if isinstance(base, DFV) and attr == "rdd":  # a mixed script (issue 23): frontend.script.mixed_df
            return mixed_df.DfRddV(base)  # type: ignore[return-value]
        if isinstance(base, _ReaderChain | _Writer | _SparkContextV | _Kept | _RuntimeConf
                      | df_files.OpenFile | mixed_df.LiteralRddV | mixed_df.DfRddV | mixed_text.TextRddV):
            return BoundV(base, attr, self.attr_loc(node))  # type: ignore[arg-type]
        return super().attribute(base, attr, node)

    def row_field(self, row: _RowV, key: Any, node: pyast.AST) -> _FieldV:
        if isinstance(key, int) and not isinstance(key, bool):
            if not -len(row.columns) <= key < len(row.columns):
                raise InputError(
                    f"row[{key}]: the rows have {len(row.columns)} columns (Python raises IndexError)",
                    self.loc(node),
                )
            return _FieldV(key % len(row.columns))
        if isinstance(key, str) and key in row.columns:
            return _FieldV(row.columns.index(key))
        raise InputError(
            f"the rows have no field {key!r} (their columns: {', '.join(row.columns)}); PySpark raises here",
            self.loc(node),
        )

    def subscript(self, node: pyast.Subscript, env: Env) -> Value:
        if not isinstance(node.slice, pyast.Slice):
            base = self.ev(node.value, env)
            if isinstance(base, ModV) and base.path == "sys.argv":
                key = self.ev(node.slice, env)
                if isinstance(key, PyV) and type(key.value) is int and key.value >= 1:
                    return _ArgV(key.value)  # type: ignore[return-value]
                raise UnsupportedError(
                    "sys.argv is read only as sys.argv[i] with a constant i >= 1",
                    self.loc(node),
                    construct="sys.argv",
                )
            if isinstance(base, glue.GlueArgsV):
                return glue.subscript(self, base, self.ev(node.slice, env), node)
            if isinstance(base, _RowV):
                key = self.ev(node.slice, env)
                return self.row_field(base, getattr(key, "value", None), node)  # type: ignore[return-value]
        return super().subscript(node, env)

    def ev(self, node: pyast.expr, env: Env) -> Value:
        if isinstance(node, pyast.JoinedStr):
            return self.fstring(node, env)  # type: ignore[return-value]
        if (
            isinstance(node, pyast.BinOp)
            and isinstance(node.op, pyast.Mod)
            and isinstance(node.left, pyast.Constant)
            and isinstance(node.left.value, str)
        ):
            right = self.ev(node.right, env)
            items = right.items if isinstance(right, SeqV) and not right.is_list else (right,)
            if all(isinstance(i, PyV) for i in items):
                return super().ev(node, env)
            return self.percent(node.left.value, list(items), node)  # type: ignore[return-value]
        return super().ev(node, env)

    def binop(self, op: str, left: Value, right: Value, loc: Loc) -> Value:
        """``"count: " + str(df.count())``: text joined from pieces that are strings whatever the data
        (constants, ``str(...)``, formats). A row's field is not one of them: ``row.name + ","`` raises
        TypeError in Python when the field is NULL or not a string, which is not modelled."""
        texts = (_StrV, PyV, _ArgV)
        if op == "+" and isinstance(left, _ArgV | _StrV | PyV) and isinstance(right, _ArgV | _StrV | PyV):
            left, right = self.as_text(left), self.as_text(right)  # sys.argv[i]: its text, the same
        if op == "+" and isinstance(left, texts) and isinstance(right, texts) \
                and (isinstance(left, _StrV) or isinstance(right, _StrV)):
            if all(isinstance(v, _StrV) or isinstance(v.value, str) for v in (left, right)):
                pieces = [p for v in (left, right) for p in self.printable(v, self.stmt or pyast.Pass())]
                return _StrV(tuple(_merged(pieces)))  # type: ignore[return-value]
        if op == "+" and (isinstance(left, _FieldV) or isinstance(right, _FieldV)):
            raise UnsupportedError(
                "'+' on a field of a collected row is not modelled (Python raises TypeError when the "
                "field is NULL or not a string): print it with str(row.x), an f-string or print's commas",
                loc,
                construct="+",
            )
        return super().binop(op, left, right, loc)

    def as_text(self, v: Any) -> Any:
        return _StrV(tuple(self.printable(v, self.stmt or pyast.Pass()))) if isinstance(v, _ArgV) else v

    def fstring(self, node: pyast.JoinedStr, env: Env) -> Value:
        parts: list[Part] = []
        for v in node.values:
            if isinstance(v, pyast.Constant):
                parts.append(Part("lit", str(v.value)))
                continue
            assert isinstance(v, pyast.FormattedValue)
            val = self.ev(v.value, env)
            if v.format_spec is not None:
                spec = v.format_spec
                if v.conversion != -1 or not all(isinstance(s, pyast.Constant) for s in spec.values):
                    raise UnsupportedError(
                        "a format spec in an f-string is modelled when it is a constant, without a "
                        "conversion ({x!r:>5}, {x:{w}} are not)",
                        self.loc(v),
                        construct="f-string",
                    )
                text = "".join(str(s.value) for s in spec.values)  # type: ignore[attr-defined]
                parts.append(df_formats.formatted(val, text, self._stmt_action, self.loc(v)))
                continue
            if v.conversion == 114 and isinstance(val, _FieldV):
                parts.append(Part("field", column=val.column, conversion="repr"))
            elif v.conversion in (-1, 115):
                parts.extend(self.printable(val, v))
            else:
                raise UnsupportedError(
                    "this f-string conversion is not modelled", self.loc(v), construct="f-string"
                )
        merged = _merged(parts)
        if all(p.kind == "lit" for p in merged):
            return PyV("".join(p.text for p in merged))
        return _StrV(tuple(merged))  # type: ignore[return-value]

    def percent(self, fmt: str, items: list[Any], node: pyast.AST) -> _StrV:
        parts: list[Part] = []
        i = pos = 0
        while pos < len(fmt):
            ch = fmt[pos]
            if ch != "%":
                parts.append(Part("lit", ch))
                pos += 1
                continue
            spec = fmt[pos + 1 : pos + 2]
            if spec == "%":
                parts.append(Part("lit", "%"))
            elif spec == "s" and i < len(items):
                parts.extend(self.printable(items[i], node))
                i += 1
            else:
                raise UnsupportedError(
                    "only %s is modelled in a printed format with DataFrame values",
                    self.loc(node),
                    construct="%",
                )
            pos += 2
        if i != len(items):
            raise InputError(
                "not all arguments converted during string formatting (Python raises TypeError)",
                self.loc(node),
            )
        return _StrV(tuple(_merged(parts)))

    def str_format(self, fmt: str, args: list[Value], kwargs: dict[str, Value], node: pyast.AST) -> _StrV:
        """``"{}: {}".format(a, b)`` with printed values: ``{}``, ``{0}`` and ``{name}`` fields without a
        conversion or a format spec are ``str()`` of the value."""
        import string

        parts: list[Part] = []
        auto = 0
        try:
            fields = list(string.Formatter().parse(fmt))
        except ValueError as exc:
            raise InputError(f"bad format string ({exc}; Python raises ValueError)", self.loc(node)) from None
        for text, field, spec, conv in fields:
            parts.append(Part("lit", text))
            if field is None:
                continue
            if conv or (spec and "{" in spec):
                raise UnsupportedError(
                    "a conversion or a nested format spec in str.format ({x!r}, {x:{w}}) is not modelled "
                    "with DataFrame values",
                    self.loc(node),
                    construct="str.format",
                )
            if field == "":
                key: Any = auto
                auto += 1
            else:
                key = int(field) if field.isdigit() else field
            value = (args[key] if isinstance(key, int) and key < len(args)
                     else kwargs.get(key) if isinstance(key, str) else None)
            if value is not None and spec:
                parts.append(df_formats.formatted(value, spec, self._stmt_action, self.loc(node)))
            elif isinstance(key, int) and key < len(args):
                parts.extend(self.printable(args[key], node))
            elif isinstance(key, str) and key in kwargs:
                parts.extend(self.printable(kwargs[key], node))
            else:
                raise InputError(
                    f"format field {{{field}}} has no argument (Python raises here)", self.loc(node)
                )
        return _StrV(tuple(_merged(parts)))

    def builtin(
        self, name: str, args: list[Value], kwargs: dict[str, Value], loc: Loc, node: pyast.AST
    ) -> Value:
        if name == "len" and len(args) == 1 and isinstance(args[0], ModV) and args[0].path == "sys.argv":
            return PyV(self.argv_length)
        if name == "str" and len(args) == 1 and not kwargs and not isinstance(args[0], PyV):
            return _StrV(tuple(self.printable(args[0], node)))  # type: ignore[return-value]
        if any(isinstance(a, _ArgV) for a in args):
            raise UnsupportedError(
                "sys.argv[i] used as a value is not supported in a DataFrame script (only as a path)",
                loc,
                construct="sys.argv",
            )
        return super().builtin(name, args, kwargs, loc, node)

    def module_call(
        self, path: str, args: list[Value], kwargs: dict[str, Value], loc: Loc, node: pyast.AST
    ) -> Value:
        if path.startswith("pyspark.sql.SparkSession.builder") and path.endswith(".config"):
            catalog = self.check_config(args, kwargs, loc)
            if catalog:
                self.ignore(node, f"the setting {catalog}", df_session.CATALOG_WHY)
        if canonical(path) == "pyspark.sql.SQLContext" and len(args) == 1 and not kwargs and isinstance(
            args[0], SessionV | _SparkContextV
        ):
            self.ignore(node, "SQLContext(spark)", df_session.SqlContextV.WHY)
            return df_session.SqlContextV()  # type: ignore[return-value]
        if path == "os.getcwd" and not args and not kwargs:
            return df_session.CwdV()  # type: ignore[return-value]
        if canonical(path) in df_session.BUILDER_WRAPPERS and args and isinstance(args[0], ModV) and (
            args[0].path.startswith("pyspark.sql.SparkSession.builder")
        ):
            self.ignore(node, "configure_spark_with_delta_pip(builder)", df_session.WRAPPER_WHY)
            return args[0]  # the builder with Delta's jars added: the same session for non-Delta reads
        if canonical(path) in df_session.BUILDER_WRAPPERS:
            name = path.rsplit(".", 1)[1]
            raise UnsupportedError(f"{name} is read only on SparkSession.builder (from delta import *)", loc,
                                   construct="configure_spark_with_delta_pip")
        if path.startswith("pyspark.sql.types.") and path.rsplit(".", 1)[1] in ("StructType", "StructField"):
            return self.struct(path.rsplit(".", 1)[1], args, kwargs, loc)  # type: ignore[return-value]
        if canonical(path) in ("pyspark.sql.Row", "pyspark.sql.types.Row"):
            return self.row_call(args, kwargs, loc)  # type: ignore[return-value]
        if canonical(path) == "os.listdir" and args:  # a directory Spark reads (frontend.script.df_listing)
            self.listings.append(df_listing.listdir_call(self.path_of(args[0], node), args, kwargs, loc))
            return self.listings[-1]  # type: ignore[return-value]
        made = glue.module_call(self, path, args, kwargs, loc, node)  # AWS Glue (frontend.script.glue)
        if made is not None:
            return made
        if canonical(path) == "pandas.DataFrame":  # literal data (frontend.script.df_pandas)
            return df_pandas.pandas_frame(self, args, kwargs, loc, node)  # type: ignore[return-value]
        if canonical(path) in tuple(f"{FUNCTIONS_MODULE}.{n}" for n in df_opaque.RANDOM):  # not modelled
            draw = self.__dict__["random_draws"] = self.__dict__.get("random_draws", 0) + 1
            return df_opaque.random_column(path.rsplit(".", 1)[1], args, kwargs, loc, draw)  # type: ignore
        return super().module_call(path, args, kwargs, loc, node)

    def check_config(self, args: list[Value], kwargs: dict[str, Value], loc: Loc) -> str | None:
        """A setting is accepted when it cannot change what the job computes (names, memory, UI,
        partition counts: results are compared as bags, and partition-dependent sums are caveats).
        ``spark.sql.warehouse.dir`` is where managed tables live: accepted while the script reads no
        catalog table (checked once it has run: ``run``; it writes none, ``saveAsTable`` is not read)."""
        key = args[0] if args else kwargs.get("key")
        text = key.value if isinstance(key, PyV) and isinstance(key.value, str) else None
        if text is not None and df_session.is_catalog_conf(text):  # harmless until a catalog table is read
            self.catalog_settings.append((text, loc))
            return text
        if text is None or not text.startswith(_HARMLESS_CONF):
            raise UnsupportedError(
                f"the configuration setting {text or '?'} may change what the job computes: only names, "
                "memory, UI and partition-count settings are understood",
                loc,
                construct="config",
            )
        return None

    def _use_table(self, t: R.Table) -> None:
        where = self.loc(self.stmt or self.tree)
        df_session.catalog_read(self.catalog_settings, f"reading table {t.name!r}", where)
        super()._use_table(t)

    def row_call(self, args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Any:
        """``Row(name="alex", age=20)`` (a row, fields in the order given) or ``Row("name", "age")`` (a
        row class). Mixing both is a TypeError in PySpark."""
        if kwargs and not args:
            return _RowLit(tuple(kwargs), tuple(df_nested.nested_py(v, loc) for v in kwargs.values()))
        if args and not kwargs and all(isinstance(a, PyV) and isinstance(a.value, str) for a in args):
            return _RowClass(tuple(a.value for a in args))  # type: ignore[union-attr]
        raise UnsupportedError(
            "Row(...) is read with keyword values (Row(name='a', age=1)) or field names (Row('name', "
            "'age'))",
            loc,
            construct="Row",
        )

    def struct(self, kind: str, args: list[Value], kwargs: dict[str, Value], loc: Loc) -> _StructV:
        from frontend.dataframe import functions as DFF
        if kind == "StructField":
            b, _ = DFF.sig("name", "dataType", "nullable=True", "metadata=None").bind(kind, args, kwargs, loc)
            t = b["dataType"]
            if not isinstance(t, TypeV):
                raise UnsupportedError(
                    "a StructField's type must be a simple type (IntegerType(), ...)",
                    loc,
                    construct="StructField",
                )
            nullable = b["nullable"]
            if not isinstance(nullable, PyV) or not isinstance(nullable.value, bool):
                raise InputError("a StructField's nullable must be True or False", loc)
            return _StructV((Field(as_str(b["name"], loc, "a field name"), t.type, nullable.value),))
        b, _ = DFF.sig("fields=None").bind(kind, args, kwargs, loc)
        items = b["fields"].items if isinstance(b["fields"], SeqV) else ()
        if not all(isinstance(i, _StructV) for i in items):
            raise UnsupportedError("StructType takes a list of StructField(...)", loc, construct="StructType")
        return _StructV(tuple(f for i in items for f in i.fields))  # type: ignore[union-attr]

    def call(
        self, func: Value, args: list[Value], kwargs: dict[str, Value], loc: Loc, node: pyast.AST
    ) -> Value:
        if isinstance(func, BoundV) and glue.is_glue_value(func.receiver):
            return glue.method_call(self, func.receiver, func.name, args, kwargs, loc, node)
        if isinstance(func, BoundV) and isinstance(func.receiver, _ReaderChain):
            return self.reader_method(func.receiver, func.name, args, kwargs, loc, node)
        if isinstance(func, df_files.OpenBuiltin):
            path = self.path_of(args[0] if args else kwargs.get("file"), node)[0]
            self.opened.append(df_files.open_call(path, args, kwargs, loc))
            return self.opened[-1]  # type: ignore[return-value]
        if isinstance(func, BoundV) and isinstance(func.receiver, df_files.OpenFile):
            if func.name == "close":
                self.ignore(node, "f.close()", "closing a file read with open() changes no output")
            if func.name == "read":  # a second read() returns '' (the file is read to its end)
                df_files.read_once(self.opened_read, func.receiver, loc)
            return df_files.file_method(func.receiver, func.name, args, kwargs, loc)  # type: ignore
        if isinstance(func, BoundV) and isinstance(func.receiver, _Writer):
            return self.writer_method(func.receiver, func.name, args, kwargs, loc)
        if isinstance(func, BoundV) and isinstance(func.receiver, _RuntimeConf) and func.name == "set":
            catalog = self.check_config(args, kwargs, loc)
            self.ignore(node, f"the setting {catalog}" if catalog else "spark.conf.set()",
                        df_session.CATALOG_WHY if catalog else "a setting that cannot change results (names, "
                        "memory, UI, partition counts: results are compared as bags)")
            return PyV(None)
        if isinstance(func, BoundV) and isinstance(func.receiver, _SparkContextV) and (
            func.name == "parallelize"
        ):
            return mixed_df.parallelize(args, kwargs, loc)  # type: ignore[return-value]
        if isinstance(func, BoundV) and isinstance(func.receiver, _SparkContextV) and func.name == "textFile":
            return mixed_text.text_file(self, args, kwargs, loc, node)  # type: ignore[return-value]
        if isinstance(func, BoundV) and isinstance(func.receiver, mixed_text.TextRddV):
            return mixed_text.rdd_method(self, func.receiver, func.name, args, kwargs, loc, node)
        if isinstance(func, BoundV) and isinstance(func.receiver, mixed_df.LiteralRddV | mixed_df.DfRddV):
            return mixed_df.rdd_method(self, func.receiver, func.name, args, kwargs, loc, node)
        if isinstance(func, BoundV) and isinstance(func.receiver, _SparkContextV):
            raise UnsupportedError(
                f"sc.{func.name} is not understood in a DataFrame script", loc, construct=func.name
            )
        if (
            isinstance(func, BoundV)
            and isinstance(func.receiver, PyV)
            and isinstance(func.receiver.value, str)
            and func.name == "format"
            and not all(isinstance(a, PyV) for a in [*args, *kwargs.values()])
        ):
            return self.str_format(func.receiver.value, args, kwargs, node)  # type: ignore[return-value]
        if isinstance(func, BoundV) and isinstance(func.receiver, DFV) and func.name == "crosstab":
            return self.crosstab(func.receiver, args, kwargs, loc, node)
        if (
            isinstance(func, BoundV)
            and isinstance(func.receiver, SessionV)
            and func.name == "createDataFrame"
        ):
            return self.create_data_frame(args, kwargs, loc, node)
        if isinstance(func, _RowClass):
            if kwargs or len(args) != len(func.names):
                raise InputError(f"a Row of {len(func.names)} fields called with {len(args)} value(s)", loc)
            values = tuple(df_nested.nested_py(a, loc) for a in args)
            return _RowLit(func.names, values)  # type: ignore[return-value]
        if isinstance(func, BoundV) and isinstance(func.receiver, SessionV) and func.name == "range":
            return self.spark_range(args, kwargs, loc, node)
        return super().call(func, args, kwargs, loc, node)

    def df_method(
        self, df: Any, name: str, args: list[Value], kwargs: dict[str, Value], loc: Loc, node: pyast.AST
    ) -> Value:
        """A random column and approxQuantile are opaque calls in a script (``frontend.script.df_opaque``)."""
        if name == "withColumn":
            made = df_opaque.with_random_column(self, df, args, kwargs, loc)
            if made is not None:
                return DFV(made)
        if name == "approxQuantile":
            return df_opaque.approx_quantile(df, args, kwargs, loc)
        if name == "toPandas" and not args and not kwargs:  # only printed (frontend.script.df_pandas)
            return df_pandas.PandasV(df, None)  # type: ignore[return-value]
        return super().df_method(df, name, args, kwargs, loc, node)

    def writer_method(
        self, w: _Writer, name: str, args: list[Value], kwargs: dict[str, Value], loc: Loc
    ) -> Value:
        if name in ("mode", "format") and len(args) == 1 and not kwargs:
            value = as_str(args[0], loc, f"{name}()'s argument")
            if name == "mode":
                return replace(w, mode=_save_mode(value, loc))  # type: ignore[return-value]
            return replace(w, fmt=value)  # type: ignore[return-value]
        if name == "option" and len(args) == 2 and not kwargs:
            return replace(w, options=(*w.options, (as_str(args[0], loc, "an option"), args[1])))  # type: ignore
        if name == "options" and not args:
            return replace(w, options=(*w.options, *kwargs.items()))  # type: ignore[return-value]
        raise UnsupportedError(
            f"df.write.{name}(...) here is not supported in script mode (write it as a "
            "statement: df.write.mode(...).option(...).csv(path))",
            loc,
            construct=name,
        )

    def reader_method(
        self,
        r: _ReaderChain,
        name: str,
        args: list[Value],
        kwargs: dict[str, Value],
        loc: Loc,
        node: pyast.AST,
    ) -> Value:
        if name == "format" and len(args) == 1:
            return replace(r, fmt=as_str(args[0], loc, "a format"))  # type: ignore[return-value]
        if name == "option" and len(args) == 2 and not kwargs:
            return replace(r, options=(*r.options, (as_str(args[0], loc, "an option"), args[1])))  # type: ignore
        if name == "options" and not args:
            return replace(r, options=(*r.options, *kwargs.items()))  # type: ignore[return-value]
        if name == "schema" and len(args) == 1 and not kwargs:
            return replace(r, schema=self.schema_of(args[0], loc))  # type: ignore[return-value]
        if name == "table":
            return DFV(self.read_table(as_str(args[0] if args else kwargs["tableName"], loc, "a table"), loc))
        if name in ("csv", "json", "load", "parquet", "text", "orc"):
            fmt = r.fmt if name == "load" else name
            options = dict(r.options)
            if not args and "path" not in kwargs:
                raise UnsupportedError(
                    f"spark.read.{name} without a path is not supported", loc, construct=name
                )
            path_v = args[0] if args else kwargs.pop("path")
            schema = r.schema
            for k, v in kwargs.items():
                if k == "schema":
                    schema = self.schema_of(v, loc)
                elif k == "format":
                    fmt = as_str(v, loc, "a format")
                else:
                    options[k] = v
            if len(args) > 1:
                if name == "load" and len(args) >= 2:
                    fmt = as_str(args[1], loc, "a format")
                if len(args) >= (3 if name == "load" else 2):
                    schema = self.schema_of(args[2 if name == "load" else 1], loc)
            if fmt == "text":
                if schema is not None:
                    raise UnsupportedError(
                        "spark.read.text with a schema is not supported (its one column is value STRING)",
                        loc,
                        construct="text",
                    )
                schema = Schema((Field("value", STRING, True),))
            if fmt not in (*FILE_FORMATS, "text"):
                raise UnsupportedError(
                    f"reading {fmt or 'the default format (parquet)'} files is not supported "
                    "in script mode yet (csv, json and text are): a table of the same rows read with "
                    "spark.table(name) and --schema is",
                    loc,
                    construct=name,
                )
            return DFV(self.file_source(fmt, path_v, schema, options, loc, node))
        raise UnsupportedError(f"spark.read.{name} is not supported in script mode", loc, construct=name)

    def schema_of(self, v: Value, loc: Loc) -> Schema:
        if isinstance(v, PyV) and isinstance(v.value, str):
            try:
                return parse_ddl(v.value, loc)
            except SchemaError as exc:
                raise SchemaError(exc.message, loc) from None
        if isinstance(v, _StructV):
            return Schema(v.fields)
        raise UnsupportedError(
            f"a schema must be a DDL string or a StructType literal, not {_what(v)}", loc, construct="schema"
        )

    def file_source(
        self, fmt: str, path_v: Any, schema: Schema | None, options: dict[str, Any], loc: Loc, node: pyast.AST
    ) -> Any:
        header, sep = False, ","
        infer = False
        mode = "PERMISSIVE"
        for k, v in options.items():
            if k not in _READ_OPTIONS:
                raise UnsupportedError(
                    f"the read option {k!r} is not modelled (supported: header, sep, mode, "
                    "inferSchema with a schema)",
                    loc,
                    construct=k,
                )
            if k == "header":
                header = _flag(v, loc)
            elif k in ("sep", "delimiter"):
                sep = as_str(v, loc, "sep")
                if len(sep) != 1 or sep in '"\\\n\r':
                    raise UnsupportedError(f"the separator {sep!r} is not supported", loc, construct="sep")
            elif k == "inferSchema":
                infer = _flag(v, loc)
            elif k == "mode":
                mode = as_str(v, loc, "mode").upper()
            elif k in ("multiLine", "multiline") and _flag(v, loc):
                raise UnsupportedError("multiLine reading is not modelled", loc, construct=k)
            elif k in ("encoding", "charset") and as_str(v, loc, k).lower().replace("-", "") != "utf8":
                raise UnsupportedError("only UTF-8 files are modelled", loc, construct=k)
        globbed = df_listing.glob_path(path_v.parts) if isinstance(path_v, _StrV) else None
        path, argv_index, literal = (globbed[0], globbed[1], None) if globbed else self.path_of(
            path_v, node.args[0] if isinstance(node, pyast.Call) and node.args else node
        )
        inferred = False
        if schema is None:
            schema = self.declared_schema(fmt, path, literal, infer, header, loc)
            inferred = True
        schema = Schema(tuple(replace(f, nullable=True) for f in schema.fields))  # file sources: nullable
        if fmt in ("json", "text"):
            header, sep = False, ","
        if fmt == "text" and (infer or header or mode != "PERMISSIVE"):
            raise UnsupportedError(
                "spark.read.text takes no CSV options here", loc, construct="text"
            )
        key = (path, fmt)
        if key in self.source_keys:
            src = self.source_keys[key]
            if src.schema != schema or (src.header, src.sep, src.mode) != (header, sep, mode):
                raise UnsupportedError(
                    f"{path} is read twice with different schemas or options", loc, construct="read"
                )
        else:
            src = self._add_source(
                self.fresh_param(),
                fmt,
                f"spark.read.{fmt}",
                path,
                loc,
                schema,
                argv_index=argv_index,
                literal_path=literal,
                header=header,
                sep=sep,
                mode=mode,
                inferred=inferred,
                dir_glob=globbed[2] if globbed else None,
            )
            self.source_keys[key] = src
        return self.table_df(src.param, src.schema, loc)

    def declared_schema(
        self, fmt: str, path: str, literal: str | None, infer: bool, header: bool, loc: Loc
    ) -> Schema:
        """The schema a user declared for a file read without one: a ``# sparkeq: schema PATH = "DDL"``
        comment (``PATH`` the path expression, ``sys.argv[1]``, or the literal path), or ``--schema``
        named after the path expression or the variable the DataFrame is bound to. Spark finds this
        schema in the file, so the declaration must be one Spark can find (``check_inferable``); that
        the input files have it is an assumption of the result."""
        keys = [path.lower(), *([literal.lower()] if literal else [])]
        if self.binding is not None:
            keys.append(self.binding.lower())
        for key in keys:
            schema = self.declared.get(key) or self.schemas.get(key)
            if schema is not None:
                check_inferable(schema, fmt, infer, header, loc)
                return schema
        name = literal if literal is not None else path
        hint = f"--schema '{self.binding}=id INT, name STRING'" if self.binding else "--schema"
        if fmt == "json":
            why = "Spark infers the columns and types from the file's contents"
        elif infer:
            why = "inferSchema guesses the types from the file's contents"
        else:
            why = "without a schema Spark reads every column as a string named by the file"
        raise InputError(
            f"spark.read.{fmt}({path}) needs a schema in script mode ({why}, which sparkeq "
            f'cannot know): pass schema="id INT, name STRING" (a DDL string or a StructType) '
            f"to the reader, declare it with a comment `# sparkeq: schema {name} = \"id INT, name "
            f'STRING\"`, or pass {hint}',
            loc,
        )

    def _add_source(
        self, param: str, kind: str, reader: str, path: str, loc: Loc, schema: Schema, **extra: Any
    ) -> DfSource:
        src = DfSource(param, kind, reader, path, loc, schema, **extra)
        self.sources.append(src)
        return src

    def fresh_param(self, base: str | None = None) -> str:
        base = base or self.binding or "input"
        used = {s.param for s in self.sources}
        name, i = base, 1
        while name in used:
            i += 1
            name = f"{base}_{i}"
        return name

    def path_of(self, v: Any, node: pyast.AST) -> tuple[str, int | None, str | None]:
        if isinstance(v, _ArgV):
            return f"sys.argv[{v.index}]", v.index, None
        if isinstance(v, PyV) and isinstance(v.value, str):
            return repr(v.value), None, v.value
        raise UnsupportedError(
            f"a path must be sys.argv[i] or a string constant, not {_what(v)}",
            self.loc(node),
            construct="path",
        )

    def literal_rows(self, data: Any, loc: Loc) -> tuple[list[tuple[Any, ...]], tuple[str, ...] | None]:
        """The rows of ``createDataFrame``'s literal data and the field names they carry: tuples or lists
        (no names), ``Row(...)`` objects (their fields, all alike), or dicts (their keys, which PySpark
        4 sorts: checked on Spark)."""
        from frontend.dataframe.values import DictV

        if not isinstance(data, SeqV) or not data.items:
            raise UnsupportedError(
                "createDataFrame takes a non-empty literal list of tuples, Rows or dicts in script mode",
                loc,
                construct="createDataFrame",
            )
        items = data.items
        if all(isinstance(r, SeqV) for r in items):
            return [tuple(df_nested.nested_py(v, loc) for v in r.items) for r in items], None  # type: ignore
        if all(isinstance(r, _RowLit) for r in items):
            names = {r.names for r in items}  # type: ignore[union-attr]
            if len(names) == 1:
                return [tuple(r.values) for r in items], names.pop()  # type: ignore[union-attr]
        if all(isinstance(r, DictV) for r in items):
            dicts = [{as_str(k, loc, "a key"): _py(v, loc) for k, v in r.items} for r in items]  # type: ignore
            keys = {tuple(sorted(d)) for d in dicts}
            if len(keys) == 1:
                order = keys.pop()
                return [tuple(d[k] for k in order) for d in dicts], order
        raise UnsupportedError(
            "createDataFrame data must be literal tuples, Rows with the same fields, or dicts with the same "
            "keys in script mode",
            loc,
            construct="createDataFrame",
        )

    def spark_range(self, args: list[Value], kwargs: dict[str, Value], loc: Loc, node: pyast.AST) -> DFV:
        """``spark.range(end)`` / ``range(start, end, step)``: a table the script fixes, one ``id bigint NOT
        NULL`` column (checked on Spark 4); ``numPartitions`` changes only the partitioning."""
        from frontend.dataframe import functions as DFF

        b, _ = DFF.sig("start", "end=None", "step=1", "numPartitions=None").bind("range", args, kwargs, loc)
        start = as_int(b["start"], loc, "range's start")
        end = None if b["end"] == PyV(None) else as_int(b["end"], loc, "range's end")
        step = as_int(b["step"], loc, "range's step")
        if end is None:
            start, end = 0, start
        if step == 0:
            raise InputError("spark.range with step 0 (Spark raises here)", loc)
        values = range(start, end, step)
        if len(values) > 1000:
            raise UnsupportedError(
                f"spark.range of {len(values)} rows is too large to model (at most 1000)",
                loc,
                construct="range",
            )
        schema = Schema((Field("id", BIGINT, False),))
        src = self._add_source(
            self.fresh_param(), "literal", "spark.range", pyast.unparse(node), loc, schema,
            rows=tuple((v,) for v in values),
        )
        return DFV(self.table_df(src.param, src.schema, loc))

    def create_data_frame(
        self, args: list[Value], kwargs: dict[str, Value], loc: Loc, node: pyast.AST
    ) -> DFV:
        from frontend.dataframe import functions as DFF
        b, _ = DFF.sig("data", "schema=None", "samplingRatio=None", "verifySchema=True").bind(
            "createDataFrame", args, kwargs, loc
        )
        data = b["data"]
        if isinstance(data, mixed_df.LiteralRddV):  # createDataFrame(rdd, ...): as Spark converts an RDD
            schema, rows = mixed_df.to_dataframe(self, data, b["schema"], loc, "createDataFrame")
            return self.literal_df(schema, rows, loc, node)
        if isinstance(data, mixed_text.TextRddV):  # createDataFrame(sc.textFile(p).map(...)): issue 23
            return self.text_rdd_df(data, b["schema"], loc, node)
        if isinstance(data, df_pandas.PandasV):
            return df_pandas.from_pandas(data, b["schema"], loc)
        rows, names = self.literal_rows(data, loc)
        schema_v = b["schema"]
        if any(df_nested.is_nested(v) for r in rows for v in r):  # Rows and lists in the data
            return self.nested_df(rows, names, schema_v, loc, node)
        if isinstance(schema_v, SeqV) and all(
            isinstance(i, PyV) and isinstance(i.value, str) for i in schema_v.items
        ):
            schema = _infer(rows, [i.value for i in schema_v.items], loc)  # type: ignore[union-attr]
        elif schema_v == PyV(None):  # PySpark names the columns after the Row fields, or _1, _2, ...
            width = len(rows[0]) if rows else 0
            schema = _infer(rows, list(names or (f"_{i + 1}" for i in range(width))), loc)
        else:
            schema = self.schema_of(schema_v, loc)
        rows = [_verified(r, schema, loc) for r in rows]
        return self.literal_df(schema, rows, loc, node)

    def crosstab(
        self, recv: DFV, args: list[Value], kwargs: dict[str, Value], loc: Loc, node: pyast.AST
    ) -> DFV:
        """``df.crosstab(col1, col2)`` over rows the script writes: a literal table computed now
        (``frontend.script.df_crosstab``: its columns are the data's values)."""
        from frontend.dataframe import functions as DFF

        b, _ = DFF.sig("col1", "col2").bind("crosstab", args, kwargs, loc)
        col1, col2 = as_str(b["col1"], loc, "crosstab's col1"), as_str(b["col2"], loc, "crosstab's col2")
        literal = {s.param: (s.schema, s.rows) for s in self.sources
                   if s.kind == "literal" and s.rows is not None}
        schema, rows = df_crosstab.crosstab_rows(recv.df, col1, col2, literal, loc)
        # the same table computed again (df.crosstab(...) twice) is the same constant
        src = next((s for s in self.sources
                    if s.kind == "literal" and (s.schema, s.rows) == (schema, tuple(rows))), None)
        if src is None:
            src = self._add_source(self.fresh_param(), "literal", "crosstab", pyast.unparse(node), loc,
                                   schema, rows=tuple(rows))
        return DFV(self.table_df(src.param, src.schema, loc))

    def nested_df(
        self, rows: list[tuple[Any, ...]], names: tuple[str, ...] | None, schema_v: Value, loc: Loc,
        node: pyast.AST,
    ) -> DFV:
        """``createDataFrame`` of rows holding Rows and lists: PySpark's inferred struct and array
        columns (``frontend.script.df_nested``); a given schema is not modelled for such data."""
        if isinstance(schema_v, SeqV) and all(isinstance(i, PyV) and isinstance(i.value, str)
                                              for i in schema_v.items):
            names = tuple(i.value for i in schema_v.items)  # type: ignore[union-attr]
        elif schema_v != PyV(None):
            raise UnsupportedError(
                "createDataFrame of Rows or lists inside rows with a given schema is not modelled (without "
                "one, PySpark's inferred struct and array columns are)",
                loc,
                construct="createDataFrame",
            )
        width = len(rows[0])
        schema = df_nested.infer(rows, list(names or (f"_{i + 1}" for i in range(width))), loc)
        kernel = [tuple(df_nested.kernel_value(v, f.type, loc) for v, f in zip(r, schema.fields, strict=True))
                  for r in rows]
        return self.literal_df(schema, kernel, loc, node)

    def text_rdd_df(self, rdd: mixed_text.TextRddV, given: Any, loc: Loc, node: pyast.AST) -> DFV:
        """A DataFrame made of an RDD read from a text file: a source of kind ``rdd``
        (``frontend.script.mixed_text``)."""
        what = "toDF" if isinstance(node, pyast.Call) and getattr(node.func, "attr", "") == "toDF" else (
            "createDataFrame")
        program, names = mixed_text.stage_program(self.tree, "\n".join(self.lines), self.filename, rdd, loc)
        schema = mixed_text.inferred_schema(program, names, given, loc, what)
        src = self._add_source(self.fresh_param(), "rdd", "sc.textFile", rdd.path, loc, schema,
                               argv_index=rdd.argv_index, literal_path=rdd.literal_path, rdd=program)
        return DFV(self.table_df(src.param, src.schema, loc))

    def literal_df(self, schema: Schema, rows: list[tuple[Any, ...]], loc: Loc, node: pyast.AST) -> DFV:
        """A DataFrame of rows the script fixes (a literal source)."""
        param = self.fresh_param()
        text = pyast.unparse(node.args[0]) if isinstance(node, pyast.Call) and node.args else param
        src = self._add_source(param, "literal", "spark.createDataFrame", text, loc, schema, rows=tuple(rows))
        return DFV(self.table_df(src.param, src.schema, loc))
