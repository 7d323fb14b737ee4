"""Build a runnable namespace for one pipeline function without running the rest of the user's file.

Replay must execute the user's *original* PySpark code on Spark, but a user's file may do anything at
top level (start its own SparkContext, read a cluster path, write files, ``raise SystemExit``). So we
never ``exec`` the file: we parse it with ``ast``, keep the pipeline's ``def`` and the top-level
statements that bind the names it needs (transitively: helper functions, lambdas, constants, imports),
and execute only those, in source order, in a fresh module.

Which names a statement needs is computed with ``symtable`` (the compiler's own scoping rules), so a
local variable that happens to share a global's name does not drag that global's statement in.

Two exceptions to "run what it needs": a top-level assignment whose value builds a ``SparkContext`` or
``SparkSession`` is not executed (the name is bound to sparkeq's own context instead), and annotations
are never evaluated (the file is compiled with ``from __future__ import annotations``), so
``RDD[int]``-style annotations need neither an import nor a runtime meaning.

The module is registered in ``sys.modules`` and with cloudpickle's pickle-by-value registry so that
Spark ships its functions to the workers *by value*: the workers cannot import a module that exists
only in the driver's memory.
"""

from __future__ import annotations

import ast
import builtins
import copy
import itertools
import symtable
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

_counter = itertools.count()
# ``from __future__ import annotations`` above binds the feature object itself: its flag makes compile()
# treat annotations as strings, so the user's annotations are never evaluated.
_ANNOTATIONS_FLAG = annotations.compiler_flag


class ExtractionError(Exception):
    """The pipeline function cannot be isolated from its file (missing, or bound only inside code
    that would have to run in full, such as an ``if``/``try`` block)."""


@dataclass(frozen=True)
class Extracted:
    """The statements selected to run: ``module`` holds the ``ast.Module`` to execute, ``names`` the
    top-level names it binds, ``spark_names`` those bound to sparkeq's Spark objects instead."""

    module: ast.Module
    function: str
    names: frozenset[str]
    spark_names: dict[str, str]  # name -> "sc" | "spark"


def _bound_names(stmt: ast.stmt) -> set[str]:
    """Top-level names a simple statement binds."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {stmt.name}
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        out = set()
        for alias in stmt.names:
            if alias.name == "*":
                continue
            out.add(alias.asname or alias.name.split(".")[0])
        return out
    targets: list[ast.expr] = []
    if isinstance(stmt, ast.Assign):
        targets = list(stmt.targets)
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
        targets = [stmt.target]
    out = set()
    for target in targets:
        for node in ast.walk(target):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                out.add(node.id)
    return out


def _global_refs(table: symtable.SymbolTable, top: bool) -> set[str]:
    """Names a scope (and its nested scopes) look up in the module's global namespace."""
    out: set[str] = set()
    for sym in table.get_symbols():
        name = sym.get_name()
        if top or table.get_type() == "class":
            # Module level / class body: a referenced name not bound here comes from globals/builtins.
            # At module level a name the statement both binds and reads (``x += 1``) needs the
            # earlier binding too, so every referenced name counts.
            if sym.is_referenced() and (top or not (sym.is_assigned() or sym.is_imported())):
                out.add(name)
        elif sym.is_referenced() and sym.is_global():
            out.add(name)
    for child in table.get_children():
        out |= _global_refs(child, top=False)
    return out


def _needed_names(stmt: ast.stmt, filename: str) -> set[str]:
    """Global names ``stmt`` reads when it runs or when the functions it defines are called."""
    node: ast.stmt = stmt
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        node = _strip_annotations(stmt)
    elif isinstance(stmt, ast.AnnAssign):
        node = ast.Assign(targets=[stmt.target], value=stmt.value or ast.Constant(None), lineno=stmt.lineno)
    source = ast.unparse(ast.fix_missing_locations(ast.Module(body=[node], type_ignores=[])))
    table = symtable.symtable(source, filename, "exec")
    return _global_refs(table, top=True)


def _strip_annotations(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.stmt:
    """A copy of ``fn`` without annotations (they are never evaluated, so they need nothing)."""
    fn = copy.deepcopy(fn)
    for node in ast.walk(fn):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            node.returns = None
            args = node.args
            for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
                if a is not None:
                    a.annotation = None
    return fn


def _spark_kind(stmt: ast.stmt) -> str | None:
    """``"sc"``/``"spark"`` when the statement's value builds a Spark context/session, else None."""
    value = getattr(stmt, "value", None)
    if not isinstance(stmt, (ast.Assign, ast.AnnAssign)) or value is None:
        return None
    names = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
    attrs = {n.attr for n in ast.walk(value) if isinstance(n, ast.Attribute)}
    if "SparkSession" in names or "SparkSession" in attrs:
        return "spark"
    if "SparkContext" in names or "SparkContext" in attrs or "sparkContext" in attrs:
        return "sc"
    return None


def _compound_bindings(stmt: ast.stmt) -> set[str]:
    """Names bound somewhere inside a compound top-level statement (if/try/for/with/...)."""
    out: set[str] = set()
    for node in ast.walk(stmt):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out |= _bound_names(node)
    return out


_SIMPLE = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom,
           ast.Assign, ast.AnnAssign, ast.AugAssign)


def extract(source: str, function: str, filename: str = "<pipeline>") -> Extracted:
    """Select the statements ``function`` needs from ``source`` (see the module docstring)."""
    tree = ast.parse(source, filename)
    simple: list[tuple[int, ast.stmt, set[str]]] = []
    in_compound: set[str] = set()
    compound_spark: dict[str, str] = {}  # e.g. ``sc = SparkContext()`` under ``if __name__ == ...``
    future_imports: list[ast.stmt] = []
    for index, stmt in enumerate(tree.body):
        if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
            future_imports.append(stmt)
        elif isinstance(stmt, _SIMPLE):
            simple.append((index, stmt, _bound_names(stmt)))
        else:
            in_compound |= _compound_bindings(stmt)
            for node in ast.walk(stmt):
                kind = _spark_kind(node) if isinstance(node, ast.stmt) else None
                if kind is not None:
                    for name in _bound_names(node):
                        compound_spark[name] = kind

    binders: dict[str, list[int]] = {}
    for pos, (_, _, names) in enumerate(simple):
        for name in names:
            binders.setdefault(name, []).append(pos)
    star_imports = [pos for pos, (_, stmt, _) in enumerate(simple) if isinstance(stmt, ast.ImportFrom)
                    and any(alias.name == "*" for alias in stmt.names)]
    defs = [pos for pos, (_, stmt, _) in enumerate(simple)
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == function]
    if not defs:
        raise ExtractionError(f"{filename}: no top-level function named {function!r}")

    selected: set[int] = set()
    spark_names: dict[str, str] = {}
    work = [defs[-1]]
    while work:
        pos = work.pop()
        if pos in selected:
            continue
        _, stmt, bound = simple[pos]
        kind = _spark_kind(stmt)
        if kind is not None:
            # Never start the user's own Spark: bind its names to ours.
            for name in bound:
                spark_names[name] = kind
            continue
        selected.add(pos)
        for name in _needed_names(stmt, filename):
            # A function body runs when called, after every top-level binding; any other statement
            # (a class body included) runs now and sees only the bindings above it.
            later_ok = isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
            positions = [p for p in binders.get(name, []) if later_ok or p < pos]
            if not positions and name in compound_spark:
                spark_names[name] = compound_spark[name]
            elif not positions and name in in_compound and not hasattr(builtins, name):
                raise ExtractionError(
                    f"{filename}: {function!r} needs {name!r}, which is bound only inside a compound "
                    "top-level statement (if/try/for/with); move it to a plain top-level statement"
                )
            elif not positions:
                # Perhaps it comes from ``from m import *``: those imports cannot be narrowed down, and
                # may rebind a builtin (``from pyspark.sql.functions import *`` makes ``sum`` Spark's).
                positions = [p for p in star_imports if later_ok or p < pos]
            work.extend(positions)

    body = [*future_imports, *(simple[p][1] for p in sorted(selected))]
    module = ast.Module(body=body, type_ignores=[])
    names = frozenset(n for p in selected for n in simple[p][2])
    return Extracted(module=module, function=function, names=names, spark_names=spark_names)


def _pickle_by_value_registry() -> Any:
    from pyspark import cloudpickle

    return cloudpickle


def build_module(extracted: Extracted, filename: str, spark_objects: dict[str, Any]) -> types.ModuleType:
    """Execute the selected statements in a fresh module (registered; see ``loaded_module``)."""
    name = f"_sparkeq_replay_{next(_counter)}"
    module = types.ModuleType(name)
    module.__file__ = filename
    for var, kind in extracted.spark_names.items():
        module.__dict__[var] = spark_objects.get(kind)
    code = compile(extracted.module, filename, "exec", flags=_ANNOTATIONS_FLAG, dont_inherit=True)
    sys.modules[name] = module
    try:
        _pickle_by_value_registry().register_pickle_by_value(module)
        exec(code, module.__dict__)
    except BaseException:
        unload(module)
        raise
    return module


def unload(module: types.ModuleType) -> None:
    """Forget a module made by ``build_module`` (so replays do not accumulate modules)."""
    try:
        _pickle_by_value_registry().unregister_pickle_by_value(module)
    except (ValueError, KeyError, ImportError):
        pass
    sys.modules.pop(module.__name__, None)


@contextmanager
def loaded_function(source: str, function: str, filename: str,
                    spark_objects: dict[str, Any] | None = None) -> Iterator[Any]:
    """The function object ``function`` of ``source``, alive (and picklable by value) inside the block."""
    extracted = extract(source, function, filename)
    module = build_module(extracted, filename, spark_objects or {})
    try:
        yield getattr(module, function)
    finally:
        unload(module)
