"""Jupyter notebooks and shell code as scripts: the code a ``.ipynb`` file runs, read as JSON (never
executed), and the session such code is given.

Why: DataFrame jobs are often written in notebooks or in the ``pyspark`` shell, where ``spark`` and ``sc``
already exist. A notebook is its code cells in order; IPython magics (``%time``, ``%%sql``) and shell
escapes (``!pip install``) are not Python and change nothing Spark computes, so they are blanked (their
line stays, empty, so every location still names the notebook's code line). A file that uses ``spark``
or ``sc`` without binding them anywhere is given a session, as the shell and notebooks give one; the
replay runs it with ``GIVEN_SESSION`` before its code.
"""

from __future__ import annotations

import ast
import json

from sparklite.ast import Loc
from sparklite.errors import InputError, UnsupportedError

__all__ = ["GIVEN_SESSION", "given_session", "notebook_code"]

GIVEN_SESSION = (
    "from pyspark.sql import SparkSession as _SparkeqGivenSession\n"
    "spark = _SparkeqGivenSession.builder.getOrCreate()\n"
    "sc = spark.sparkContext\n"
)


def notebook_code(text: str, filename: str) -> str:
    """The Python code of a notebook: its code cells in order, separated by a blank line, with magic
    and shell lines (``%...``, ``!...``) and cell magics (a cell starting with ``%%``) blanked."""
    try:
        nb = json.loads(text)
        cells = nb["cells"]
    except (ValueError, KeyError, TypeError):
        raise InputError("not a Jupyter notebook (no JSON with 'cells')", Loc(filename, 1, 1)) from None
    out: list[str] = []
    for cell in cells:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        lines = ("".join(source) if isinstance(source, list) else str(source)).splitlines()
        magic_cell = bool(lines) and lines[0].lstrip().startswith("%%")
        for line in lines:
            stripped = line.lstrip()
            if stripped.startswith("%") and _magic_name(stripped) in CODE_MAGICS:
                raise UnsupportedError(f"the IPython magic {stripped.split()[0]} runs Python code (its cell "
                                       "or the rest of its line) that a notebook's output depends on: not "
                                       "understood in script mode", Loc(filename, len(out) + 1, 1),
                                       construct=stripped.split()[0])
            out.append("" if magic_cell or stripped.startswith(("%", "!")) else line)
        out.append("")
    return "\n".join(out) + "\n"


CODE_MAGICS = frozenset({"time", "timeit", "capture", "prun", "python", "python3", "pypy", "debug", "run",
                         "load", "script", "px", "autopx"})
"""Magics whose argument is code IPython runs: blanking them would drop that code (``%%time`` above a
cell that prints a count: two notebooks printing different counts would be proved equivalent), and
``%%capture`` hides what its cell prints. Other magics (``%matplotlib``, ``%%bash``, ``%pip``) are
blanked as before."""


def _magic_name(line: str) -> str:
    """``time`` for ``%%time ...`` or ``%time ...``."""
    return line.lstrip("%").split(maxsplit=1)[0] if line.lstrip("%").strip() else ""


def given_session(tree: ast.Module) -> bool:
    """Does the module use ``spark`` or ``sc`` at module level without binding it anywhere (no
    assignment, import, definition or parameter of that name)? Then it is shell or notebook code whose
    session is given."""
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    used: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        used |= {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return bool({"spark", "sc"} & used - bound)
