"""``sys.argv[0]`` and ``str(sys.argv)`` printed by an RDD script.

Book-style jobs start by printing their command line (``print("name of the script:", sys.argv[0])``,
``print("arguments:", str(sys.argv))``). ``sys.argv[0]`` is the script's own path as the user typed it:
two scripts are two files, so it is not equal by construction, and it says nothing about what the job
computes. It is an excluded field, as a printed session is: a placeholder on both sides, listed in
``ignored_statements``, masked in a replay's output (``rdd_program.MASKS``: the replay runs a script by
its absolute path). ``str(sys.argv)`` is the list's repr: that placeholder, then the repr of every
argument; it is modelled only when every argument is a path the script reads or writes and prints
(``Source.path_too``), whose text a check makes a plain file name (``rdd_program.path_name``), so that
its repr is the name between single quotes. Any other use of ``sys.argv`` stays refused.
"""

from __future__ import annotations

import ast as pyast
from typing import Any

from frontend.script.rdd_meta import _ARGV, _at

SCRIPT_NAME = "<sys.argv[0]>"


def is_argv(d: Any, node: pyast.expr) -> bool:
    """``sys.argv`` itself (or a name bound to it)."""
    if isinstance(node, pyast.Attribute) and node.attr == "argv" and isinstance(node.value, pyast.Name) \
            and node.value.id == "sys":
        return True
    return isinstance(node, pyast.Name) and d.meta.get(node.id) == _ARGV


def script_name(d: Any, node: pyast.expr, *, listed: bool = False) -> pyast.expr | None:
    """``sys.argv[0]``: the placeholder of an excluded field; None for other expressions. Only an
    argument of ``print`` itself (or of a printed ``str(sys.argv)``, ``listed``) is an excluded field: the
    placeholder is a constant, so anything computed from it (``len(sys.argv[0])``, ``sys.argv[0][:1]``, a
    comparison) would be a constant too, while on Spark it depends on the path (found by review 5)."""
    if not (isinstance(node, pyast.Subscript) and is_argv(d, node.value)
            and isinstance(node.slice, pyast.Constant) and node.slice.value == 0
            and type(node.slice.value) is int):
        return None
    if not listed and not printed(d, node):
        raise d.error("sys.argv[0]", "sys.argv[0] (the script's own path) is modelled only printed as it is "
                      "(an argument of print): anything computed from it depends on the path the script "
                      "is run by", node)
    d.masks.add(SCRIPT_NAME)
    d.ignore(node, "printed sys.argv[0]", "the script's own path, as the user types it to run the script: "
             "two scripts are two files, and the path says nothing about what the job computes; the field "
             "is excluded from the comparison (the rest of the line is compared)")
    return _at(pyast.Constant(SCRIPT_NAME), node)


def argv_text(d: Any, node: pyast.Call) -> pyast.expr | None:
    """``str(sys.argv)``: ``"['<sys.argv[0]>', '" + sys.argv[1] + "', ...]"``, the repr of the list with
    each argument a path the check names (checked once the script is read: ``check_listed``); None for
    other calls."""
    if not (isinstance(node.func, pyast.Name) and node.func.id == "str" and "str" not in d.defs
            and len(node.args) == 1 and not node.keywords and is_argv(d, node.args[0])):
        return None
    if not printed(d, node):
        raise d.error("str(sys.argv)", "str(sys.argv) is modelled only printed as it is (an argument of "
                      "print): anything computed from it depends on the path the script is run by", node)
    script_name(d, _at(pyast.Subscript(node.args[0], pyast.Constant(0), pyast.Load()), node), listed=True)
    d.argv_listed.append(node)
    parts: list[pyast.expr] = [pyast.Constant(f"['{SCRIPT_NAME}'")]
    for i in range(1, d.argv_length):
        argv = _at(pyast.Attribute(pyast.Name("sys", pyast.Load()), "argv", pyast.Load()), node)
        parts += [pyast.Constant(", '"), _at(pyast.Subscript(argv, pyast.Constant(i), pyast.Load()), node),
                  pyast.Constant("'")]
    parts.append(pyast.Constant("]"))
    out: pyast.expr = _at(parts[0], node)
    for p in parts[1:]:
        out = _at(pyast.BinOp(out, pyast.Add(), _at(p, node)), node)
    return out


def _span(node: pyast.AST) -> tuple[Any, ...]:
    return tuple(getattr(node, k, None) for k in ("lineno", "col_offset", "end_lineno", "end_col_offset"))


def printed(d: Any, node: pyast.expr) -> bool:
    """Is ``node`` (by its place in the source: the rewriter may visit copies) a positional argument of
    a call of the builtin ``print``?"""
    if "print" in d.defs:
        return False
    return _span(node) in {_span(a) for n in pyast.walk(d.tree) if isinstance(n, pyast.Call)
                           and isinstance(n.func, pyast.Name) and n.func.id == "print" for a in n.args}


def check_listed(d: Any) -> None:
    """Every argument in a printed ``str(sys.argv)`` is a path the script reads or writes and prints
    (``path_too``): a check makes its text a plain file name, whose repr is the name in single quotes."""
    if not d.argv_listed:
        return
    named = {s.argv_index for s in d.sources if s.kind == "argument" and s.path_too}
    for i in range(1, d.argv_length):
        if i not in named:
            raise d.error("str(sys.argv)", f"str(sys.argv) prints the repr of every argument; script mode "
                          f"models it only when each is a path the script reads or writes (sys.argv[{i}] "
                          "is not)", d.argv_listed[0])
