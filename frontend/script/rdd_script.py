"""Whole PySpark scripts (script mode): a job as users run it, turned into one SparkLite program.

Why: the jobs users want to compare are scripts -- a session built at the top, ``sys.argv`` checked,
``sc.textFile(sys.argv[1])``, a module-level pipeline, ``collect()`` and ``print`` at the end. Asking
them to cut the pipeline out into a function loses the very parts that decide what the job prints. So
script mode reads the whole module with ``ast`` (never importing or running it), interprets its driver
code *as Python would run it* with the command-line arguments given, and hands the pipeline to the
ordinary RDD frontend (``frontend.rdd.pipeline``/``udf``/``rdd``) as a synthetic pipeline function:

* every **source** becomes an input of the program: ``sc.textFile(p)`` (and Spark's own example idiom
  ``spark.read.text(p).rdd.map(lambda r: r[0])``) a ``Bag[str]`` parameter (one element per line, the
  parsing is part of the program), ``sys.argv[i]`` used as a value (``int(sys.argv[2])``) a ``Str``
  parameter, ``sc.parallelize(<literal>)`` a bag parameter whose value is fixed (``Source.values``;
  SparkLite has no bag literal, see ``Source``). Sources are named by their path expression
  (``sys.argv[1]``) so that two scripts can be matched (``align_sources``);
* every **sink** becomes one item of the program's result tuple, in the order the script produces it,
  modelled as the text it writes: ``print(a, b)`` is ``str(a) + " " + str(b)``, ``"%s: %i" % (w, c)`` is
  ``str(w) + ": " + str(int(c))``, a ``for`` loop printing the elements of a ``collect()`` is the bag of
  its lines, ``print(rdd.collect())`` the collected bag (one line, its elements compared as a bag),
  ``saveAsTextFile(p)`` the bag of ``str(x)`` lines of its part files, a final ``sys.exit(n)`` the code;
* the rest of the driver code is strict, as Python runs it: an action whose result is unused still runs
  (and may raise), logging and ``print(..., file=sys.stderr)`` evaluate their arguments but write no
  output, an argument check (``if len(sys.argv) != 2: ... sys.exit(-1)``) is decided with the arguments
  given (one per path the script reads or writes), ``if __name__ == "__main__": main()`` runs ``main``.

Anything else that could change what the script writes is a located ``InputError`` saying what is not
understood. The observation model (``Sink.observed``) is what ``verifier.script_replay`` uses to compare
the real runs.
"""

from __future__ import annotations

import ast as pyast
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from frontend.python.names import scan_module
from frontend.python.resolve import infer_program
from frontend.rdd.methods import RDD_METHODS
from frontend.rdd.pipeline import translate_pipeline
from frontend.rdd.translator import RddTranslator
from sparklite import ast as sl
from sparklite import effects
from sparklite.errors import InputError, UnsupportedError
from sparklite.typecheck import typecheck
from sparklite.types import TupleType

__all__ = [
    "ScriptProgram", "Source", "Sink", "is_script", "translate_script", "translate_script_file",
    "align_sources", "text_input_hints", "is_script_entry", "fixed_inputs", "input_files",
]

# --- the result ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    """One input of a script.

    ``kind``: ``"text"`` (``sc.textFile(p)``, ``spark.read.text(p).rdd.map(lambda r: r[0])``: a bag of
    lines, the program parameter is a ``Bag[str]``), ``"argument"`` (``sys.argv[i]`` used as a value:
    a ``Str`` parameter) or ``"literal"`` (``sc.parallelize(<literal>)``: the parameter stands for the
    literal ``values``; a proof for every bag covers it, but a counterexample must use ``values``).
    ``path`` is the path (or argument) expression as written (``sys.argv[1]``, ``'data/in.txt'``), what
    two scripts' sources are matched by; ``argv_index`` its position in ``sys.argv`` when it comes from
    there, ``literal_path`` the path when it is a string constant. ``slices`` is ``parallelize``'s
    ``numSlices`` when given. ``loc`` is where the script reads it (the first time)."""

    param: str
    kind: str
    reader: str
    path: str
    loc: sl.Loc
    argv_index: int | None = None
    literal_path: str | None = None
    values: tuple[Any, ...] | None = None
    slices: int | None = None


@dataclass(frozen=True)
class Sink:
    """One output of a script: item ``index`` of the program's result tuple.

    ``kind``: ``print_value`` (``print(...)`` of values), ``print_lines`` (a loop printing the elements
    of a collected result), ``print_collection`` (``print(rdd.collect())``, ``print(rdd.take(n))``,
    ``print(rdd.countByValue())``: one line, the repr of a list or dict), ``print_branch`` (an ``if`` on
    driver values whose branches print), ``save_text`` (``saveAsTextFile(p)``) or ``exit`` (a final
    ``sys.exit(code)``).

    ``observed`` says how the output is compared, and what the item's value is: ``"text"`` (a string,
    the exact text printed, every line with its newline; consecutive ``print_value``/``print_branch``
    sinks share one item, the text they print together), ``"bag_of_lines"`` (a bag of lines, in any
    order: a loop over an unsorted ``collect()``), ``"sorted_lines"`` (the lines of a sorted RDD, in order
    modulo ties), ``"lines_in_order"`` (a list of lines, in order: a loop over ``take``, ``sorted``...),
    ``"elements"`` (one printed line, the repr of a list or dict; the value is the collected bag, the
    list or the dict), ``"files"`` (the bag of the part files' lines) or ``"exit_code"`` (an int).
    ``stdout`` tells whether it writes to standard output. For ``save_text``,
    ``path``/``argv_index``/``literal_path`` name the directory written. ``text`` is the sink's source
    line, for reports."""

    index: int
    kind: str
    observed: str
    loc: sl.Loc
    text: str
    stdout: bool = True
    path: str | None = None
    argv_index: int | None = None
    literal_path: str | None = None


@dataclass(frozen=True)
class ScriptProgram:
    """A whole script as a SparkLite program (``program``: inputs are the sources' parameters, in
    ``sources`` order; the result is the tuple of the sinks' values, in ``sinks`` order).

    ``argv_length`` is ``len(sys.argv)`` as modelled (the script name plus one argument per
    ``sys.argv[i]`` the script uses, up to the highest ``i``); ``entry`` the function run after the
    module's top level, if one was named."""

    program: sl.Program
    sources: tuple[Source, ...]
    sinks: tuple[Sink, ...]
    argv_length: int
    filename: str
    entry: str | None = None

    def source(self, param: str) -> Source:
        for s in self.sources:
            if s.param == param:
                return s
        raise KeyError(param)


# --- driver meta-values: what a name means on the driver, beyond what the RDD frontend knows ----------


@dataclass(frozen=True)
class _Meta:
    kind: str  # module | class | builder | session | context | conf | argv | logger | stream | reader
    name: str = ""


_SESSION = _Meta("session")
_CONTEXT = _Meta("context")
_ARGV = _Meta("argv")
_LOGGER = _Meta("logger")

_PYSPARK_CLASSES = frozenset({"SparkSession", "SparkContext", "SparkConf"})
_LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "critical", "exception", "log"})
_BUILDER_METHODS = frozenset({"appName", "master", "config", "enableHiveSupport"})
_CONF_METHODS = frozenset({"setAppName", "setMaster", "set", "setAll", "setIfMissing"})
# configuration keys that do not change what an RDD job computes (memory, UI, logging, names; the SQL
# settings do not reach RDD code, but will matter once DataFrame scripts are read)
_HARMLESS_CONF_PREFIXES = ("spark.ui.", "spark.app.name", "spark.executor.memory", "spark.driver.memory",
                           "spark.executor.cores", "spark.driver.cores", "spark.eventLog.", "spark.logConf",
                           "spark.serializer", "spark.kryo", "spark.sql.", "spark.master",
                           "spark.driver.host", "spark.driver.bindAddress", "spark.local.dir",
                           "spark.python.worker.memory")
_OTHER_SOURCES = frozenset({"wholeTextFiles", "binaryFiles", "sequenceFile", "pickleFile", "objectFile",
                            "range", "emptyRDD", "hadoopFile", "newAPIHadoopFile", "hadoopRDD",
                            "newAPIHadoopRDD", "binaryRecords", "union", "broadcast", "accumulator",
                            "addFile", "addPyFile"})
_COLLECTING = frozenset({"collect", "take", "takeOrdered", "top", "countByValue", "countByKey",
                         "collectAsMap"})
_MAX_UNROLL = 20
_SINK_BASE = "sink"
_LOOP_BASE = "line"


def _loc(node: pyast.AST, filename: str) -> sl.Loc:
    return sl.Loc(filename, getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1)


def _at(new: pyast.AST, old: pyast.AST) -> Any:
    """``new`` placed at ``old``'s position (and every child without one), so that errors point there."""
    pyast.copy_location(new, old)
    for n in pyast.walk(new):
        if not hasattr(n, "lineno") and isinstance(n, (pyast.expr, pyast.stmt)):
            pyast.copy_location(n, old)
    return new


def _name(id_: str, old: pyast.AST, store: bool = False) -> pyast.Name:
    return _at(pyast.Name(id_, pyast.Store() if store else pyast.Load()), old)


def _call(func: str, args: list[pyast.expr], old: pyast.AST) -> pyast.Call:
    return _at(pyast.Call(_name(func, old), args, []), old)


def _str_const(node: pyast.AST) -> str | None:
    return node.value if isinstance(node, pyast.Constant) and isinstance(node.value, str) else None


def _is_main_test(test: pyast.expr) -> bool | None:
    """``__name__ == "__main__"`` (either order): None when ``test`` is something else."""
    if isinstance(test, pyast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (pyast.Eq,
                                                                                             pyast.NotEq)):
        a, b = test.left, test.comparators[0]
        if isinstance(a, pyast.Name) and a.id == "__name__" and _str_const(b) == "__main__" \
                or isinstance(b, pyast.Name) and b.id == "__name__" and _str_const(a) == "__main__":
            return isinstance(test.ops[0], pyast.Eq)
    return None


def _uses_spark_at_module_level(tree: pyast.Module) -> bool:
    spark_words = {"SparkSession", "SparkContext", "SparkConf", "textFile", "parallelize", "sparkContext",
                   "getOrCreate"} | set(RDD_METHODS)
    for stmt in tree.body:
        if isinstance(stmt, (pyast.FunctionDef, pyast.AsyncFunctionDef, pyast.ClassDef, pyast.Import,
                             pyast.ImportFrom)):
            continue
        if isinstance(stmt, pyast.If) and _is_main_test(stmt.test) is not None:
            return True
        for n in pyast.walk(stmt):
            if isinstance(n, pyast.Attribute) and n.attr in spark_words:
                return True
            if isinstance(n, pyast.Name) and n.id in ("SparkSession", "SparkContext"):
                return True
    return False


def is_script(source: str, filename: str = "<input>") -> bool:
    """Whether ``source`` is a whole script rather than a file of pipeline functions: it has an
    ``if __name__ == "__main__":`` block or Spark code at module level (a session, a source, an RDD
    method), or no top-level function uses RDD methods at all. A syntax error is not a script (the
    ordinary loader reports it)."""
    try:
        tree = pyast.parse(source, filename=filename)
    except (SyntaxError, ValueError):
        return False
    if _uses_spark_at_module_level(tree):
        return True
    info = scan_module(tree, filename, RDD_METHODS)
    top = {s.name for s in tree.body if isinstance(s, pyast.FunctionDef)}
    return not any(d.uses_rdd and name in top for name, d in info.defs.items())


def translate_script_file(path: str, entry: str | None = None) -> ScriptProgram:
    """Read ``path`` as text (never imported) and translate it like ``translate_script``."""
    try:
        with open(path, encoding="utf-8") as fh:
            source = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path}: {exc}", sl.Loc(path, 1, 1)) from None
    return translate_script(source, path, entry)


def translate_script(source: str, filename: str = "<input>", entry: str | None = None) -> ScriptProgram:
    """Translate the whole script ``source`` (or, with ``entry``, the module's top level followed by a
    call of the function ``entry``, as ``import script; script.entry()`` runs it) to a ``ScriptProgram``.
    Never imports or runs the script."""
    try:
        tree = pyast.parse(source, filename=filename)
    except SyntaxError as exc:
        raise InputError(f"Python syntax error: {exc.msg}", sl.Loc(filename, exc.lineno or 1,
                                                                    exc.offset or 1)) from None
    except ValueError as exc:
        raise InputError(f"cannot parse the Python source: {exc}", sl.Loc(filename, 1, 1)) from None
    driver = _Driver(tree, source, filename, entry)
    try:
        return driver.translate()
    except RecursionError:
        raise InputError("the script is nested too deeply to translate", sl.Loc(filename, 1, 1)) from None


def is_script_entry(source: str, filename: str, name: str) -> bool:
    """Whether ``file.py::name`` names a script's entry (``main``) rather than a pipeline function: a
    top-level function that takes no parameters (or only ones with defaults, or the argument list
    ``main(argv)`` the module passes ``sys.argv`` to) and whose body runs driver code (prints, exits,
    saves, builds a session, reads ``sys.argv``), directly or through the functions it calls."""
    try:
        tree = pyast.parse(source, filename=filename)
    except (SyntaxError, ValueError):
        return False
    driver = _Driver(tree, source, filename, name)
    fn = driver.defs.get(name)
    if fn is None or fn.args.vararg or fn.args.kwarg or fn.args.kwonlyargs:
        return False
    required = len(fn.args.args) - len(fn.args.defaults)
    if required > 1 or (required == 1 and fn.args.args[0].arg not in driver.argv_aliases):
        return False
    for stmt in tree.body:
        if isinstance(stmt, (pyast.Import, pyast.ImportFrom)):
            driver.note_import(stmt)
    return driver.drives(fn)


def fixed_inputs(sp: ScriptProgram) -> dict[str, list[Any]]:
    """The inputs whose value the script fixes (``sc.parallelize`` of a literal), by parameter: a proof
    may treat them as any bag, but a counterexample must give them these values."""
    return {s.param: list(s.values or ()) for s in sp.sources if s.kind == "literal"}


def input_files(sp: ScriptProgram, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """A counterexample as the script's user sees it: each text input's lines and each argument's value,
    by the path expression the script reads it from (``{"sys.argv[1]": ["a,b,1"]}``)."""
    return {s.path: (list(inputs[s.param]) if s.kind != "argument" else inputs[s.param])
            for s in sp.sources if s.kind in ("text", "argument") and s.param in inputs}


def align_sources(left: ScriptProgram, right: ScriptProgram) -> ScriptProgram:
    """``right`` with its inputs reordered to line up with ``left``'s (the verifier matches parameters by
    position): a source is matched by its path expression (``sys.argv[1]`` with ``sys.argv[1]``, the same
    literal path), the rest by their order of appearance. Different numbers or kinds of sources are an
    ``InputError`` located in ``right``."""
    if len(left.sources) != len(right.sources):
        loc = right.sources[0].loc if right.sources else sl.Loc(right.filename, 1, 1)
        raise InputError(f"the scripts read different numbers of inputs ({len(left.sources)} in "
                         f"{left.filename}, {len(right.sources)} in {right.filename})", loc)
    order: list[Source | None] = [None] * len(left.sources)
    rest = list(right.sources)
    for i, ls in enumerate(left.sources):
        for rs in rest:
            if rs.path == ls.path and rs.kind == ls.kind:
                order[i] = rs
                rest.remove(rs)
                break
    for i in range(len(order)):
        if order[i] is None:
            order[i] = rest.pop(0)
    for ls, rs in zip(left.sources, order, strict=True):
        assert rs is not None
        if rs.kind != ls.kind or (ls.kind == "literal" and ls.values != rs.values):
            raise InputError(f"input {rs.path} ({rs.kind}) of {right.filename} cannot be matched with "
                             f"input {ls.path} ({ls.kind}) of {left.filename}", rs.loc)
    sources = tuple(o for o in order if o is not None)
    by_name = {p.name: p for p in right.program.params}
    params = tuple(by_name[s.param] for s in sources)
    return replace(right, program=replace(right.program, params=params), sources=sources)


# --- the driver ------------------------------------------------------------------------------------


@dataclass
class _Loop:
    """What a name bound to a collected result (``output = counts.collect()``) stands for."""

    kind: str  # "bag" (collect of an RDD: the alias names the RDD) | "list" (take, sorted, ...) | "dict"
    alias: str | None  # the synthetic name bound to the collected RDD (kind "bag"), or counted ("dict")
    method: str | None = None  # the action that made a dict (countByValue, countByKey, collectAsMap)


@dataclass
class _Driver:
    """One script's translation: the driver code interpreted statement by statement into the body of a
    synthetic pipeline function (``body``), the sources and sinks found on the way."""

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

    def __post_init__(self) -> None:
        self.lines = self.text.splitlines()
        self.taken = {n.id for n in pyast.walk(self.tree) if isinstance(n, pyast.Name)}
        self.taken |= {a.arg for a in pyast.walk(self.tree) if isinstance(a, pyast.arg)}
        self.taken |= {d.name for d in pyast.walk(self.tree) if isinstance(d, (pyast.FunctionDef,
                                                                                pyast.ClassDef))}
        self.defs = {s.name: s for s in self.tree.body if isinstance(s, pyast.FunctionDef)}
        self.stores: dict[str, int] = {}
        for n in pyast.walk(self.tree):
            if isinstance(n, pyast.Name) and isinstance(n.ctx, pyast.Store):
                self.stores[n.id] = self.stores.get(n.id, 0) + 1
            elif isinstance(n, pyast.arg):
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
        """A configuration setting is accepted when it cannot change what an RDD job computes."""
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
        construct = {pyast.While: "while loop", pyast.Try: "try", pyast.With: "with", pyast.Raise: "raise",
                     pyast.Global: "global", pyast.Nonlocal: "nonlocal", pyast.Assert: "assert",
                     pyast.Delete: "del", pyast.ClassDef: "class definition",
                     pyast.AsyncFunctionDef: "async def", pyast.Match: "match"}.get(type(stmt),
                                                                                      type(stmt).__name__)
        raise self.error(construct, f"'{construct}' in the script's driver code is not supported "
                         "(script mode reads straight-line driver code, argument checks, if on driver values "
                         "and for loops over collected results)", stmt)

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
            if isinstance(f, pyast.Name) and f.id in self.defs and self.drives(self.defs[f.id]):
                self.inline_call(self.defs[f.id], value.args, value)
                return
            if isinstance(f, pyast.Attribute):
                if f.attr == "saveAsTextFile":
                    self.save_statement(value, stmt)
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
        if base.kind in ("session", "context") and f.attr == "stop":
            return
        if base.kind == "context" and f.attr in ("setLogLevel", "setJobDescription", "setJobGroup",
                                                 "setLocalProperty"):
            self.evaluate_args(call)
            return
        if base.kind == "runtime_conf" and f.attr == "set":
            self.check_config(call, "set")
            return
        if base.kind == "logger" or (base.kind == "module" and base.name == "logging"):
            if f.attr in _LOG_METHODS or f.attr in ("basicConfig", "setLevel", "addHandler",
                                                    "disable", "captureWarnings"):
                self.evaluate_args(call)
                return
        if base.kind == "stream" and base.name == "stderr" and f.attr in ("write", "flush"):
            self.evaluate_args(call)
            return
        if base.kind == "context" and f.attr in _OTHER_SOURCES:
            raise self.error(f"sc.{f.attr}", f"'{f.attr}' is not understood in script mode: its effect is "
                             "not modelled", f)
        what = {"session": "the Spark session", "context": "the SparkContext", "argv": "sys.argv",
                "stream": f"sys.{base.name}", "logger": "the logger"}.get(base.kind, base.name or base.kind)
        raise self.error(f"{base.kind}.{f.attr}", f"'{f.attr}' on {what} is not understood in script mode "
                         "(it may change the script's outputs)", f)

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
        for p, a in zip(params, given, strict=True):
            m = self.meta_of(a)
            self.meta.pop(p, None)
            self.collected.pop(p, None)
            self.path_vars.pop(p, None)
            if m is not None:
                self.meta[p] = m
                continue
            resolved = self.resolve_name(a)
            if self.stores.get(p) == 1 and (self._argv_index(resolved) is not None
                                            or _str_const(resolved) is not None):
                self.path_vars[p] = resolved
                continue
            self.emit(_at(pyast.Assign([_name(p, a, store=True)], self.rewrite(a)), a))
        self.inlining.append(fn.name)
        try:
            self.block(fn.body)
        finally:
            self.inlining.pop()

    # -- print ---------------------------------------------------------------------------------------

    def print_args(self, call: pyast.Call) -> tuple[list[pyast.expr], str, str | None]:
        """The printed arguments, the separator, and the stream (None: stdout)."""
        sep, stream = " ", None
        for kw in call.keywords:
            if kw.arg == "sep":
                s = _str_const(kw.value) if not (isinstance(kw.value, pyast.Constant)
                                                 and kw.value.value is None) else " "
                if s is None:
                    raise self.error("print sep", "print's sep must be a string constant", kw.value)
                sep = s
            elif kw.arg == "end":
                e = _str_const(kw.value)
                if e != "\n" and not (isinstance(kw.value, pyast.Constant) and kw.value.value is None):
                    raise self.error("print end", "print with end= other than a newline is not supported "
                                     "(lines would run together)", kw.value)
            elif kw.arg == "file":
                m = self.meta_of(kw.value)
                if m is None or m.kind != "stream":
                    raise self.error("print file", "print to a file other than sys.stdout or sys.stderr is "
                                     "not supported", kw.value)
                stream = None if m.name == "stdout" else m.name
            elif kw.arg == "flush":
                continue
            else:
                raise self.error("print keyword", f"print's {kw.arg or '**'}= is not supported", kw.value)
        for a in call.args:
            if isinstance(a, pyast.Starred):
                raise self.error("print(*args)", "print(*args) is not supported", a)
        return list(call.args), sep, stream

    def print_statement(self, call: pyast.Call, stmt: pyast.stmt) -> None:
        args, sep, stream = self.print_args(call)
        if stream is not None:  # stderr: logging, no output; the arguments are still evaluated
            self.evaluate_args(pyast.Call(call.func, args, []))
            return
        if len(args) == 1:
            collection = self.collection(args[0])
            if collection is not None:
                self.print_collection(args[0], collection, stmt)
                return
        text = self.newline(self.line_expr(args, sep, call), call)
        name = self.fresh(_SINK_BASE)
        self.emit(_at(pyast.Assign([_name(name, stmt, store=True)], text), stmt))
        self.add_sink("print_value", "text", stmt, name)

    @staticmethod
    def newline(line: pyast.expr, at: pyast.AST) -> pyast.expr:
        """What ``print`` writes: the line and its newline (stdout is compared as text, so a print of an
        empty string and no print at all differ)."""
        return _at(pyast.BinOp(line, pyast.Add(), _at(pyast.Constant("\n"), at)), at)

    def line_expr(self, args: list[pyast.expr], sep: str, call: pyast.AST) -> pyast.expr:
        """The text ``print(*args, sep=sep)`` writes (without the newline), as a Python expression the
        RDD frontend translates: ``str(a) + sep + str(b)``."""
        parts: list[pyast.expr] = []
        for a in args:
            if self.collection(a) is not None:
                raise self.error("printing a list with other values", "a collected list or dict can only be "
                                 "printed on its own (print(rdd.collect()))", a)
            parts.append(self.text_of(self.rewrite(a)))
        if not parts:
            return _at(pyast.Constant(""), call)
        out = parts[0]
        for p in parts[1:]:
            if sep:
                out = _at(pyast.BinOp(out, pyast.Add(), _at(pyast.Constant(sep), call)), call)
            out = _at(pyast.BinOp(out, pyast.Add(), p), call)
        return out

    def text_of(self, node: pyast.expr) -> pyast.expr:
        """``str(node)`` as Python's print writes it, with %-formatting and ``str.format`` read as
        string concatenation (only ``%s``, ``%d``, ``%i`` and plain ``{}`` fields: a width or precision
        is not modelled)."""
        if isinstance(node, pyast.JoinedStr) or _str_const(node) is not None:
            return node
        if isinstance(node, pyast.BinOp) and isinstance(node.op, pyast.Mod) \
                and _str_const(node.left) is not None:
            return self.percent_format(node)
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute) \
                and node.func.attr == "format" and _str_const(node.func.value) is not None:
            return self.str_format(node)
        return _at(pyast.Call(_name("str", node), [node], []), node)

    def percent_format(self, node: pyast.BinOp) -> pyast.expr:
        fmt = _str_const(node.left)
        assert fmt is not None
        pieces: list[tuple[str, str]] = []  # ("lit", text) | ("s"/"d", "")
        i, lit = 0, ""
        while i < len(fmt):
            ch = fmt[i]
            if ch != "%":
                lit += ch
                i += 1
                continue
            spec = fmt[i + 1:i + 2]
            if spec == "%":
                lit += "%"
                i += 2
                continue
            if spec not in ("s", "d", "i"):
                raise self.error("%-format", f"the format '%{fmt[i + 1:i + 4]}...' is not supported: only "
                                 "%s, %d and %i without width or precision are modelled", node.left)
            pieces.append(("lit", lit))
            lit = ""
            pieces.append(("d" if spec in ("d", "i") else "s", ""))
            i += 2
        pieces.append(("lit", lit))
        fields = [p for p in pieces if p[0] != "lit"]
        right = node.right
        if isinstance(right, pyast.Tuple):
            values = list(right.elts)
            if any(isinstance(v, pyast.Starred) for v in values):
                raise self.error("%-format", "starred %-format arguments are not supported", right)
        elif isinstance(right, pyast.Dict):
            raise self.error("%-format", "%-formatting with a mapping is not supported", right)
        elif len(fields) > 1:  # "%s: %d" % pair: the tuple's items, read one by one
            if not isinstance(right, pyast.Name):
                raise self.error("%-format", "with several fields, the values must be a tuple display or a "
                                 "name bound to a tuple", right)
            values = [_at(pyast.Subscript(right, _at(pyast.Constant(i), right), pyast.Load()), right)
                      for i in range(len(fields))]
            self.tuple_formats.append((self.loc(node), len(fields)))
        else:
            values = [right]
            if fields and fields[0][0] == "s":
                self.single_format.append(self.loc(node))  # Python would unpack a tuple here
        if len(values) != len(fields):
            raise self.error("%-format", f"the format has {len(fields)} field(s) but {len(values)} value(s) "
                             "are given (Python raises TypeError)", right)
        out: list[pyast.expr] = []
        it = iter(values)
        for kind, text in pieces:
            if kind == "lit":
                if text:
                    out.append(_at(pyast.Constant(text), node))
                continue
            v = next(it)
            if kind == "d":  # '%d' % x: x must be a number (a float is truncated), as int(+x)
                v = _at(pyast.Call(_name("int", v), [_at(pyast.UnaryOp(pyast.UAdd(), v), v)], []), v)
            call = pyast.Call(_name("str", node), [v], [])
            out.append(_at(call, node))
        return self.concat(out, node)

    def str_format(self, node: pyast.Call) -> pyast.expr:
        assert isinstance(node.func, pyast.Attribute)
        fmt = _str_const(node.func.value)
        assert fmt is not None
        import string

        try:
            parsed = list(string.Formatter().parse(fmt))
        except ValueError as exc:
            raise self.error("str.format", f"bad format string: {exc}", node.func.value) from None
        if any(isinstance(a, pyast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            raise self.error("str.format", "str.format with *args or **kwargs is not supported", node)
        keywords = {k.arg: k.value for k in node.keywords}
        auto = 0
        out: list[pyast.expr] = []
        for literal, field_name, spec, conversion in parsed:
            if literal:
                out.append(_at(pyast.Constant(literal), node))
            if field_name is None:
                continue
            if spec or conversion:
                raise self.error("str.format spec", "format fields with a spec or a conversion ({:.2f}, "
                                 "{!r}) are not supported; only plain {} fields are", node.func.value)
            if field_name == "":
                index: int | str = auto
                auto += 1
            elif field_name.isdigit():
                index = int(field_name)
            elif field_name.isidentifier():
                index = field_name
            else:
                raise self.error("str.format field", f"the format field {{{field_name}}} is not supported",
                                 node.func.value)
            if isinstance(index, int):
                if index >= len(node.args):
                    raise self.error("str.format", "the format has more fields than arguments", node)
                value = node.args[index]
            else:
                if index not in keywords:
                    raise self.error("str.format", f"no argument for the field {{{index}}}", node)
                value = keywords[index]
            out.append(_at(pyast.Call(_name("str", node), [value], []), node))
        return self.concat(out, node)

    @staticmethod
    def concat(parts: list[pyast.expr], node: pyast.AST) -> pyast.expr:
        if not parts:
            return _at(pyast.Constant(""), node)
        out = parts[0]
        if len(parts) == 1 and _str_const(out) is None:
            return out
        for p in parts[1:]:
            out = _at(pyast.BinOp(out, pyast.Add(), p), node)
        return out

    def collection(self, node: pyast.expr) -> tuple[str, pyast.expr] | None:
        """A collected list or dict (``rdd.collect()``, a name bound to one, ``rdd.take(n)``,
        ``sorted(rdd.collect())``, ``rdd.countByValue()``): (kind, the expression) or None."""
        if isinstance(node, pyast.Name) and node.id in self.collected:
            return self.collected[node.id].kind, node
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute) \
                and node.func.attr in _COLLECTING and self.meta_of(node.func.value) is None:
            if node.func.attr == "collect":
                return "bag", node
            if node.func.attr in ("countByValue", "countByKey", "collectAsMap"):
                return "dict", node
            return "list", node
        if self.dict_view(node) is not None:
            return "bag", node
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) and node.func.id in (
                "sorted", "list") and len(node.args) == 1 and self.collection(node.args[0]) is not None:
            if node.func.id == "list" and self.collection(node.args[0])[0] == "bag":  # type: ignore[index]
                return "bag", node
            return "list", node
        return None

    def dict_view(self, node: pyast.expr) -> tuple[pyast.expr, str] | None:
        """``d.items()``, ``d.keys()``, ``d.values()`` of a counted dict (``d = rdd.countByValue()``, or the
        call itself): (the dict expression, the view)."""
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute) and not node.args \
                and not node.keywords and node.func.attr in ("items", "keys", "values"):
            d = node.func.value
            if self.dict_origin(d) is not None:
                return d, node.func.attr
        return None

    def dict_origin(self, d: pyast.expr) -> tuple[str, pyast.expr | str] | None:
        """(method, RDD expression or alias name) of a counted dict expression, or None."""
        if isinstance(d, pyast.Name) and d.id in self.collected and self.collected[d.id].kind == "dict":
            loop = self.collected[d.id]
            return loop.method or "", loop.alias or ""
        if isinstance(d, pyast.Call) and isinstance(d.func, pyast.Attribute) and not d.args \
                and d.func.attr in ("countByValue", "countByKey", "collectAsMap") \
                and self.meta_of(d.func.value) is None:
            return d.func.attr, d.func.value
        return None

    def dict_bag(self, d: pyast.expr, view: str) -> pyast.expr:
        """The bag of a counted dict's items (keys, values): the pairs ``reduceByKey(add)`` of ``(x, 1)``
        gives, each key once, in an order Spark chooses (so a loop's lines over them are a bag)."""
        origin = self.dict_origin(d)
        assert origin is not None
        method, rdd = origin
        if method == "collectAsMap" or not method:
            raise self.error("loop over collectAsMap", "a loop over a collectAsMap() dict is not supported "
                             "(a repeated key keeps its last value in partition order): loop over collect()",
                             d)
        if not isinstance(rdd, str):  # the dict is computed here, in the loop's header: the job runs now
            alias = self.fresh("counted")
            self.emit(_at(pyast.Assign([_name(alias, d, store=True)], self.rewrite(rdd)), d))
            job = self.fresh("job")
            call = _at(pyast.Call(_at(pyast.Attribute(_name(alias, d), method, pyast.Load()), d), [], []), d)
            self.emit(_at(pyast.Assign([_name(job, d, store=True)], call), d))
            rdd = alias
        key = ".map(lambda x: x[0])" if method == "countByKey" else ""
        text = f"{rdd}{key}.map(lambda x: (x, 1)).reduceByKey(lambda a, b: a + b)"
        if view != "items":
            text += f".{view}()"
        return _at(pyast.parse(text, mode="eval").body, d)

    def print_collection(self, arg: pyast.expr, collection: tuple[str, pyast.expr], stmt: pyast.stmt) -> None:
        """``print(rdd.collect())``: one line, the repr of the list in partition order, compared as the bag of
        its elements (the program's value is the RDD itself, after the job has run where Python runs it)."""
        kind, node = collection
        name = self.fresh(_SINK_BASE)
        if kind == "bag":
            rdd = self.bag_of(node)
            self.emit(_at(pyast.Assign([_name(name, stmt, store=True)], rdd), stmt))
        else:
            self.emit(_at(pyast.Assign([_name(name, stmt, store=True)], self.rewrite(node)), stmt))
        self.add_sink("print_collection", "elements", stmt, name)

    def bag_of(self, node: pyast.expr) -> pyast.expr:
        """For a collected bag (``rdd.collect()`` or a name bound to one): run the job here (a strict
        ``collect``, as Python runs it) and return the RDD expression whose bag is observed."""
        view = self.dict_view(node)
        if view is not None:
            return self.dict_bag(*view)
        if isinstance(node, pyast.Name):
            loop = self.collected[node.id]
            assert loop.alias is not None
            return _name(loop.alias, node)
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name):  # list(rdd.collect())
            return self.bag_of(node.args[0])
        assert isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute)
        alias = self.fresh("collected")
        self.emit(_at(pyast.Assign([_name(alias, node, store=True)], self.rewrite(node.func.value)), node))
        seen = self.fresh("job")
        self.jobs.append(seen)
        job = _at(pyast.Call(_at(pyast.Attribute(_name(alias, node), "collect", pyast.Load()), node), [], []),
                  node)
        self.emit(_at(pyast.Assign([_name(seen, node, store=True)], job), node))
        return _name(alias, node)

    def format_job(self, bag: str, at: pyast.AST) -> None:
        """The lines of a bag sink are formatted where Python formats them (the loop, the save): a strict
        ``collect`` of the formatted RDD there. Dropped once types are known when the formatting cannot
        raise except through ``str`` of an int (see ``drop_format_jobs``)."""
        job = self.fresh("formatted")
        call = _at(pyast.Call(_at(pyast.Attribute(_name(bag, at), "collect", pyast.Load()), at), [], []), at)
        self.emit(_at(pyast.Assign([_name(job, at, store=True)], call), at))
        self.format_jobs.append(job)

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
        if value is not None and isinstance(target, pyast.Name) and self.stores.get(target.id) == 1 \
                and (self._argv_index(value) is not None or _str_const(value) is not None):
            self.path_vars[target.id] = value  # substituted where it is used (a path, or a value)
            return
        if value is not None and isinstance(target, pyast.Name):
            if isinstance(value, pyast.Call) and isinstance(value.func, pyast.Name) \
                    and value.func.id in self.defs and self.drives(self.defs[value.func.id]):
                raise self.error("driver function result", f"'{value.func.id}' runs driver code (it prints, "
                                 "reads or saves); only calls of it as a statement are supported", value)
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

    def literal_iteration(self, node: pyast.expr) -> list[Any] | None:
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) and node.func.id == "range" \
                and not node.keywords and 1 <= len(node.args) <= 3 \
                and all(isinstance(a, pyast.Constant) and type(a.value) is int
                        or isinstance(a, pyast.UnaryOp) and isinstance(a.operand, pyast.Constant)
                        and type(a.operand.value) is int for a in node.args):
            args = [pyast.literal_eval(a) for a in node.args]
            try:
                return list(range(*args))
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
            empty = _at(pyast.List([], pyast.Load()), stmt)
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
        for s in stmts:
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

    def text_source(self, path_node: pyast.expr, reader: str, at: pyast.AST, preferred: str | None) -> str:
        path, argv_index, literal = self.path_of(path_node)

        def make() -> Source:
            return Source(self.param_name(preferred, "lines"), "text", reader, path, self.loc(at), argv_index,
                          literal)
        return self.source_param(f"text:{path}", make)

    def literal_source(self, call: pyast.Call, preferred: str | None) -> str:
        if not call.args or len(call.args) > 2 or call.keywords:
            raise self.error("parallelize arguments", "parallelize is supported with a literal list and an "
                             "optional constant number of slices", call)
        values = self.literal_iteration(call.args[0])
        if values is None:
            try:
                values = list(pyast.literal_eval(call.args[0]))
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
        text = pyast.unparse(call.args[0])
        key = f"literal:{text}:{slices}:{self.loc(call)}"

        def make() -> Source:
            return Source(self.param_name(preferred, "data"), "literal", "sc.parallelize", text,
                          self.loc(call), values=tuple(values), slices=slices)
        return self.source_param(key, make)

    def argument_source(self, index: int, node: pyast.AST) -> str:
        def make() -> Source:
            return Source(self.fresh(f"arg{index}"), "argument", "sys.argv", f"sys.argv[{index}]",
                          self.loc(node), argv_index=index)
        return self.source_param(f"argument:{index}", make)

    # -- output ----------------------------------------------------------------------------------

    def emit(self, stmt: pyast.stmt) -> None:
        self.body.append(stmt)

    def finish(self, module_keep: list[pyast.stmt]) -> ScriptProgram:
        self.check_argv_uses()
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
        return ScriptProgram(program, tuple(self.sources), sinks, self.argv_length, self.filename, self.entry)

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
        """``sys.argv[i]`` is either a path (the replay chooses the file) or a value (an input string):
        both at once would tie the file's name to the output."""
        paths = {s.argv_index for s in self.sources if s.kind == "text"}
        paths |= {k.argv_index for k, _ in self.sinks if k.kind == "save_text"}
        for s in self.sources:
            if s.kind == "argument" and s.argv_index in paths:
                raise self.error("path used as a value", f"{s.path} is read as a path and also used as a "
                                 "value (printed or computed with): the output would depend on the file's "
                                 "name",
                                 s.loc)

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
        if s.kind == "argument":
            return "str"
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


class _Rewriter(pyast.NodeTransformer):
    """Sources to parameters, ``len(sys.argv)`` to its value, ``sys.argv[i]`` to an argument parameter; any
    other driver object (the session, the context, a module) left in program code is an error."""

    def __init__(self, driver: _Driver, root: pyast.AST | None = None, preferred: str | None = None) -> None:
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
                    if len(node.args) != 1 or node.keywords:
                        raise d.error("textFile arguments", "textFile is supported with a path only "
                                      "(minPartitions changes the partitioning and is not modelled)", node)
                    return _name(d.text_source(node.args[0], "sc.textFile", node, preferred), node)
                if f.attr == "parallelize":
                    return _name(d.literal_source(node, preferred), node)
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
        if isinstance(f, pyast.Name) and f.id == "sorted" and len(node.args) == 1 and not node.keywords:
            view = d.dict_view(node.args[0])
            if view is not None:  # sorted(counts.items()): the sorted list of the dict's items
                bag = d.dict_bag(*view)
                collected = _at(pyast.Call(_at(pyast.Attribute(bag, "collect", pyast.Load()), node), [], []),
                                node)
                return _at(pyast.Call(f, [collected], []), node)
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
        index = self.d._argv_index(node)
        if index is not None:
            return _name(self.d.argument_source(index, node), node)
        return self.generic_visit(node)

    def visit_Name(self, node: pyast.Name) -> pyast.AST:  # noqa: N802
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


class _Unknown:
    pass


_UNKNOWN = _Unknown()


def _type_or_none(types: Any, node: sl.Expr) -> Any:
    try:
        return types.type_of_node(node)
    except KeyError:
        return None


def _constant_like(node: pyast.expr) -> bool:
    """A module-level value the RDD frontend reads as a constant (no names but other constants is not
    checked here: the module scan decides)."""
    if isinstance(node, pyast.Constant):
        return True
    if isinstance(node, (pyast.Tuple, pyast.List, pyast.Set)):
        return all(_constant_like(e) for e in node.elts)
    if isinstance(node, pyast.UnaryOp):
        return _constant_like(node.operand)
    if isinstance(node, pyast.BinOp):
        return _constant_like(node.left) and _constant_like(node.right)
    return False


def _literal_type(values: tuple[Any, ...]) -> str | None:
    types = {_value_type(v) for v in values}
    if len(types) != 1:
        return None if types else "int"
    t = types.pop()
    return t


def _value_type(v: Any) -> str | None:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "str"
    if isinstance(v, tuple) and v:
        items = [_value_type(x) for x in v]
        if any(i is None for i in items):
            return None
        return f"tuple[{', '.join(items)}]"  # type: ignore[arg-type]
    return None


def _program_name(filename: str) -> str:
    import os

    base = os.path.splitext(os.path.basename(filename or "script"))[0]
    name = "".join(c if c.isalnum() or c == "_" else "_" for c in base) or "script"
    return name if name[0].isalpha() else f"script_{name}"


def text_input_hints(sp: ScriptProgram, limit: int = 48) -> tuple[str, ...]:
    """Candidate lines for the text inputs of ``sp``, shaped by how the program parses them: fields
    joined by the separators it splits on (``line.split(",")``), as many as the indices it reads, holding
    small ints where it calls ``int()``, and the string constants it compares with (``startswith("ERROR")``).

    Why: a counterexample of a script is a small text file, and random strings almost never have three
    comma-separated fields ending in a number; a search that mixes these lines into its random bags finds
    a wrong parse index at once. Deterministic, at most ``limit`` lines, none holding a line break."""
    program = sp.program
    seps: list[str] = []
    consts: list[str] = []
    max_index = 0
    parses_numbers = False
    for n in sl.walk(program):
        if isinstance(n, sl.Call) and n.func == "str.split":
            sep = n.args[1].value if len(n.args) > 1 and isinstance(n.args[1], sl.StrLit) else " "
            if sep and sep not in seps:
                seps.append(sep)
        elif isinstance(n, sl.Call) and n.func == "py.getitem" and isinstance(n.args[1], sl.IntLit):
            max_index = max(max_index, n.args[1].value if n.args[1].value >= 0 else -n.args[1].value - 1)
        elif isinstance(n, sl.Call) and n.func == "py.unpack" and isinstance(n.args[1], sl.IntLit):
            max_index = max(max_index, n.args[1].value - 1)
        elif isinstance(n, sl.Call) and n.func in ("int", "float"):
            parses_numbers = True
        if isinstance(n, sl.Call) and n.func in ("str.startswith", "str.endswith") \
                or isinstance(n, sl.BinOp) and n.op in ("==", "!=", "in"):
            for c in (n.args if isinstance(n, sl.Call) else (n.left, n.right)):
                if isinstance(c, sl.StrLit) and c.value and len(c.value) <= 24 and "\n" not in c.value \
                        and "\r" not in c.value and c.value not in consts:
                    consts.append(c.value)
    for d in program.defs:
        for n in sl.walk(d):
            if isinstance(n, sl.Call) and n.func == "str.split" and len(n.args) > 1 \
                    and isinstance(n.args[1], sl.StrLit) and n.args[1].value and n.args[1].value not in seps:
                seps.append(n.args[1].value)
    consts = [c for c in consts if c not in seps]
    seps = seps or [" "]
    words = ["a", "b", *consts[:6]]
    numbers = ["1", "2", "-3", "0"] if parses_numbers else ["1", "2"]
    out: list[str] = [""]
    for sep in seps:
        for width in sorted({max_index + 1, max_index + 2, 1}):
            rows = [
                [words[i % 2] for i in range(width)],
                [words[(i + 1) % 2] for i in range(width)],
                [words[0]] * width,
                [words[i % 2] if i < width - 1 else numbers[0] for i in range(width)],
                [words[(i + 1) % 2] if i < width - 1 else numbers[1] for i in range(width)],
                [numbers[i % len(numbers)] for i in range(width)],
            ]
            for c in consts[:6]:
                rows.append([c] + [words[i % 2] if i < width - 2 else numbers[0] for i in range(width - 1)])
            for row in rows:
                line = sep.join(row)
                if line not in out:
                    out.append(line)
    for c in consts[:6]:
        if c not in out:
            out.append(c)
    return tuple(line for line in out if "\n" not in line and "\r" not in line)[:limit]
