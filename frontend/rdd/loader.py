"""Entry points: read a Python file with ``ast`` (never import or execute it), pick the pipeline
function, translate it, and type it.

Without an explicit function name the pipeline is the one top-level ``def`` whose body uses RDD
methods and that no other such ``def`` calls (so RDD helper functions do not make the choice
ambiguous).
"""

from __future__ import annotations

import ast as pyast

from frontend.python.names import scan_module
from frontend.python.resolve import infer_program
from frontend.rdd.methods import RDD_METHODS
from frontend.rdd.pipeline import translate_pipeline
from frontend.rdd.translator import RddTranslator
from sparklite import ast as sl
from sparklite.errors import InputError, NameResolutionError


def translate_source(
    source: str, function: str | None = None, filename: str = "<input>", *, names_fail_late: bool = False
) -> sl.Program:
    """Translate the PySpark pipeline ``function`` (or the file's single pipeline) to SparkLite.
    ``names_fail_late``: a name bound nowhere raises ``NameError`` when evaluated, as in scripts."""
    try:
        tree = pyast.parse(source, filename=filename)
    except SyntaxError as exc:
        loc = sl.Loc(filename, exc.lineno or 1, exc.offset or 1)
        raise InputError(f"Python syntax error: {exc.msg}", loc) from None
    except ValueError as exc:  # e.g. null bytes
        raise InputError(f"cannot parse the Python source: {exc}", sl.Loc(filename, 1, 1)) from None
    info = scan_module(tree, filename, RDD_METHODS)
    fn = _pick_function(tree, info, function, filename)
    tr = RddTranslator(info, source.splitlines())
    tr.names_fail_late = names_fail_late
    try:
        program = translate_pipeline(tr, fn)
        return infer_program(program)
    except RecursionError:
        raise InputError("the program is nested too deeply to translate", tr.loc(fn)) from None


def translate_file(path: str, function: str | None = None) -> sl.Program:
    """Read ``path`` as text (it is not imported) and translate it like ``translate_source``."""
    try:
        with open(path, encoding="utf-8") as fh:
            source = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path}: {exc}", sl.Loc(path, 1, 1)) from None
    return translate_source(source, function, filename=path)


def _pick_function(tree: pyast.Module, info, function: str | None, filename: str) -> pyast.FunctionDef:
    top = {s.name: s for s in tree.body if isinstance(s, pyast.FunctionDef)}
    if function is not None:
        if function not in top:
            raise NameResolutionError(f"no top-level function named '{function}' in {filename}",
                                      sl.Loc(filename, 1, 1))
        return top[function]
    candidates = [name for name, d in info.defs.items() if d.uses_rdd and name in top]
    called: set[str] = set()
    for name in candidates:
        for node in pyast.walk(top[name]):
            if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) and node.func.id != name:
                called.add(node.func.id)
    roots = [c for c in candidates if c not in called]
    if len(roots) == 1:
        return top[roots[0]]
    if not roots and len(top) == 1:
        return next(iter(top.values()))
    if not roots:
        raise InputError(f"no pipeline function found in {filename}: no top-level function uses RDD methods",
                         sl.Loc(filename, 1, 1))
    second = top[roots[1]]
    raise InputError(f"several pipeline functions in {filename} ({', '.join(roots)}): name one with "
                     "file.py::function", sl.Loc(filename, second.lineno, second.col_offset + 1))
