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
understood. The observation model (``Sink.observed``) is what ``verifier.runtime.script_replay`` uses to
compare the real runs.

The driver's parts are in ``rdd_driver`` (and its mixins ``rdd_printing``, ``rdd_statements``), the
result in ``rdd_program``; this module holds the entry points.
"""

from __future__ import annotations

import ast as pyast
from dataclasses import replace

from frontend.python.names import scan_module
from frontend.rdd.methods import RDD_METHODS
from frontend.script.rdd_driver import _Driver
from frontend.script.rdd_meta import _uses_spark_at_module_level
from frontend.script.rdd_program import ScriptProgram, Source
from sparklite import ast as sl
from sparklite.errors import InputError

__all__ = ["is_script", "translate_script", "translate_script_file", "align_sources", "is_script_entry"]


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
