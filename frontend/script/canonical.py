"""The canonical form of a whole script up to renaming: what congruence compares for RDD and DataFrame
scripts.

Why: a script is observed through what it reads and writes, not through its variable names. Two scripts
whose programs are the same kernel term up to bound names (``sparklite.canonical``,
``sparklite.relational.canonical``), that read the same inputs the same way (the same path expression --
``sys.argv[1]``, or the same constant path --, the same reader, schema and options, the same literal
data) and write the same sinks (same kinds, same constant text, same paths, same order, same command
line) write the same thing on every input. The variable through which a script holds a path or a
DataFrame is not observed (the frontends resolve it), so it is not part of the key; the path itself is.
Locations and the source text of a sink (kept for reports) are ignored. Sources are compared in the
order ``align_sources``/``align_df_sources`` lined them up, i.e. as the program's parameters.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from frontend.script.df_program import DfScriptProgram
from frontend.script.rdd_program import ScriptProgram
from sparklite import ast as sl
from sparklite.canonical import program_key
from sparklite.relational.canonical import rel_key

Key = tuple[Any, ...]

_NOT_OBSERVED = {"Sink": frozenset({"loc", "text"}), "DfSink": frozenset({"loc", "text"}),
                 "Source": frozenset({"loc", "param"}), "DfSource": frozenset({"loc", "param"})}
"""Fields that do not change what a script writes: where a source or sink stands in the file, a sink's
source line (kept for reports), the parameter name the translator chose for a source. (A printed
``Part``'s ``text`` is printed: it is kept.)"""


def rdd_script_key(sp: ScriptProgram, kernel: sl.Program) -> Key:
    """``sp`` (aligned) with ``kernel``, its program after the checker's passes, up to renaming."""
    return ("RddScript", sp.argv_length, sp.master, tuple(_fields(s) for s in sp.sources),
            tuple(_fields(s) for s in sp.sinks), program_key(kernel))


def df_script_key(sp: DfScriptProgram) -> Key:
    """``sp`` (aligned) up to renaming: its command line (and the argument checks it decided), sources,
    sinks and the plan of every action, result column names included (sinks print or write them)."""
    return ("DfScript", sp.argv_length, tuple(c for c, _ in sp.arg_checks),
            tuple(_fields(s) for s in sp.sources), tuple(_fields(s) for s in sp.sinks),
            tuple(rel_key(a.body) for a in sp.actions))


def _fields(item: Any) -> Key:
    """A source, a sink or a printed part by its observed fields (nested parts included)."""
    if isinstance(item, tuple):
        return tuple(_fields(x) for x in item)
    if isinstance(item, sl.Program):  # a DataFrame made from a text-file RDD (frontend.script.mixed_text)
        return ("Program", program_key(item))
    if not hasattr(item, "__dataclass_fields__") or isinstance(item, sl.Loc):
        if isinstance(item, float):
            return ("float", item.hex())
        return (type(item).__name__, item if isinstance(item, int | str | bool | None) else repr(item))
    skip = _NOT_OBSERVED.get(type(item).__name__, frozenset({"loc"}))
    return (type(item).__name__, *((f.name, _fields(getattr(item, f.name))) for f in fields(item)
                                   if f.name not in skip))
