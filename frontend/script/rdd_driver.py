"""The driver of an RDD script, interpreted statement by statement into a synthetic pipeline function.

``_Driver`` holds one script's translation state and its reading of module-level code, calls and the
final program (``finish``); printing and statements are its mixins (``rdd_printing``,
``rdd_statements``). ``rdd_rewriter._Rewriter`` turns sources and ``sys.argv`` in program code into
parameters.
"""

from __future__ import annotations

import ast as pyast
from dataclasses import dataclass, field, replace
from typing import Any

from frontend.python.names import scan_module
from frontend.python.resolve import infer_program
from frontend.rdd.methods import RDD_METHODS
from frontend.rdd.pipeline import translate_pipeline
from frontend.rdd.translator import RddTranslator
from frontend.script import rdd_argv, rdd_files
from frontend.script.rdd_meta import (
    _ARGV,
    _BUILDER_METHODS,
    _CONF_METHODS,
    _CONTEXT,
    _HARMLESS_CONF_PREFIXES,
    _LOG_METHODS,
    _LOGGER,
    _OTHER_SOURCES,
    _PYSPARK_CLASSES,
    _SESSION,
    _UNKNOWN,
    _at,
    _constant_like,
    _is_main_test,
    _literal_type,
    _loc,
    _Loop,
    _Meta,
    _name,
    _program_name,
    _str_const,
    _type_or_none,
)
from frontend.script.rdd_printing import PrintingMixin
from frontend.script.rdd_program import Ignored, ScriptProgram, Sink, Source
from frontend.script.rdd_statements import StatementsMixin
from sparklite import ast as sl
from sparklite import effects
from sparklite.errors import InputError, UnsupportedError
from sparklite.typecheck import typecheck
from sparklite.types import TupleType


@dataclass
class _Driver(PrintingMixin, StatementsMixin):



    tree: pyast.Module
    text: str
    filename: str
    entry: str | None
    body: list[pyast.stmt] = field(default_factory=list)
    meta: dict[str, _Meta] = field(default_factory=dict)
    collected: dict[str, _Loop] = field(default_factory=dict)
    sources: list[Source] = field(default_factory=list)
    source_keys: dict[str, str] = field(default_factory=dict)  # path text -> param
    sinks: list[tuple[Sink, str]] = field(default_factory=list)  # (sink, name of its value)
    hoisted: list[pyast.stmt] = field(default_factory=list)
    single_format: list[sl.Loc] = field(default_factory=list)  # "%s" % x: x must not be a tuple
    tuple_formats: list[tuple[sl.Loc, int]] = field(default_factory=list)  # "%s %s" % t: t an n-tuple
    format_jobs: list[str] = field(default_factory=list)
    jobs: list[str] = field(default_factory=list)  # strict collects the translation adds for bag sinks
    taken: set[str] = field(default_factory=set)
    path_vars: dict[str, pyast.expr] = field(default_factory=dict)  # names bound to sys.argv[i] or a string
    argv_length: int = 1
    inlining: list[str] = field(default_factory=list)
    done: bool = False  # a final sys.exit was seen
    ignored: dict[tuple[int, int, str], Ignored] = field(default_factory=dict)  # shown not to matter
    masks: set[str] = field(default_factory=set)  # printed fields excluded (rdd_program.MASKS)
    rdd_names: set[str] = field(default_factory=set)  # names bound to an RDD
    named_rdds: set[str] = field(default_factory=set)  # ... to a textFile RDD (its text shows the path)
    grouped_rdds: set[str] = field(default_factory=set)  # ... to a groupByKey() result
    text_paths: dict[str, pyast.expr] = field(default_factory=dict)  # ... and the path it was read from
    argv_listed: list[pyast.Call] = field(default_factory=list)  # str(sys.argv) printed (rdd_argv)
    open_files: dict[str, pyast.expr] = field(default_factory=dict)  # f = open(p): the path p (rdd_files)
    files_read: set[str] = field(default_factory=set)  # ... and those already read (rdd_files)
    literal_vars: dict[str, pyast.expr] = field(default_factory=dict)  # names bound once to a literal
    ordered_dicts: dict[str, pyast.expr] = field(default_factory=dict)  # name -> the sorted(...) it keeps
    lineage: dict[str, str] = field(default_factory=dict)  # RDD name -> the source its partitions follow
    source_at: dict[int, str] = field(default_factory=dict)  # id(source call) -> its parameter
    # the master URLs the script sets (their source text): local[N] sets the default parallelism, hence
    # the slices of parallelize() and textFile() without a count, so two scripts with different masters
    # do not read their inputs alike (script_check.reading_difference, the congruence key)
    masters: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.lines = self.text.splitlines()
        self.taken = {n.id for n in pyast.walk(self.tree) if isinstance(n, pyast.Name)}
        self.taken |= {a.arg for a in pyast.walk(self.tree) if isinstance(a, pyast.arg)}
        self.taken |= {d.name for d in pyast.walk(self.tree) if isinstance(d, (pyast.FunctionDef,
                                                                                pyast.ClassDef))}
        self.defs = {s.name: s for s in self.tree.body if isinstance(s, pyast.FunctionDef)}
        # How often each name is bound anywhere (driver state is one flat namespace, so a name bound once
        # means one meaning everywhere). The parameters of driver functions (run in place by
        # ``inline_call``, which binds them and restores the outer meaning after the call) do not count:
        # ``def wordcount(sc, input_path)`` called as ``wordcount(sc, input_path)``.
        self.stores: dict[str, int] = {}
        driver_params = {id(a) for fn in self.defs.values() if self.drives(fn) for a in fn.args.args}
        for n in pyast.walk(self.tree):
            if isinstance(n, pyast.Name) and isinstance(n.ctx, pyast.Store):
                self.stores[n.id] = self.stores.get(n.id, 0) + 1
            elif isinstance(n, pyast.arg) and id(n) not in driver_params:
                self.stores[n.arg] = self.stores.get(n.arg, 0) + 1
        self.argv_aliases = self.find_argv_aliases()
        indices = [i for n in pyast.walk(self.tree) if (i := self._argv_index(n, loose=True)) is not None]
        self.argv_length = max(indices, default=0) + 1

    def find_argv_aliases(self) -> set[str]:
        """Names that may stand for ``sys.argv``: ``args = sys.argv``, or the parameter of a function
        called with ``sys.argv`` (``main(sys.argv)``); used to count the arguments before the driver code
        runs."""
        def is_argv(e: pyast.AST, names: set[str]) -> bool:
            return (isinstance(e, pyast.Attribute) and e.attr == "argv" and isinstance(e.value, pyast.Name)
                    and e.value.id == "sys") or (isinstance(e, pyast.Name) and e.id in names)
        names: set[str] = {a.asname or a.name for n in pyast.walk(self.tree)
                           if isinstance(n, pyast.ImportFrom) and n.module == "sys"
                           for a in n.names if a.name == "argv"}
        changed = True
        while changed:
            changed = False
            for n in pyast.walk(self.tree):
                new: list[str] = []
                if isinstance(n, pyast.Assign) and len(n.targets) == 1 \
                        and isinstance(n.targets[0], pyast.Name) and is_argv(n.value, names):
                    new.append(n.targets[0].id)
                if isinstance(n, pyast.Call) and isinstance(n.func, pyast.Name) and n.func.id in self.defs:
                    params = self.defs[n.func.id].args.args
                    new.extend(p.arg for p, a in zip(params, n.args, strict=False) if is_argv(a, names))
                for name in new:
                    if name not in names:
                        names.add(name)
                        changed = True
        return names

    # -- helpers -----------------------------------------------------------------------------------

    def loc(self, node: pyast.AST) -> sl.Loc:
        return _loc(node, self.filename)

    def error(self, construct: str, message: str, node: pyast.AST | sl.Loc) -> UnsupportedError:
        loc = node if isinstance(node, sl.Loc) else self.loc(node)
        return UnsupportedError(message, loc, construct=construct)

    def ignore(self, node: pyast.AST, construct: str, why: str) -> None:
        """Record a statement shown not to change the outputs (or a printed field excluded), once per
        place: the report lists them (``ScriptProgram.ignored``)."""
        loc = self.loc(node)
        self.ignored.setdefault((loc.line, loc.col, construct), Ignored(loc.line, loc.col, construct, why))

    def fresh(self, base: str) -> str:
        i = 1
        while f"{base}_{i}" in self.taken:
            i += 1
        name = f"{base}_{i}"
        self.taken.add(name)
        return name

    def attr_loc(self, attr: pyast.Attribute) -> sl.Loc:
        """The position of ``name`` in ``receiver.name``."""
        line = getattr(attr.value, "end_lineno", None) or attr.lineno
        col = getattr(attr.value, "end_col_offset", None)
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        idx = text.find(attr.attr, col) if col is not None else -1
        return sl.Loc(self.filename, line, idx + 1) if idx >= 0 else self.loc(attr)

    def snippet(self, node: pyast.AST) -> str:
        line = getattr(node, "lineno", 1)
        return self.lines[line - 1].strip() if 0 < line <= len(self.lines) else ""

    def _argv_index(self, node: pyast.AST, loose: bool = False) -> int | None:
        """``sys.argv[i]`` (or ``argv[i]`` for a name bound to ``sys.argv``) with a constant ``i >= 1``."""
        if not isinstance(node, pyast.Subscript):
            return None
        if not (isinstance(node.slice, pyast.Constant) and type(node.slice.value) is int
                and node.slice.value >= 1):
            return None
        base = node.value
        if isinstance(base, pyast.Attribute) and base.attr == "argv" and isinstance(base.value, pyast.Name) \
                and base.value.id == "sys":
            return node.slice.value
        if isinstance(base, pyast.Name) and (loose and base.id in self.argv_aliases
                                             or self.meta.get(base.id) == _ARGV):
            return node.slice.value
        return None

    # -- what a driver expression means ------------------------------------------------------------

    def meta_of(self, node: pyast.expr) -> _Meta | None:
        """The driver meta-value of ``node`` (a session, a context, ``sys.argv``, a module...), or None
        when it is ordinary program code."""
        if isinstance(node, pyast.Name):
            return self.meta.get(node.id)
        if isinstance(node, pyast.Attribute):
            base = self.meta_of(node.value)
            if base is None:
                return None
            if base.kind == "module" and base.name == "sys":
                if node.attr == "argv":
                    return _ARGV
                if node.attr in ("stderr", "stdout"):
                    return _Meta("stream", node.attr)
                return _Meta("attr", f"sys.{node.attr}")
            if base.kind == "module" and base.name == "pyspark.sql" and node.attr == "SparkSession":
                return _Meta("class", "SparkSession")
            if base.kind == "module" and base.name == "pyspark" and node.attr in _PYSPARK_CLASSES:
                return _Meta("class", node.attr)
            if base.kind == "class" and base.name == "SparkSession" and node.attr == "builder":
                return _Meta("builder")
            if base.kind == "session" and node.attr == "sparkContext":
                return _CONTEXT
            if base.kind == "session" and node.attr == "read":
                return _Meta("reader")
            if base.kind == "session" and node.attr == "conf":
                return _Meta("runtime_conf")
            return _Meta("attr", f"{base.kind}.{node.attr}")
        if isinstance(node, pyast.Call):
            f = node.func
            callee = self.meta_of(f)
            if callee is not None and callee.kind == "class":
                if callee.name == "SparkContext":
                    master = node.args[0] if node.args else next(
                        (k.value for k in node.keywords if k.arg == "master"), None)
                    if master is not None:
                        self.masters.add(pyast.unparse(master))
                    return _CONTEXT
                if callee.name == "SparkConf":
                    return _Meta("conf")
            if isinstance(f, pyast.Attribute):
                base = self.meta_of(f.value)
                if base is None:
                    return None
                if base.kind == "builder" and f.attr in _BUILDER_METHODS:
                    self.check_config(node, f.attr)
                    return base
                if base.kind == "builder" and f.attr == "getOrCreate":
                    return _SESSION
                if base.kind == "class" and base.name == "SparkContext" and f.attr == "getOrCreate":
                    return _CONTEXT
                if base.kind == "conf" and f.attr in _CONF_METHODS:
                    self.check_config(node, f.attr)
                    return base
                if base.kind == "module" and base.name == "logging" and f.attr == "getLogger":
                    return _LOGGER
        return None

    def check_config(self, call: pyast.Call, method: str) -> None:
        """A configuration setting is accepted when it cannot change what an RDD job computes (the
        master is recorded: it sets the default parallelism)."""
        if method in ("master", "setMaster") and call.args:
            self.masters.add(pyast.unparse(call.args[0]))
        if method in ("config", "set", "setIfMissing") and len(call.args) > 1 \
                and _str_const(call.args[0]) == "spark.master":
            self.masters.add(pyast.unparse(call.args[1]))
        if method in ("config", "set", "setIfMissing") and call.args:
            key = _str_const(call.args[0])
            if key is None or not key.startswith(_HARMLESS_CONF_PREFIXES):
                raise self.error("Spark configuration", f"the configuration setting "
                                 f"{pyast.unparse(call.args[0])} may change how the job computes its results "
                                 "(partition counts, "
                                 "semantics): only memory, UI, logging and name settings are understood",
                                 call.args[0])
        if method == "setAll":
            raise self.error("Spark configuration", "SparkConf.setAll is not understood: set harmless "
                             "keys one by one", call)

    def static_value(self, node: pyast.expr) -> Any:
        """The value of a driver test that depends only on the arguments' count and constants
        (``len(sys.argv) != 2``, ``__name__ == "__main__"``), or ``_UNKNOWN``."""
        if isinstance(node, pyast.Constant) and isinstance(node.value, (int, str, bool)):
            return node.value
        main = _is_main_test(node)
        if main is not None:
            return main if self.entry is None else not main
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) and node.func.id == "len" \
                and len(node.args) == 1 and self.meta_of(node.args[0]) == _ARGV:
            return self.argv_length
        if isinstance(node, pyast.Compare) and len(node.ops) == 1:
            a, b = self.static_value(node.left), self.static_value(node.comparators[0])
            if a is _UNKNOWN or b is _UNKNOWN:
                return _UNKNOWN
            op = type(node.ops[0])
            table = {pyast.Eq: lambda: a == b, pyast.NotEq: lambda: a != b, pyast.Lt: lambda: a < b,
                     pyast.LtE: lambda: a <= b, pyast.Gt: lambda: a > b, pyast.GtE: lambda: a >= b}
            if op not in table:
                return _UNKNOWN
            try:
                return table[op]()
            except TypeError:
                return _UNKNOWN
        if isinstance(node, pyast.BoolOp):
            values = [self.static_value(v) for v in node.values]
            if any(v is _UNKNOWN for v in values):
                return _UNKNOWN
            return all(values) if isinstance(node.op, pyast.And) else any(values)
        if isinstance(node, pyast.UnaryOp) and isinstance(node.op, pyast.Not):
            v = self.static_value(node.operand)
            return _UNKNOWN if v is _UNKNOWN else not v
        return _UNKNOWN

    # -- the translation ---------------------------------------------------------------------------

    def translate(self) -> ScriptProgram:
        module_keep: list[pyast.stmt] = []
        driver: list[pyast.stmt] = []
        for stmt in self.tree.body:
            if self.module_level(stmt):
                module_keep.append(stmt)
            else:
                driver.append(stmt)
        self.block(driver)
        if self.entry is not None:
            if self.entry not in self.defs:
                raise InputError(f"no top-level function named '{self.entry}' in {self.filename}",
                                 sl.Loc(self.filename, 1, 1))
            fn = self.defs[self.entry]
            args: list[pyast.expr] = []
            if len(fn.args.args) - len(fn.args.defaults) == 1:  # main(argv): called with sys.argv
                args = [_at(pyast.Attribute(_name("sys", fn), "argv", pyast.Load()), fn)]
                self.meta.setdefault("sys", _Meta("module", "sys"))
            if not self.done:
                self.inline_call(fn, args, fn)
        if not self.sinks:
            raise InputError(f"no output found in {self.filename}: script mode compares what a script "
                             "prints (print of collect/take/count/first results), saves (saveAsTextFile) or "
                             "exits with", sl.Loc(self.filename, 1, 1))
        return self.finish(module_keep)

    def module_level(self, stmt: pyast.stmt) -> bool:
        """Statements that stay at module level for the RDD frontend's module scan: imports, ``def``s,
        classes and constants. (Imports of ``sys``, ``logging`` and pyspark are also noted here.)"""
        if isinstance(stmt, (pyast.Import, pyast.ImportFrom)):
            self.note_import(stmt)
            return True
        if isinstance(stmt, (pyast.FunctionDef, pyast.ClassDef)):
            return True
        if isinstance(stmt, pyast.Expr) and _str_const(stmt.value) is not None:
            return True
        if isinstance(stmt, (pyast.Assign, pyast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, pyast.Assign) else [stmt.target]
            value = stmt.value
            if len(targets) == 1 and isinstance(targets[0], pyast.Name) and value is not None:
                if _constant_like(value) and self.stores.get(targets[0].id) == 1:
                    if _str_const(value) is not None:
                        self.path_vars[targets[0].id] = value
                    if isinstance(value, (pyast.List, pyast.Tuple, pyast.Dict, pyast.Set)):
                        self.literal_vars[targets[0].id] = value  # sc.parallelize(DATA), print(DATA)
                    return True
                if isinstance(value, pyast.Lambda):
                    return True
        return False

    def note_import(self, stmt: pyast.Import | pyast.ImportFrom) -> None:
        if isinstance(stmt, pyast.Import):
            for a in stmt.names:
                local = a.asname or a.name.split(".")[0]
                if a.name in ("sys", "os", "logging", "pyspark", "pyspark.sql"):
                    self.meta[local] = _Meta("module", a.name if a.asname else a.name.split(".")[0])
            return
        for a in stmt.names:
            local = a.asname or a.name
            if stmt.module in ("pyspark", "pyspark.sql", "pyspark.context", "pyspark.conf",
                               "pyspark.sql.session") and a.name in _PYSPARK_CLASSES:
                self.meta[local] = _Meta("class", a.name)
            elif stmt.module == "sys" and a.name == "argv":
                self.meta[local] = _ARGV
            elif stmt.module == "sys" and a.name == "exit":
                self.meta[local] = _Meta("exit")
            elif stmt.module == "sys" and a.name in ("stderr", "stdout"):
                self.meta[local] = _Meta("stream", a.name)
            elif stmt.module == "pyspark" and a.name == "sql":
                self.meta[local] = _Meta("module", "pyspark.sql")

    def block(self, stmts: list[pyast.stmt]) -> None:
        for i, stmt in enumerate(stmts):
            if self.done:
                raise self.error("code after sys.exit", "code after the final sys.exit(...) never runs: "
                                 "script mode reads sys.exit only as the script's last statement", stmt)
            if isinstance(stmt, pyast.Return):
                if i != len(stmts) - 1 or not self.inlining:
                    raise self.error("return", "a return other than at the end of the script's main "
                                     "function is not supported", stmt)
                if stmt.value is not None:
                    self.expr_statement(stmt.value, stmt)
                return
            self.statement(stmt)

    def statement(self, stmt: pyast.stmt) -> None:  # noqa: C901 - one dispatch over statement kinds
        if isinstance(stmt, pyast.Pass):
            return
        if isinstance(stmt, (pyast.Import, pyast.ImportFrom)):
            self.note_import(stmt)
            self.hoisted.append(stmt)
            return
        if isinstance(stmt, pyast.FunctionDef):
            self.body.append(self.rewrite_stmt(stmt))
            return
        if isinstance(stmt, pyast.Expr):
            if _str_const(stmt.value) is not None:
                return
            self.expr_statement(stmt.value, stmt)
            return
        if isinstance(stmt, (pyast.Assign, pyast.AnnAssign, pyast.AugAssign)):
            self.assignment(stmt)
            return
        if isinstance(stmt, pyast.If):
            self.if_statement(stmt)
            return
        if isinstance(stmt, pyast.For):
            self.for_statement(stmt)
            return
        if isinstance(stmt, pyast.Try) and self.cannot_raise(stmt.body):
            for handler in stmt.handlers:
                self.ignore(handler, "except", "its try block only builds the Spark session and binds "
                            "constants, which script mode takes not to fail: the handler never runs")
            self.block([*stmt.body, *stmt.orelse, *stmt.finalbody])
            return
        construct = {pyast.While: "while loop", pyast.Try: "try", pyast.With: "with", pyast.Raise: "raise",
                     pyast.Global: "global", pyast.Nonlocal: "nonlocal", pyast.Assert: "assert",
                     pyast.Delete: "del", pyast.ClassDef: "class definition",
                     pyast.AsyncFunctionDef: "async def", pyast.Match: "match"}.get(type(stmt),
                                                                                      type(stmt).__name__)
        raise self.error(construct, f"'{construct}' in the script's driver code is not supported "
                         "(script mode reads straight-line driver code, argument checks, if on driver values "
                         "and for loops over collected results)", stmt)

    def cannot_raise(self, stmts: list[pyast.stmt]) -> bool:
        """Statements that cannot raise as script mode models them: binding a Spark session, context or
        conf (Spark is taken to start), a constant, a literal, a path or a ``sys.argv[i]``; harmless
        session calls; pass. A ``try`` around only these never runs its handlers. (A ``try`` around a
        job is refused: the kernel has no exception handling, so which branch runs is not modelled.)"""
        for s in stmts:
            if isinstance(s, pyast.Pass) or isinstance(s, pyast.Expr) and _str_const(s.value) is not None:
                continue
            if isinstance(s, pyast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], pyast.Name):
                v = s.value
                if self.meta_of(v) is not None and self.meta_of(v) != _ARGV or _constant_like(v):
                    continue
                if self._argv_index(v) is not None:  # sys.argv[i]: each i the script reads is given
                    continue
            if isinstance(s, pyast.Expr) and isinstance(s.value, pyast.Call) \
                    and isinstance(s.value.func, pyast.Attribute):
                base = self.meta_of(s.value.func.value)
                if base is not None and base.kind in ("conf", "context", "session") \
                        and s.value.func.attr in ("setAppName", "setMaster", "set", "setLogLevel") \
                        and all(isinstance(a, pyast.Constant) for a in s.value.args):
                    continue
            return False
        return True

    # -- expression statements: prints, sinks, session calls, logging, calls of main ---------------

    def expr_statement(self, value: pyast.expr, stmt: pyast.stmt) -> None:
        if isinstance(value, pyast.Call):
            f = value.func
            if isinstance(f, pyast.Name) and f.id == "print" and f.id not in self.meta:
                self.print_statement(value, stmt)
                return
            if self.is_exit(f):
                self.exit_statement(value, stmt)
                return
            if rdd_files.close_statement(self, value, stmt):
                return
            if isinstance(f, pyast.Name) and f.id in self.defs and self.drives(self.defs[f.id]):
                self.inline_call(self.defs[f.id], value.args, value)
                return
            if isinstance(f, pyast.Attribute):
                if f.attr == "saveAsTextFile":
                    self.save_statement(value, stmt)
                    return
                if f.attr in ("cache", "persist", "unpersist") and self.is_rdd_expr(f.value) \
                        and self.meta_of(f.value) is None and all(
                            isinstance(a, (pyast.Name, pyast.Attribute, pyast.Constant))
                            for a in [*value.args, *(k.value for k in value.keywords)]):
                    self.ignore(stmt, f"rdd.{f.attr}()", "caching changes where Spark keeps an RDD's "
                                "partitions, not their elements; it runs no job")
                    return
                base = self.meta_of(f.value)
                if base is not None:
                    self.meta_call(base, f, value, stmt)
                    return
        self.emit(_at(pyast.Expr(self.rewrite(value)), stmt))

    def is_exit(self, f: pyast.expr) -> bool:
        if isinstance(f, pyast.Name) and f.id in ("exit", "quit") and f.id not in self.meta \
                and f.id not in self.defs:
            return True
        if isinstance(f, pyast.Name) and self.meta.get(f.id) == _Meta("exit"):
            return True
        if isinstance(f, pyast.Attribute) and f.attr == "exit":
            base = self.meta_of(f.value)
            return base is not None and base.kind == "module" and base.name in ("sys", "os")
        return False

    def meta_call(self, base: _Meta, f: pyast.Attribute, call: pyast.Call, stmt: pyast.stmt) -> None:
        """A method call on a driver object, as a statement."""
        construct = f"{pyast.unparse(f)}({'...' if call.args or call.keywords else ''})"
        if base.kind in ("session", "context") and f.attr == "stop":
            self.ignore(stmt, construct, "stopping Spark after the outputs are written changes none of them")
            return
        if base.kind == "context" and f.attr in ("setLogLevel", "setJobDescription", "setJobGroup",
                                                 "setLocalProperty"):
            self.evaluate_args(call)
            self.ignore(stmt, construct, "sets what Spark logs or how the UI names jobs: no output of the "
                        "script depends on it")
            return
        if base.kind in ("runtime_conf", "conf") and f.attr in ("set", "setAppName", "setMaster",
                                                                "setIfMissing", "setAll"):
            self.check_config(call, f.attr)
            self.ignore(stmt, construct, "a configuration setting that cannot change what an RDD job "
                        "computes (a name, memory, UI or logging setting)")
            return
        if base.kind == "logger" or (base.kind == "module" and base.name == "logging"):
            if f.attr in _LOG_METHODS or f.attr in ("basicConfig", "setLevel", "addHandler",
                                                    "disable", "captureWarnings"):
                if f.attr == "basicConfig":
                    self.check_log_destination(call)
                self.evaluate_args(call)
                self.ignore(stmt, construct, "logging writes to standard error, which is not an output "
                            "compared (its arguments are still evaluated: a job in them runs, and may raise)")
                return
        if base.kind == "stream" and base.name == "stderr" and f.attr in ("write", "flush"):
            self.evaluate_args(call)
            self.ignore(stmt, construct, "standard error is not an output compared (the arguments are "
                        "still evaluated)")
            return
        if base.kind == "context" and f.attr in _OTHER_SOURCES:
            raise self.error(f"sc.{f.attr}", f"'{f.attr}' is not understood in script mode: its effect is "
                             "not modelled", f)
        what = {"session": "the Spark session", "context": "the SparkContext", "argv": "sys.argv",
                "stream": f"sys.{base.name}", "logger": "the logger"}.get(base.kind, base.name or base.kind)
        raise self.error(f"{base.kind}.{f.attr}", f"'{f.attr}' on {what} is not understood in script mode "
                         "(it may change the script's outputs)", f)

    def check_log_destination(self, call: pyast.Call) -> None:
        """``logging.basicConfig`` writes to standard error unless told otherwise: with
        ``stream=sys.stdout`` (or handlers of its own) the log lines are printed text, an output that
        script mode would otherwise drop (two scripts logging different messages would be proved
        equivalent). Only the default stream, ``sys.stderr`` and a ``filename`` are understood."""
        for k in call.keywords:
            if k.arg == "handlers" or k.arg is None or k.arg == "stream" and not (
                    self.meta_of(k.value) == _Meta("stream", "stderr")):
                raise self.error("logging.basicConfig", "logging configured to write elsewhere than "
                                 "standard error (a stream or handlers) is not understood in script mode: "
                                 "its lines may be printed output", k.value)

    def evaluate_args(self, call: pyast.Call) -> None:
        """Logging and driver settings write no output, but Python evaluates their arguments (a job in
        an argument runs, and may raise)."""
        for a in [*call.args, *(k.value for k in call.keywords)]:
            if isinstance(a, pyast.Constant) or self.meta_of(a) is not None:
                continue
            if isinstance(a, pyast.Name) and a.id in self.collected:
                continue
            self.emit(_at(pyast.Expr(self.rewrite(a)), a))

    def drives(self, fn: pyast.FunctionDef, seen: frozenset[str] = frozenset()) -> bool:
        """A module function that is part of the driver (it prints, exits, saves, touches Spark objects or
        calls a function that does) is inlined where it is called."""
        for n in pyast.walk(fn):
            if isinstance(n, pyast.Call) and isinstance(n.func, pyast.Name):
                if n.func.id in ("print", "exit", "quit"):
                    return True
                callee = self.defs.get(n.func.id)
                if callee is not None and callee.name not in seen | {fn.name} \
                        and self.drives(callee, seen | {fn.name}):
                    return True
            if isinstance(n, pyast.Attribute) and n.attr in ("saveAsTextFile", "exit", "builder", "textFile",
                                                             "parallelize", "sparkContext", "argv", "stop"):
                return True
            if isinstance(n, pyast.Name) and n.id in self.meta:
                return True
        return False

    def inline_call(self, fn: pyast.FunctionDef, args: list[pyast.expr], call: pyast.AST) -> None:
        """Run a driver function's body in place (``main()``, ``run(sc, sys.argv[1])``): parameters bound
        to the arguments (driver objects by meaning, values by an assignment)."""
        if fn.name in self.inlining:
            raise self.error("recursion", f"'{fn.name}' is recursive", call)
        if fn.decorator_list:
            raise self.error("decorator", "decorators are not supported", fn.decorator_list[0])
        params = [a.arg for a in fn.args.args]
        if fn.args.vararg or fn.args.kwarg or fn.args.kwonlyargs or fn.args.posonlyargs:
            raise self.error("parameters", f"'{fn.name}' must take plain positional parameters", fn)
        defaults = fn.args.defaults
        if len(args) > len(params) or len(args) < len(params) - len(defaults):
            raise self.error("arguments", f"'{fn.name}' takes {len(params)} argument(s), {len(args)} given",
                             call)
        given = list(args) + list(defaults[len(defaults) - (len(params) - len(args)):])
        outer = {p: (self.meta.get(p), self.collected.get(p), self.path_vars.get(p)) for p in params}
        bindings = [(p, self.meta_of(a), self.resolve_name(a), a) for p, a in zip(params, given, strict=True)]
        for p, m, resolved, a in bindings:  # the arguments are read in the caller's scope, then bound
            self.meta.pop(p, None)
            self.collected.pop(p, None)
            self.path_vars.pop(p, None)
            if m is not None:
                self.meta[p] = m
                continue
            own = sum(1 for n in pyast.walk(fn)
                      if isinstance(n, pyast.Name) and isinstance(n.ctx, pyast.Store) and n.id == p
                      or isinstance(n, pyast.arg) and n.arg == p)
            if own == 1 and self.stores.get(p, 0) <= 1 and (self._argv_index(resolved) is not None
                                                              or _str_const(resolved) is not None):
                self.path_vars[p] = resolved
                continue
            self.emit(_at(pyast.Assign([_name(p, a, store=True)], self.rewrite(a)), a))
        self.inlining.append(fn.name)
        try:
            self.block(fn.body)
        finally:
            self.inlining.pop()
        for p, (m, c, v) in outer.items():  # the caller's meaning of a name a parameter shadowed
            for table, value in ((self.meta, m), (self.collected, c), (self.path_vars, v)):
                if value is None:
                    table.pop(p, None)  # type: ignore[attr-defined]
                else:
                    table[p] = value  # type: ignore[index]



    # -- output ----------------------------------------------------------------------------------

    def emit(self, stmt: pyast.stmt) -> None:
        self.body.append(stmt)

    def finish(self, module_keep: list[pyast.stmt]) -> ScriptProgram:
        rdd_files.link_file_texts(self)
        self.check_argv_uses()
        rdd_argv.check_listed(self)
        self.check_module_functions(module_keep)
        anchor = self.tree.body[0] if self.tree.body else pyast.Pass(lineno=1, col_offset=0)
        items, sinks = self.result_items(anchor)
        ret = _at(pyast.Return(_at(pyast.Tuple([_name(n, anchor) for n in items], pyast.Load()), anchor)),
                  anchor)
        args = []
        for src in self.sources:
            ann = self.annotation(src)
            arg = pyast.arg(src.param, _at(pyast.parse(ann, mode="eval").body, anchor))
            pyast.copy_location(arg, anchor)
            args.append(arg)
        fn_name = self.fresh("script")
        fn = pyast.FunctionDef(name=fn_name, args=pyast.arguments([], args, None, [], [], None, []),
                               body=[*self.body, ret], decorator_list=[], returns=None)
        _at(fn, anchor)
        module = pyast.Module([*self.hoisted, *module_keep, fn], [])
        info = scan_module(module, self.filename, RDD_METHODS)
        tr = RddTranslator(info, self.lines)
        tr.names_fail_late = True  # a script: a name bound nowhere in it raises NameError when evaluated
        try:
            program = translate_pipeline(tr, fn)
            program = infer_program(program)
        except RecursionError:
            raise InputError("the script is nested too deeply to translate",
                             sl.Loc(self.filename, 1, 1)) from None
        program = replace(program, name=_program_name(self.filename), loc=sl.Loc(self.filename, 1, 1))
        self.check_formats(program)
        program = self.drop_format_jobs(program)
        sinks = tuple(self.refine(k, program) for k in sinks)
        return ScriptProgram(program, tuple(self.sources), sinks, self.argv_length, self.filename, self.entry,
                             tuple(self.ignored.values()), tuple(sorted(self.masks)),
                             master=" / ".join(sorted(self.masters)) or None)

    def result_items(self, anchor: pyast.AST) -> tuple[list[str], list[Sink]]:
        """The program's result: one item per sink, except that consecutive printed texts are one item
        (their concatenation: stdout is compared as text, however many print calls wrote it)."""
        items: list[str] = []
        sinks: list[Sink] = []
        groups: list[list[tuple[Sink, str]]] = []
        for sink, name in self.sinks:
            if sink.observed == "text" and groups and groups[-1][0][0].observed == "text":
                groups[-1].append((sink, name))
            else:
                groups.append([(sink, name)])
        for group in groups:
            if len(group) == 1:
                items.append(group[0][1])
            else:
                name = self.fresh("printed_text")
                value = self.concat([_name(n, anchor) for _, n in group], anchor)
                self.emit(_at(pyast.Assign([_name(name, anchor, store=True)], value), anchor))
                items.append(name)
            sinks.extend(replace(k, index=len(items) - 1) for k, _ in group)
        return items, sinks

    def check_module_functions(self, module_keep: list[pyast.stmt]) -> None:
        """A module-level function reading a name the driver code binds (``limit = int(sys.argv[2])`` at
        top level, read by ``def keep(x)``) would read it when Spark runs it; the RDD frontend reads module
        functions against module constants only, so this is rejected with a clear message."""
        driver_names = {t.id for st in self.body for n in pyast.walk(st) if isinstance(n, (pyast.Assign,
                                                                                          pyast.AugAssign))
                        for tgt in (n.targets if isinstance(n, pyast.Assign) else [n.target])
                        for t in pyast.walk(tgt) if isinstance(t, pyast.Name)}
        for st in module_keep:
            fn = st if isinstance(st, pyast.FunctionDef) else st.value if isinstance(st, pyast.Assign) \
                and isinstance(st.value, pyast.Lambda) else None
            if fn is None:
                continue
            local = {a.arg for a in pyast.walk(fn) if isinstance(a, pyast.arg)}
            local |= {n.id for n in pyast.walk(fn)
                      if isinstance(n, pyast.Name) and isinstance(n.ctx, pyast.Store)}
            for n in pyast.walk(fn):
                if isinstance(n, pyast.Name) and isinstance(n.ctx, pyast.Load) and n.id in driver_names \
                        and n.id not in local and n.id not in self.path_vars:
                    name = st.name if isinstance(st, pyast.FunctionDef) else "this function"
                    raise self.error("module function reading a driver value", f"'{name}' reads '{n.id}', "
                                     "which the script's driver code computes when it runs: define the "
                                     "function inside the code that computes it, or pass the value as an "
                                     "argument", n)

    def check_argv_uses(self) -> None:
        """A ``sys.argv[i]`` that is both a path and a value (printed, computed with) is one input string
        the file is named after (``Source.path_too``): both scripts get the same arguments."""
        paths = {s.argv_index for s in self.sources if s.kind == "text"}
        paths |= {k.argv_index for k, _ in self.sinks if k.kind == "save_text"}
        self.sources = [replace(s, path_too=True) if s.kind == "argument" and s.argv_index in paths else s
                        for s in self.sources]

    def drop_format_jobs(self, program: sl.Program) -> sl.Program:
        """Drop a strict job this translation added for a bag sink (``bag_of``, ``format_job``: the job
        runs, and may raise, where Python runs it) when it cannot raise except through ``str`` of an int
        over 4300 digits, which SparkLite's proofs treat as raising but script mode, like the RDD frontend
        (docs/frontend.md, Known limits), assumes does not happen. Then the sink's value, computed with
        the result, raises what the job would have raised (the lineage is the same), only later."""
        if not self.format_jobs and not self.jobs:
            return program

        def strip(n: sl.Node) -> sl.Node:  # for the question "may it raise?" only
            if isinstance(n, sl.Call) and n.func == "str" and len(n.args) == 1:
                return n.args[0]
            if isinstance(n, sl.Call) and n.func == "str.split" and len(n.args) == 1:  # split() never raises
                return sl.Call("str.split", (n.args[0], sl.StrLit(" ")), loc=n.loc)
            return n
        defs = {d.name: sl.transform(d, strip) for d in program.defs}
        bags = {k: sl.transform(v, strip) for k, v in effects.bag_lets(program).items()}
        kept = []
        for let in program.lets:
            if let.name in self.format_jobs and isinstance(let.value, sl.Collect) \
                    and isinstance(let.value.source, (sl.Map, sl.FlatMap)) \
                    and not effects.may_raise(sl.transform(let.value.source.fn, strip), defs, bags):
                continue
            if let.name in self.jobs and not effects.may_raise(sl.transform(let.value, strip), defs, bags):
                continue
            kept.append(let)
        return replace(program, lets=tuple(kept))

    def annotation(self, s: Source) -> str | None:
        if s.kind == "text":
            return "RDD[str]"
        if s.kind in ("argument", "partitions", "file_text", "dir_listing"):
            return "int" if s.kind == "partitions" else "str"
        assert s.values is not None
        t = _literal_type(s.values)
        if t is None:
            raise self.error("parallelize of mixed values", "the parallelized literal must hold values of "
                             "one type (ints, floats, strings, bools or tuples of them)", s.loc)
        return f"RDD[{t}]"

    def check_formats(self, program: sl.Program) -> None:
        """``"%s" % x`` formats ``x`` itself only when ``x`` is not a tuple (a tuple holds the arguments),
        and ``"%s: %s" % t`` needs ``t`` to be a tuple of exactly that many items: read as ``str(x)`` and
        ``str(t[0]) + ": " + str(t[1])``, so other types are rejected once they are known."""
        if not self.single_format and not self.tuple_formats:
            return
        single = set(self.single_format)
        arity = dict(self.tuple_formats)
        types = typecheck(program)
        for n in sl.walk(types.program):
            if not (isinstance(n, sl.Call) and n.func == "str" and n.loc in single | set(arity)):
                continue
            arg = n.args[0]
            if n.loc in single:
                t = _type_or_none(types, arg)
                if isinstance(t, TupleType):
                    raise self.error("%-format of a tuple", "'%s' % x with x a tuple formats the tuple's "
                                     "items (write the tuple's fields, or '%s' % (x,))", n.loc)
                continue
            while isinstance(arg, sl.Call) and arg.func in ("int", "str") and arg.args:
                arg = arg.args[0]
            base = arg.tuple if isinstance(arg, sl.Proj) else None
            t = _type_or_none(types, base) if base is not None else None
            if not (isinstance(t, TupleType) and len(t.elems) == arity[n.loc]):
                raise self.error("%-format arguments", f"the format has {arity[n.loc]} fields: its value "
                                 f"must be a tuple of {arity[n.loc]} items", n.loc)

    def refine(self, sink: Sink, program: sl.Program) -> Sink:
        """A loop over a sorted RDD prints its lines in order (modulo ties), not as a bag."""
        if sink.observed != "bag_of_lines":
            return sink
        body = program.body
        item = body.elems[sink.index] if isinstance(body, sl.TupleExpr) else body
        bag_lets = {lt.name: lt.value for lt in program.lets}
        if sl.sorted_bag(item, bag_lets):
            return replace(sink, observed="sorted_lines")
        return sink
