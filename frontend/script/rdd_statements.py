"""The driver statements of an RDD script: sinks (``saveAsTextFile``, ``sys.exit``), assignments,
``if`` on the driver, ``for`` loops over collected results, and the script's sources (text files,
``sys.argv`` values, ``parallelize`` literals) as parameters. A mixin of ``rdd_driver._Driver``.
"""

from __future__ import annotations

import ast as pyast
from collections.abc import Sequence
from typing import Any

from frontend.python.loops import fold_ascii_bytes
from frontend.script import rdd_files
from frontend.script.rdd_meta import (
    _ARGV,
    _LOOP_BASE,
    _MAX_UNROLL,
    _SINK_BASE,
    _UNKNOWN,
    _at,
    _call,
    _Loop,
    _name,
    _str_const,
)
from frontend.script.rdd_program import Sink, Source
from frontend.script.rdd_rewriter import _Rewriter

# RDD methods that return an RDD (what ``is_rdd_expr`` follows)
_TRANSFORMATIONS = frozenset({
    "map", "filter", "flatMap", "mapValues", "flatMapValues", "keys", "values", "cartesian", "join",
    "leftOuterJoin", "rightOuterJoin", "fullOuterJoin", "union", "distinct", "subtract", "intersection",
    "foldByKey", "reduceByKey", "aggregateByKey", "combineByKey", "groupByKey", "cache", "persist",
    "unpersist", "keyBy", "sortBy", "sortByKey", "repartition", "coalesce", "partitionBy", "mapPartitions",
    "mapPartitionsWithIndex", "glom", "sample", "zip", "zipWithIndex", "groupBy", "cogroup",
    "subtractByKey", "localCheckpoint", "setName", "pipe"})


def _literal_value(node: pyast.expr) -> Any:
    """The value of a literal display (``[("a", 1), ("b", 2)]``), or None when it is not one."""
    try:
        return pyast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


# transformations whose result has as many partitions as their parent, with at most this many
# positional arguments (a further one would be numPartitions)
_SAME_COUNT: dict[str, int] = {
    "map": 2, "filter": 1, "flatMap": 2, "mapValues": 1, "flatMapValues": 1, "keys": 0, "values": 0,
    "keyBy": 1, "cache": 0, "persist": 1, "reduceByKey": 1, "groupByKey": 0, "foldByKey": 2,
    "aggregateByKey": 3, "combineByKey": 3, "distinct": 0, "sortBy": 2, "sortByKey": 1}


def _ordered_dict_of(value: pyast.expr) -> pyast.expr | None:
    """``collections.OrderedDict(sorted(d.items()))`` (also ``OrderedDict(...)``, ``dict(...)``): the
    ``sorted(...)`` argument, whose order the dict keeps, or None."""
    if not (isinstance(value, pyast.Call) and len(value.args) == 1 and not value.keywords):
        return None
    f = value.func
    named = isinstance(f, pyast.Name) and f.id in ("OrderedDict", "dict") or isinstance(f, pyast.Attribute) \
        and f.attr == "OrderedDict" and isinstance(f.value, pyast.Name) and f.value.id == "collections"
    arg = value.args[0]
    if named and isinstance(arg, pyast.Call) and isinstance(arg.func, pyast.Name) \
            and arg.func.id == "sorted" and len(arg.args) == 1 and not arg.keywords:
        return arg
    return None


class StatementsMixin:
    """Statements, sinks and sources of ``rdd_driver._Driver``."""

    def add_sink(self, kind: str, observed: str, stmt: pyast.AST, name: str, **extra: Any) -> None:
        sink = Sink(len(self.sinks), kind, observed, self.loc(stmt), self.snippet(stmt), **extra)
        self.sinks.append((sink, name))

    # -- other sinks -----------------------------------------------------------------------------

    def save_statement(self, call: pyast.Call, stmt: pyast.stmt) -> None:
        """``rdd.saveAsTextFile(p)``: the job runs here; the part files hold ``str(x)`` per element, one
        per line, compared as a bag of lines."""
        assert isinstance(call.func, pyast.Attribute)
        if len(call.args) != 1 or call.keywords:
            raise self.error("saveAsTextFile arguments", "saveAsTextFile is supported with a path only (a "
                             "compression codec is not)", call)
        path_node = call.args[0]
        path, argv_index, literal = self.path_of(path_node)
        alias = self.fresh("saved")
        self.emit(_at(pyast.Assign([_name(alias, call, store=True)], self.rewrite(call.func.value)), call))
        seen = self.fresh("job")
        self.jobs.append(seen)
        job = _at(pyast.Call(_at(pyast.Attribute(_name(alias, call), "collect", pyast.Load()), call), [], []),
                  call)
        self.emit(_at(pyast.Assign([_name(seen, call, store=True)], job), call))
        name = self.fresh(_SINK_BASE)
        mapped = _at(pyast.Call(_at(pyast.Attribute(_name(alias, call), "map", pyast.Load()), call),
                                [_name("str", call)], []), call)
        self.emit(_at(pyast.Assign([_name(name, stmt, store=True)], mapped), stmt))
        self.format_job(name, stmt)
        self.add_sink("save_text", "files", stmt, name, stdout=False, path=path, argv_index=argv_index,
                      literal_path=literal)

    def path_of(self, node: pyast.expr) -> tuple[str, int | None, str | None]:
        """A path argument: ``sys.argv[i]`` or a string constant (also a module constant or a name bound to
        either)."""
        node = self.resolve_name(node)
        index = self._argv_index(node)
        if index is not None:
            return f"sys.argv[{index}]", index, None
        lit = _str_const(node)
        if lit is not None:
            return repr(lit), None, lit
        raise self.error("path expression", f"the path {pyast.unparse(node)} is not understood: script mode "
                         "reads paths given as sys.argv[i] or as string constants", node)

    def resolve_name(self, node: pyast.expr) -> pyast.expr:
        """A name bound to ``sys.argv[i]`` or a string constant, seen through."""
        seen: set[str] = set()
        while isinstance(node, pyast.Name) and node.id in self.path_vars and node.id not in seen:
            seen.add(node.id)
            node = self.path_vars[node.id]
        return node

    def exit_statement(self, call: pyast.Call, stmt: pyast.stmt) -> None:
        """``sys.exit(code)`` as the script's last statement: the exit code is an output."""
        if not self.is_last(stmt):
            raise self.error("sys.exit", "sys.exit other than in an argument check or as the script's last "
                             "statement is not supported", stmt)
        if call.keywords or len(call.args) > 1:
            raise self.error("sys.exit", "sys.exit takes at most one argument", call)
        code: pyast.expr = call.args[0] if call.args else _at(pyast.Constant(0), call)
        if isinstance(code, pyast.Constant) and (code.value is None or isinstance(code.value, str)):
            if isinstance(code.value, str):
                raise self.error("sys.exit with a message", "sys.exit with a message (exit code 1, text on "
                                 "stderr) is not supported as an output", code)
            code = _at(pyast.Constant(0), call)
        name = self.fresh(_SINK_BASE)
        self.emit(_at(pyast.Assign([_name(name, stmt, store=True)], self.rewrite(code)), stmt))
        self.add_sink("exit", "exit_code", stmt, name, stdout=False)
        self.done = True

    def is_last(self, stmt: pyast.stmt) -> bool:
        """Whether nothing runs after ``stmt`` (it ends the module body, or the entry's body at the end of
        the module's driver code)."""
        def last_in(stmts: list[pyast.stmt]) -> bool:
            for s in reversed(stmts):
                if s is stmt:
                    return True
                if isinstance(s, (pyast.FunctionDef, pyast.ClassDef, pyast.Import, pyast.ImportFrom,
                                  pyast.Pass)):
                    continue
                if isinstance(s, pyast.Expr) and _str_const(s.value) is not None:
                    continue
                if isinstance(s, pyast.If) and (last_in(s.body) or last_in(s.orelse)):
                    return True
                if isinstance(s, pyast.Expr) and isinstance(s.value, pyast.Call) \
                        and isinstance(s.value.func, pyast.Name) and s.value.func.id in self.defs:
                    return last_in(self.defs[s.value.func.id].body)
                if isinstance(s, pyast.Return):
                    continue
                return False
            return False
        if last_in(self.tree.body):
            return True
        return self.entry is not None and last_in(self.defs[self.entry].body)

    # -- assignments -----------------------------------------------------------------------------

    def assignment(self, stmt: pyast.Assign | pyast.AnnAssign | pyast.AugAssign) -> None:
        if isinstance(stmt, pyast.Assign):
            if len(stmt.targets) != 1:
                raise self.error("chained assignment", "chained assignment (a = b = ...) is not supported",
                                 stmt)
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, pyast.AnnAssign):
            if stmt.value is None:
                return
            target, value = stmt.target, stmt.value
        else:
            target, value = stmt.target, None
        names = [n.id for n in pyast.walk(target) if isinstance(n, pyast.Name)]
        if value is not None:
            m = self.meta_of(value)
            if m is not None:
                if not isinstance(target, pyast.Name):
                    raise self.error("unpacking a Spark object", "a Spark session, context or sys.argv can "
                                     "only be bound to a name", target)
                self.meta[target.id] = m
                self.collected.pop(target.id, None)
                return
        for n in names:
            self.meta.pop(n, None)
            self.collected.pop(n, None)
            self.path_vars.pop(n, None)
            self.literal_vars.pop(n, None)
            self.ordered_dicts.pop(n, None)
            self.rdd_names.discard(n)
            self.named_rdds.discard(n)
            self.text_paths.pop(n, None)
            self.grouped_rdds.discard(n)
            self.open_files.pop(n, None)
        if value is not None and (rdd_files.bind_open(self, target, value)
                                  or rdd_files.bind_listing(self, target, value)):
            return
        if value is not None and isinstance(target, pyast.Name) and self.stores.get(target.id) == 1 \
                and (self._argv_index(value) is not None or _str_const(value) is not None):
            self.path_vars[target.id] = value  # substituted where it is used (a path, or a value)
            return
        if value is not None and isinstance(target, pyast.Name) and self.stores.get(target.id) == 1 \
                and isinstance(value, (pyast.List, pyast.Tuple, pyast.Dict, pyast.Set)) \
                and _literal_value(value) is not None:
            self.literal_vars[target.id] = value  # data written in the script: substituted where used
            return
        self.lineage.pop(target.id, None) if isinstance(target, pyast.Name) else None
        rdd_target = value is not None and isinstance(target, pyast.Name) and self.is_rdd_expr(value)
        if rdd_target:
            assert isinstance(target, pyast.Name)
            self.rdd_names.add(target.id)
            if self.is_text_rdd(value):
                self.named_rdds.add(target.id)
                path = self.text_path(value)
                if path is not None:
                    self.text_paths[target.id] = path
            if self.is_grouped(value):
                self.grouped_rdds.add(target.id)
        if value is not None and isinstance(target, pyast.Name):
            if isinstance(value, pyast.Call) and isinstance(value.func, pyast.Name) \
                    and value.func.id in self.defs and self.drives(self.defs[value.func.id]):
                raise self.error("driver function result", f"'{value.func.id}' runs driver code (it prints, "
                                 "reads or saves); only calls of it as a statement are supported", value)
            sorted_items = _ordered_dict_of(value)
            if sorted_items is not None and self.stores.get(target.id) == 1 \
                    and self.collection(sorted_items) is not None:
                # OrderedDict(sorted(counts.items())): its items are the sorted pairs (distinct keys)
                self.ordered_dicts[target.id] = sorted_items
                return
            collection = self.collection(value)
            if collection is not None and self.dict_view(collection[1]) is None:
                self.bind_collection(target, *collection, stmt)
                return
        if isinstance(stmt, pyast.AugAssign):
            self.emit(_at(pyast.AugAssign(target, stmt.op, self.rewrite(stmt.value)), stmt))
            return
        assert value is not None
        preferred = target.id if isinstance(target, pyast.Name) else None
        self.emit(_at(pyast.Assign([target], self.rewrite(value, preferred)), stmt))
        if rdd_target:
            assert isinstance(target, pyast.Name)
            source = self.lineage_source(value)
            if source is not None:
                self.lineage[target.id] = source

    def is_rdd_expr(self, node: pyast.expr) -> bool:
        """Whether ``node`` is an RDD on the driver (a source, a name bound to one, a transformation of
        one): printing it prints its id and call site, not its data."""
        if isinstance(node, pyast.Name):
            return node.id in self.rdd_names
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute):
            base = self.meta_of(node.func.value)
            if base is not None:
                return base.kind == "context" and node.func.attr in ("textFile", "parallelize")
            return node.func.attr in _TRANSFORMATIONS and self.is_rdd_expr(node.func.value)
        return False

    def lineage_source(self, node: pyast.expr) -> str | None:
        """The source parameter whose partition count ``node``'s RDD has, or None when script mode does
        not follow it: a source itself, then transformations that keep their parent's count (narrow ones,
        and shuffles without ``numPartitions``: PySpark's ``_defaultReducePartitions`` is the parent's
        count when ``spark.default.parallelism`` is unset, which script mode requires; checked on Spark 4,
        docs/semantics-notes.md)."""
        if isinstance(node, pyast.Name):  # a name bound to an RDD, or a source already made a parameter
            if node.id in self.lineage:
                return self.lineage[node.id]
            return node.id if any(s.param == node.id and s.kind in ("text", "literal")
                                  for s in self.sources) else None
        if not (isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute)):
            return None
        if self.meta_of(node.func.value) is not None:
            return self.source_at.get(id(node))
        limit = _SAME_COUNT.get(node.func.attr)
        if limit is None or len(node.args) > limit or any(k.arg == "numPartitions" for k in node.keywords):
            return None
        return self.lineage_source(node.func.value)

    def partition_count(self, call: pyast.Call) -> str:
        """``rdd.getNumPartitions()``: an ``int`` input standing for the partition count of the source
        the RDD's partitions follow (``Source.kind == "partitions"``): the same lineage has the same count
        on both sides, and a run gives it the count of Spark's partitioning of that source."""
        import copy

        assert isinstance(call.func, pyast.Attribute)
        rdd = copy.deepcopy(call.func.value)
        rdd = self.rewrite(rdd)  # its sources become parameters (no job runs: getNumPartitions runs none)
        source = self.lineage_source(rdd)
        if source is None or call.args or call.keywords:
            raise self.error("getNumPartitions", "getNumPartitions() is read on an RDD whose partitions "
                             "follow one source through transformations that keep the count (map, filter, "
                             "reduceByKey without numPartitions...); this RDD's count is not followed",
                             call)
        of = next(s for s in self.sources if s.param == source)

        def make() -> Source:
            return Source(self.fresh("partitions"), "partitions", "getNumPartitions",
                          f"{of.path}.getNumPartitions()", self.loc(call), partitions_of=source)
        return self.source_param(f"partitions:{source}", make)

    @staticmethod
    def without_hints(node: pyast.expr) -> pyast.expr:
        """``node`` without the storage hints chained on it (``rdd.cache()`` is ``rdd`` itself)."""
        while isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute) \
                and node.func.attr in ("cache", "persist"):
            node = node.func.value
        return node

    def is_text_rdd(self, node: pyast.expr) -> bool:
        """A ``textFile`` RDD itself (also cached): Spark names it after the path, which its text shows."""
        node = self.without_hints(node)
        if isinstance(node, pyast.Name):
            return node.id in self.named_rdds
        return isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute) \
            and node.func.attr == "textFile" and self.meta_of(node.func.value) is not None

    def text_path(self, node: pyast.expr) -> pyast.expr | None:
        """The path expression a ``textFile`` RDD (``is_text_rdd``) was read from, or None."""
        node = self.without_hints(node)
        if isinstance(node, pyast.Name):
            return self.text_paths.get(node.id)
        if not isinstance(node, pyast.Call):
            return None
        if node.args:
            return node.args[0]
        return next((k.value for k in node.keywords if k.arg == "name"), None)

    def bind_collection(self, target: pyast.Name, kind: str, node: pyast.expr, stmt: pyast.stmt) -> None:
        """``output = counts.collect()`` (the job runs here; the name stands for the RDD's bag when printed
        or looped over), ``counts = words.countByValue()`` (a dict whose items a loop may print), or a
        list (``take``, ``sorted``)."""
        if kind == "bag" and isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name):
            node = node.args[0]  # list(rdd.collect()): the collected list itself
        if isinstance(node, pyast.Name):  # other = output
            self.emit(_at(pyast.Assign([target], self.rewrite(node)), stmt))
            self.collected[target.id] = self.collected[node.id]
            return
        if kind in ("bag", "dict") and isinstance(node, pyast.Call) \
                and isinstance(node.func, pyast.Attribute):
            alias = self.fresh("collected" if kind == "bag" else "counted")
            rdd = self.rewrite(node.func.value)
            self.emit(_at(pyast.Assign([_name(alias, node, store=True)], rdd), node))
            method = _at(pyast.Attribute(_name(alias, node), node.func.attr, pyast.Load()), node)
            self.emit(_at(pyast.Assign([_name(target.id, target, store=True)],
                                       _at(pyast.Call(method, [], []), node)), stmt))
            self.collected[target.id] = _Loop(kind, alias, node.func.attr if kind == "dict" else None)
            return
        self.emit(_at(pyast.Assign([target], self.rewrite(node)), stmt))
        self.collected[target.id] = _Loop("list", None)

    # -- if --------------------------------------------------------------------------------------

    def if_statement(self, stmt: pyast.If) -> None:
        test = self.static_value(stmt.test)
        if test is not _UNKNOWN:
            taken = stmt.body if test else stmt.orelse
            if self.is_argument_check(stmt.test) and test and self.exits(taken):
                raise self.error("argument check", f"with the {self.argv_length - 1} argument(s) the script "
                                 "uses (sys.argv has "
                                 f"{self.argv_length} items) this check exits: script mode gives one "
                                 "argument "
                                 "per sys.argv[i] the script reads", stmt.test)
            self.block(taken)
            return
        self.driver_if(stmt)

    def is_argument_check(self, test: pyast.expr) -> bool:
        return any(isinstance(n, pyast.Call) and isinstance(n.func, pyast.Name) and n.func.id == "len"
                   and n.args and self.meta_of(n.args[0]) == _ARGV for n in pyast.walk(test))

    def exits(self, stmts: list[pyast.stmt]) -> bool:
        return any(isinstance(s, pyast.Expr) and isinstance(s.value, pyast.Call)
                   and self.is_exit(s.value.func) for s in stmts)

    def driver_if(self, stmt: pyast.If) -> None:
        """``if`` on a driver value (``if total > 0: print(...) else: print(...)``): branches holding only
        prints become one sink, the text the branch taken writes (possibly none)."""
        text = self.branch_text([stmt], stmt)
        name = self.fresh(_SINK_BASE)
        self.emit(_at(pyast.Assign([_name(name, stmt, store=True)], text), stmt))
        self.add_sink("print_branch", "text", stmt, name)

    def branch_text(self, stmts: list[pyast.stmt], anchor: pyast.AST) -> pyast.expr:
        parts: list[pyast.expr] = []
        for s in stmts:
            if isinstance(s, pyast.Pass):
                continue
            if isinstance(s, pyast.Expr) and isinstance(s.value, pyast.Call) \
                    and isinstance(s.value.func, pyast.Name) and s.value.func.id == "print":
                args, sep, stream = self.print_args(s.value)
                if stream is not None:
                    raise self.error("print to stderr in a branch", "inside an if on driver values only "
                                     "prints to stdout are supported", s)
                if len(args) == 1 and self.collection(args[0]) is not None:
                    raise self.error("printing a list in a branch", "inside an if on driver values a "
                                     "collected list cannot be printed", s)
                parts.append(self.newline(self.line_expr(args, sep, s.value), s.value))
                continue
            if isinstance(s, pyast.If):
                if self.static_value(s.test) is not _UNKNOWN:
                    raise self.error("argument check in a branch", "an argument check inside an if on driver "
                                     "values is not supported", s)
                then = self.branch_text(s.body, s)
                orelse = self.branch_text(s.orelse, s)
                parts.append(_at(pyast.IfExp(self.rewrite(s.test), then, orelse), s))
                continue
            raise self.error("statement in a branch", "an if on driver values may only print (its branches "
                             "cannot assign, save, loop or exit): "
                             f"'{self.snippet(s)}' is not understood there", s)
        return self.concat(parts, anchor) if parts else _at(pyast.Constant(""), anchor)

    # -- for -------------------------------------------------------------------------------------

    def for_statement(self, stmt: pyast.For) -> None:
        if stmt.orelse:
            raise self.error("for-else", "for ... else is not supported", stmt.orelse[0])
        for n in pyast.walk(stmt):
            if isinstance(n, (pyast.Break, pyast.Continue)):
                raise self.error("break", "break and continue are not supported in script loops", n)
        values = self.literal_iteration(stmt.iter)
        if values is not None:
            if len(values) > _MAX_UNROLL:
                raise self.error("long loop", f"a loop over {len(values)} constants is not unrolled (at most "
                                 f"{_MAX_UNROLL})", stmt.iter)
            for v in values:
                self.emit(_at(pyast.Assign([stmt.target], _at(pyast.Constant(v), stmt.iter)), stmt.target))
                self.block(stmt.body)
            return
        collection = self.collection(stmt.iter)
        if collection is None:
            raise self.error("for loop", "script mode unrolls loops over literal ranges and reads loops over "
                             "collected results (for x in rdd.collect(), rdd.take(n), sorted(...)); this "
                             f"iterable ({pyast.unparse(stmt.iter)}) is not understood", stmt.iter)
        kind, node = collection
        if kind == "dict":  # for key in counts: its keys
            if self.dict_origin(node) is None:
                raise self.error("loop over a dict", "this dict is not understood as a loop's iterable",
                                 stmt.iter)
            node = _at(pyast.Call(_at(pyast.Attribute(node, "keys", pyast.Load()), node), [], []), node)
            kind = "bag"
        fn_name = self.fresh(_LOOP_BASE)
        fn, single = self.loop_function(stmt, fn_name)
        self.emit(fn)
        name = self.fresh(_SINK_BASE)
        if kind == "bag":
            rdd = self.bag_of(node)
            method = "map" if single else "flatMap"
            value = _at(pyast.Call(_at(pyast.Attribute(rdd, method, pyast.Load()), stmt),
                                   [_name(fn_name, stmt)], []), stmt)
            self.emit(_at(pyast.Assign([_name(name, stmt, store=True)], value), stmt))
            self.format_job(name, stmt)
            self.add_sink("print_lines", "bag_of_lines", stmt, name)
            return
        if not single:
            raise self.error("loop printing several lines", "a loop over a list (take, sorted, ...) may "
                             "print one line per element only", stmt)
        item = self.fresh("item")
        comp = pyast.ListComp(_call(fn_name, [_name(item, stmt)], stmt),
                              [pyast.comprehension(_name(item, stmt, store=True), self.rewrite(node), [], 0)])
        self.emit(_at(pyast.Assign([_name(name, stmt, store=True)], _at(comp, stmt)), stmt))
        self.add_sink("print_lines", "lines_in_order", stmt, name)

    def literal_dict_view(self, node: pyast.expr) -> Any:
        """``d.items()`` / ``d.keys()`` / ``d.values()`` of a dict the script writes (a display, or a name
        bound once to one): the view of that dict, as CPython builds it from the literal (its order is
        the display's, a repeated key keeping its last value), or None."""
        if not (isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute) and not node.args
                and not node.keywords and node.func.attr in ("items", "keys", "values")):
            return None
        d = node.func.value
        if isinstance(d, pyast.Name) and d.id in self.literal_vars:
            d = self.literal_vars[d.id]
        value = _literal_value(d) if isinstance(d, pyast.Dict) else None
        return getattr(value, node.func.attr)() if isinstance(value, dict) else None

    def literal_iteration(self, node: pyast.expr) -> Sequence[Any] | None:
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) and node.func.id == "range" \
                and not node.keywords and 1 <= len(node.args) <= 3 \
                and all(isinstance(a, pyast.Constant) and type(a.value) is int
                        or isinstance(a, pyast.UnaryOp) and isinstance(a.operand, pyast.Constant)
                        and type(a.operand.value) is int for a in node.args):
            args = [pyast.literal_eval(a) for a in node.args]
            try:
                return range(*args)  # not a list: range(10**9) would be built before its length is read
            except ValueError:
                return None
        if isinstance(node, (pyast.List, pyast.Tuple)):
            try:
                values = pyast.literal_eval(node)
            except ValueError:
                return None
            if all(isinstance(v, (int, str, bool, float)) or v is None for v in values):
                return list(values)
        return None

    def loop_function(self, stmt: pyast.For, fn_name: str) -> tuple[pyast.FunctionDef, bool]:
        """The body of ``for target in collected: ...`` as a function of one element returning the line it
        prints (``single``), or the list of lines it prints (prints under ``if``, several prints)."""
        param = self.fresh("element")
        body: list[pyast.stmt] = [_at(pyast.Assign([stmt.target], _name(param, stmt)), stmt.target)]
        prints = [s for s in pyast.walk(pyast.Module(stmt.body, [])) if isinstance(s, pyast.Call)
                  and isinstance(s.func, pyast.Name) and s.func.id == "print"]
        if not prints:
            raise self.error("loop without print", "a loop over a collected result must print its elements "
                             "(other loops over results are not supported)", stmt)
        single = len(prints) == 1 and all(not isinstance(s, pyast.If) for s in stmt.body) \
            and isinstance(stmt.body[-1], pyast.Expr) and isinstance(stmt.body[-1].value, pyast.Call) \
            and stmt.body[-1].value in prints
        acc = self.fresh("printed")
        if not single:
            # an empty list of lines: [""][:0] rather than [] (typed List[None], which + [line] refuses)
            empty = pyast.parse('[""][:0]', mode="eval").body
            for n in pyast.walk(empty):
                pyast.copy_location(n, stmt)
            body.append(_at(pyast.Assign([_name(acc, stmt, store=True)], empty), stmt))
        body.extend(self.loop_body(stmt.body, acc, single))
        if not single:
            body.append(_at(pyast.Return(_name(acc, stmt)), stmt))
        args = pyast.arguments([], [pyast.arg(param)], None, [], [], None, [])
        fn = pyast.FunctionDef(name=fn_name, args=args, body=body, decorator_list=[], returns=None)
        _at(fn, stmt)
        for a in pyast.walk(fn):
            if isinstance(a, pyast.arg):
                pyast.copy_location(a, stmt)
        return fn, single

    def loop_body(self, stmts: list[pyast.stmt], acc: str, single: bool) -> list[pyast.stmt]:
        out: list[pyast.stmt] = []
        for s in fold_ascii_bytes(stmts):  # clean = w.encode('ascii', 'ignore') ... clean.decode()
            if isinstance(s, pyast.Expr) and isinstance(s.value, pyast.Call) \
                    and isinstance(s.value.func, pyast.Name) and s.value.func.id == "print":
                args, sep, stream = self.print_args(s.value)
                if stream is not None:
                    raise self.error("print to stderr in a loop", "a loop over collected results may print "
                                     "to stdout only", s)
                line = self.line_expr(args, sep, s.value)
                if single:
                    out.append(_at(pyast.Return(line), s))
                else:
                    extended = _at(pyast.BinOp(_name(acc, s), pyast.Add(),
                                               _at(pyast.List([line], pyast.Load()), s)), s)
                    out.append(_at(pyast.Assign([_name(acc, s, store=True)], extended), s))
                continue
            if isinstance(s, pyast.If):
                then = self.loop_body(s.body, acc, single)
                orelse = self.loop_body(s.orelse, acc, single)
                out.append(_at(pyast.If(self.rewrite(s.test), then or [_at(pyast.Pass(), s)], orelse), s))
                continue
            if isinstance(s, (pyast.Assign, pyast.AugAssign, pyast.AnnAssign)):
                out.append(self.rewrite_stmt(s))
                continue
            if isinstance(s, pyast.Pass):
                continue
            raise self.error("statement in a loop", "a loop over collected results may assign, test and "
                             f"print; '{self.snippet(s)}' is not understood there", s)
        return out

    def rewrite_stmt(self, s: pyast.stmt) -> pyast.stmt:
        return _Rewriter(self).visit(s)

    # -- sources and the rest of expressions -----------------------------------------------------

    def rewrite(self, node: pyast.expr, preferred: str | None = None) -> pyast.expr:
        """``node`` with every source replaced by its parameter, ``len(sys.argv)`` by its value and
        ``sys.argv[i]`` by an argument parameter; any other use of a driver object is an error.
        ``preferred``: the name ``node`` is assigned to (a source read there is named after it)."""
        return _Rewriter(self, node, preferred).visit(node)

    def source_param(self, key: str, make: Any) -> str:
        if key in self.source_keys:
            return self.source_keys[key]
        src: Source = make()
        self.sources.append(src)
        self.source_keys[key] = src.param
        return src.param

    def param_name(self, preferred: str | None, base: str) -> str:
        if preferred and preferred.isidentifier() and preferred not in {s.param for s in self.sources} \
                and not preferred.startswith("_"):
            count = sum(1 for n in pyast.walk(self.tree) if isinstance(n, pyast.Name)
                        and isinstance(n.ctx, pyast.Store) and n.id == preferred)
            params = sum(1 for n in pyast.walk(self.tree) if isinstance(n, pyast.arg) and n.arg == preferred)
            if count == 1 and params == 0:
                return preferred
        return self.fresh(base)

    def text_source(self, path_node: pyast.expr | None, reader: str, at: pyast.AST, preferred: str | None,
                    min_partitions: int | None = None) -> str:
        """The parameter of a text file read at ``at``; ``min_partitions`` is ``textFile``'s, kept in the
        source's ``slices`` (one script reading one path with two partition counts is refused: its
        sources are matched by path)."""
        if path_node is None:
            raise self.error("textFile arguments", "textFile is supported with a path and an optional "
                             "constant minPartitions only", at)
        path, argv_index, literal = self.path_of(path_node)
        key = f"text:{path}"
        if key in self.source_keys:
            known = next(s for s in self.sources if s.param == self.source_keys[key])
            if known.slices != min_partitions:
                raise self.error("textFile minPartitions", f"{path} is read with two different partition "
                                 "counts", at)

        def make() -> Source:
            return Source(self.param_name(preferred, "lines"), "text", reader, path, self.loc(at), argv_index,
                          literal, slices=min_partitions)
        param = self.source_param(key, make)
        self.source_at[id(at)] = param
        return param

    def literal_source(self, call: pyast.Call, preferred: str | None) -> str:
        if not call.args or len(call.args) > 2 or call.keywords:
            raise self.error("parallelize arguments", "parallelize is supported with a literal list and an "
                             "optional constant number of slices", call)
        data = call.args[0]
        if isinstance(data, pyast.Name) and data.id in self.literal_vars:
            data = self.literal_vars[data.id]  # data = [...] above: the literal itself
        values = self.literal_iteration(data)
        view = self.literal_dict_view(data)
        if values is None and view is not None:
            values = list(view)  # parallelize(c) makes a list of any other collection first
        if values is None:
            try:
                values = list(pyast.literal_eval(data))
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                raise self.error("parallelize of a non-literal", "sc.parallelize is supported with a literal "
                                 "list (or range) only: the data must be visible in the script",
                                 call.args[0]) from None
        slices = None
        if len(call.args) == 2:
            if not (isinstance(call.args[1], pyast.Constant) and type(call.args[1].value) is int
                    and call.args[1].value >= 1):
                raise self.error("parallelize slices", "parallelize's numSlices must be a positive constant",
                                 call.args[1])
            slices = call.args[1].value
        text = pyast.unparse(data)
        key = f"literal:{text}:{slices}:{self.loc(call)}"

        def make() -> Source:
            return Source(self.param_name(preferred, "data"), "literal", "sc.parallelize", text,
                          self.loc(call), values=tuple(values), slices=slices)
        param = self.source_param(key, make)
        self.source_at[id(call)] = param
        return param

    def argument_source(self, index: int, node: pyast.AST) -> str:
        def make() -> Source:
            return Source(self.fresh(f"arg{index}"), "argument", "sys.argv", f"sys.argv[{index}]",
                          self.loc(node), argv_index=index)
        return self.source_param(f"argument:{index}", make)
