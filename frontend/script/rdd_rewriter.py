"""Program code of an RDD script made self-contained: sources become parameters, ``sys.argv[i]`` an
argument parameter, ``len(sys.argv)`` its value; any other driver object left in program code is an
error. Read by the driver's statements and by the driver itself, so it sits below both; it calls back
the driver (``rdd_driver._Driver``, typed ``Any`` here to keep the modules acyclic).
"""

from __future__ import annotations

import ast as pyast
from typing import Any

from frontend.script import rdd_argv, rdd_files
from frontend.script.rdd_meta import (
    _ARGV,
    _OTHER_SOURCES,
    _at,
    _name,
    _program_name,
    _str_const,
)

# SparkContext methods that are not sources, and why script mode does not read them
_NOT_SOURCES = {
    "accumulator": "tasks add to an accumulator as a side effect and the driver reads its total, which the "
                   "kernel has no way to express (count with an action instead: rdd.filter(...).count())",
    "broadcast": "a broadcast variable's value is read in tasks through .value; use the value itself",
    "addFile": "files shipped to the workers are inputs the script does not read with sc.textFile",
    "addPyFile": "code shipped to the workers is not read (script mode never imports user code)",
}


class _Rewriter(pyast.NodeTransformer):
    """Sources to parameters, ``len(sys.argv)`` to its value, ``sys.argv[i]`` to an argument parameter; any
    other driver object (the session, the context, a module) left in program code is an error."""

    def __init__(self, driver: Any, root: pyast.AST | None = None, preferred: str | None = None) -> None:
        self.d = driver
        self.root = root
        self.preferred = preferred  # the name a source read as the whole right side is bound to

    def visit_Call(self, node: pyast.Call) -> pyast.AST:  # noqa: N802 - ast's visitor naming
        d = self.d
        f = node.func
        preferred = self.preferred if node is self.root else None
        if isinstance(f, pyast.Attribute):
            base = d.meta_of(f.value)
            if base is not None and base.kind == "context":
                if f.attr == "textFile":
                    return _name(d.text_source(node.args[0] if node.args else None, "sc.textFile", node,
                                               preferred, _min_partitions(d, node)), node)
                if f.attr == "parallelize":
                    return _name(d.literal_source(node, preferred), node)
                if f.attr in _NOT_SOURCES:
                    raise d.error(f"sc.{f.attr}", f"sc.{f.attr} is not modelled in script mode: "
                                  f"{_NOT_SOURCES[f.attr]}", d.attr_loc(f))
                if f.attr in _OTHER_SOURCES:
                    raise d.error(f"sc.{f.attr}", f"the source sc.{f.attr} is not supported in script mode "
                                  "yet (textFile and parallelize of a literal are)", d.attr_loc(f))
            if base is not None and base.kind == "session" and f.attr == "createDataFrame":
                raise d.error("createDataFrame", "a DataFrame source (createDataFrame) in an RDD "
                              "script: script mode reads RDD jobs and DataFrame jobs (script.df_script), "
                              "not both in one script", node)
            text = self.read_text_lines(node)
            if text is not None:
                return _name(d.text_source(text, "spark.read.text", node, preferred), node)
            if self.reader_root(f.value):
                raise d.error("spark.read", "a DataFrame source (spark.read...) in an RDD script: "
                              "script mode reads RDD jobs and DataFrame jobs, not both in one script; for a "
                              "text file read it as lines: sc.textFile(path) or "
                              "spark.read.text(path).rdd.map(lambda r: r[0])", node)
        if isinstance(f, pyast.Attribute) and f.attr == "getNumPartitions" and d.meta_of(f.value) is None:
            return _name(d.partition_count(node), node)
        if isinstance(f, pyast.Name) and f.id == "sorted" and len(node.args) == 1 and not node.keywords:
            view = d.dict_view(node.args[0])
            if view is not None:  # sorted(counts.items()): the sorted list of the dict's items
                bag = d.dict_bag(*view)
                collected = _at(pyast.Call(_at(pyast.Attribute(bag, "collect", pyast.Load()), node), [], []),
                                node)
                return _at(pyast.Call(f, [collected], []), node)
        listed = rdd_argv.argv_text(d, node)
        if listed is not None:  # str(sys.argv)
            return self.visit(listed)
        text = rdd_files.read_call(d, node)
        if text is not None:  # open(p).read(): the text of a file a Spark source reads
            return _name(text, node)
        if isinstance(f, pyast.Name) and f.id in ("open", "input", "eval", "exec") and f.id not in d.defs:
            raise d.error(f.id, f"'{f.id}' is not supported in script mode: the script's inputs must be read "
                          "with sc.textFile (or be constants), so that they can be compared and replayed", f)
        if isinstance(f, pyast.Name) and f.id == "len" and len(node.args) == 1 \
                and d.meta_of(node.args[0]) == _ARGV:
            return _at(pyast.Constant(d.argv_length), node)
        return self.generic_visit(node)

    def reader_root(self, node: pyast.expr) -> bool:
        while isinstance(node, (pyast.Call, pyast.Attribute)):
            if isinstance(node, pyast.Call):
                node = node.func
                continue
            m = self.d.meta_of(node)
            if m is not None and m.kind == "reader":
                return True
            node = node.value
        m = self.d.meta_of(node) if isinstance(node, pyast.Name) else None
        return m is not None and m.kind == "reader"

    def read_text_lines(self, node: pyast.Call) -> pyast.expr | None:
        """``spark.read.text(p).rdd.map(lambda r: r[0])`` (Spark's own example): the lines of ``p``."""
        f = node.func
        if not (isinstance(f, pyast.Attribute) and f.attr == "map" and len(node.args) == 1
                and not node.keywords):
            return None
        rdd = f.value
        if not (isinstance(rdd, pyast.Attribute) and rdd.attr == "rdd" and isinstance(rdd.value, pyast.Call)):
            return None
        read = rdd.value
        if not (isinstance(read.func, pyast.Attribute) and read.func.attr == "text" and len(read.args) == 1
                and not read.keywords):
            return None
        m = self.d.meta_of(read.func.value)
        if m is None or m.kind != "reader":
            return None
        fn = node.args[0]
        if isinstance(fn, pyast.Lambda) and len(fn.args.args) == 1 and not fn.args.defaults:
            p = fn.args.args[0].arg
            body = fn.body
            if isinstance(body, pyast.Subscript) and isinstance(body.value, pyast.Name) \
                    and body.value.id == p and isinstance(body.slice, pyast.Constant) \
                    and body.slice.value == 0:
                return read.args[0]
            if isinstance(body, pyast.Attribute) and isinstance(body.value, pyast.Name) \
                    and body.value.id == p and body.attr == "value":
                return read.args[0]
        return None

    def visit_Subscript(self, node: pyast.Subscript) -> pyast.AST:  # noqa: N802
        name = rdd_argv.script_name(self.d, node)
        if name is not None:  # sys.argv[0]: an excluded field
            return name
        index = self.d._argv_index(node)
        if index is not None:
            return _name(self.d.argument_source(index, node), node)
        return self.generic_visit(node)

    def visit_Name(self, node: pyast.Name) -> pyast.AST:  # noqa: N802
        if node.id in self.d.open_files and isinstance(node.ctx, pyast.Load):
            raise self.d.error("open", f"the file '{node.id}' opened with open() is used in a way script "
                               "mode does not understand here (read() and close() are modelled)", node)
        m = self.d.meta.get(node.id)
        if m is not None and isinstance(node.ctx, pyast.Load):
            what = {"session": "the Spark session", "context": "the SparkContext", "argv": "sys.argv",
                    "logger": "a logger", "reader": "spark.read"}.get(m.kind, f"'{node.id}'")
            raise self.d.error(f"use of {m.kind}", f"'{node.id}' ({what}) is used in a way script mode does "
                               "not understand here", node)
        if node.id in self.d.path_vars and isinstance(node.ctx, pyast.Load):
            bound = self.d.path_vars[node.id]
            if _str_const(bound) is not None:
                return _at(pyast.Constant(_str_const(bound)), node)
            argv = pyast.Attribute(pyast.Name("sys", pyast.Load()), "argv", pyast.Load())
            index = pyast.Constant(self.d._argv_index(bound))
            return self.visit(_at(pyast.Subscript(argv, index, pyast.Load()), node))
        if node.id in self.d.literal_vars and isinstance(node.ctx, pyast.Load):
            import copy

            return _at(copy.deepcopy(self.d.literal_vars[node.id]), node)
        if node.id == "__name__":
            return _at(pyast.Constant("__main__" if self.d.entry is None else _program_name(self.d.filename)),
                       node)
        return node

    def visit_Attribute(self, node: pyast.Attribute) -> pyast.AST:  # noqa: N802
        m = self.d.meta_of(node)
        if m is not None:
            raise self.d.error(f"use of {m.kind}", f"'{pyast.unparse(node)}' is used in a way script mode "
                               "does not understand here", node)
        return self.generic_visit(node)


def _min_partitions(d: Any, call: pyast.Call) -> int | None:
    """``sc.textFile(path, minPartitions)``'s positive constant ``minPartitions`` (positional or keyword),
    or None when not given; a name bound once in the whole script, to an int constant, is that constant
    (``HIGH_NUM_OF_PARTITIONS = 16``). It changes only how the file is cut into byte ranges
    (``verifier.core.script_inputs.text_file_partitions``); anything else is refused."""
    args = list(call.args)
    kws = {k.arg: k.value for k in call.keywords}
    if len(args) == 1 and set(kws) <= {"minPartitions"}:
        n = kws.get("minPartitions")
    elif len(args) == 2 and not kws:
        n = args[1]
    else:
        raise d.error("textFile arguments", "textFile is supported with a path and an optional constant "
                      "minPartitions only", call)
    if n is None:
        return None
    n = _bound_once(d, n)
    if not (isinstance(n, pyast.Constant) and type(n.value) is int and n.value >= 1):
        raise d.error("textFile minPartitions", "textFile's minPartitions must be a positive constant", n)
    return n.value


def _bound_once(d: Any, node: pyast.expr) -> pyast.expr:
    """The value of ``node`` when it is a name with exactly one binding in the script (no parameter,
    loop target or second assignment anywhere: ``d.stores``), a plain ``name = <constant>``; else
    ``node`` itself."""
    if not (isinstance(node, pyast.Name) and d.stores.get(node.id) == 1):
        return node
    for stmt in pyast.walk(d.tree):
        if isinstance(stmt, pyast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], pyast.Name) and stmt.targets[0].id == node.id \
                and isinstance(stmt.value, pyast.Constant):
            return stmt.value
    return node
