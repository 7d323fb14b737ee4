"""SparkLite -> PySpark source: a program as the PySpark RDD code that computes it.

``to_pyspark(program)`` returns the text of a Python module defining ``def <name>(<params>)``: bag
parameters are RDDs, basic parameters plain values; a bag result is returned as an RDD (the caller
collects it), an aggregation's value as a value, a tuple result as a tuple of those. The module imports
nothing (the RDD methods do all the work), so a caller can ``exec`` it in a fresh namespace and call the
function with a SparkContext's RDDs; replay (``verifier``) and the differential tests do exactly that.
This module itself never imports pyspark.

The emitted code follows the interpreter's evaluation order exactly: nested defs first, then one
assignment per let, in order and whether or not the result uses it (the driver is strict: an unused
action still runs its Spark job and may raise), then ``return <body>``, every bag expression a method chain in
which Python evaluates the receiver, then the arguments, then runs the action. UDF bodies are Python
expressions (``if``-``then``-``else`` becomes a conditional expression, projection indexing), so Python's
own ``//``, ``%``, unbounded ints and short-circuit ``and``/``or`` give the UDFs their meaning.

SparkLite names that are Python keywords, or builtins the generated code uses, are renamed by appending
``_sl`` (``sum`` -> ``sum_sl``); the function name is kept when it is a valid identifier.
"""

from __future__ import annotations

import builtins
import keyword

from sparklite import ast as A

_PREC = {"or": 1, "and": 2, "not": 3, "cmp": 4, "+": 5, "-": 5, "*": 6, "//": 6, "%": 6, "neg": 7}
_RESERVED = {"min", "max", "abs", "sum", "len", "tuple", "print", "lambda", "None", "True", "False"}


def py_name(name: str) -> str:
    """The Python identifier used for a SparkLite name (see the module doc)."""
    if keyword.iskeyword(name) or name in _RESERVED or name.endswith("_sl") or hasattr(builtins, name):
        return name + "_sl"
    return name


class _Gen:
    def __init__(self, def_names: set[str]) -> None:
        self.def_names = def_names

    def expr(self, e: A.Expr) -> str:  # noqa: C901 - one dispatch over the AST
        if isinstance(e, A.IntLit):
            return str(e.value) if e.value >= 0 else f"({e.value})"
        if isinstance(e, A.BoolLit):
            return "True" if e.value else "False"
        if isinstance(e, A.Var):
            return py_name(e.name)
        if isinstance(e, A.BinOp):
            return f"({self.expr(e.left)} {e.op} {self.expr(e.right)})"
        if isinstance(e, A.Not):
            return f"(not {self.expr(e.operand)})"
        if isinstance(e, A.Neg):
            return f"(-{self.expr(e.operand)})"
        if isinstance(e, A.Ite):
            return f"({self.expr(e.then)} if {self.expr(e.cond)} else {self.expr(e.orelse)})"
        if isinstance(e, A.TupleExpr):
            items = [self.expr(x) for x in e.elems]
            return "(" + items[0] + ",)" if len(items) == 1 else "(" + ", ".join(items) + ")"
        if isinstance(e, A.Proj):
            return f"{self.expr(e.tuple)}[{e.index}]"
        if isinstance(e, A.Call):
            builtin = e.func in A.BUILTINS and e.func not in self.def_names
            f = e.func if builtin else py_name(e.func)
            return f"{f}({', '.join(self.expr(a) for a in e.args)})"
        if isinstance(e, A.Apply):
            return f"{self.fn(e.fn)}({', '.join(self.expr(a) for a in e.args)})"
        return self.bag_or_agg(e)

    def fn(self, fn: A.Fn) -> str:
        if isinstance(fn, A.Lambda):
            params = ", ".join(py_name(p.name) for p in fn.params)
            return f"(lambda {params}: {self.expr(fn.body)})"
        if isinstance(fn, A.FnRef):
            return py_name(fn.name)
        if isinstance(fn, A.PApp):
            return f"{py_name(fn.name)}({', '.join(self.expr(a) for a in fn.args)})"
        raise TypeError(f"not a function: {fn!r}")

    def bag_or_agg(self, e: A.Expr) -> str:  # noqa: C901
        if isinstance(e, A.Map):
            keep = ", preservesPartitioning=True" if e.preserves_partitioning else ""
            return f"{self.expr(e.source)}.map({self.fn(e.fn)}{keep})"
        if isinstance(e, A.Filter):
            return f"{self.expr(e.source)}.filter({self.fn(e.fn)})"
        if isinstance(e, A.FlatMap):
            keep = ", preservesPartitioning=True" if e.preserves_partitioning else ""
            return f"{self.expr(e.source)}.flatMap({self.fn(e.fn)}{keep})"
        if isinstance(e, A.Cartesian):
            return f"{self.expr(e.left)}.cartesian({self.expr(e.right)})"
        if isinstance(e, A.Join):
            return f"{self.expr(e.left)}.join({self.expr(e.right)})"
        if isinstance(e, A.Union):
            return f"{self.expr(e.left)}.union({self.expr(e.right)})"
        if isinstance(e, A.Distinct):
            return f"{self.expr(e.source)}.distinct()"
        if isinstance(e, A.FoldByKey):
            return f"{self.expr(e.source)}.foldByKey({self.expr(e.zero)}, {self.fn(e.op)})"
        if isinstance(e, A.AggregateByKey):
            return (f"{self.expr(e.source)}.aggregateByKey({self.expr(e.zero)}, {self.fn(e.seq)}, "
                    f"{self.fn(e.comb)})")
        if isinstance(e, A.ReduceByKey):
            return f"{self.expr(e.source)}.reduceByKey({self.fn(e.op)})"
        if isinstance(e, A.CombineByKey) and e.zero is not None:  # kernel form of aggregateByKey
            if e.create != e.merge_value:
                raise TypeError("a kernel combineByKey with a zero whose create is not its merge_value")
            return (f"{self.expr(e.source)}.aggregateByKey({self.expr(e.zero)}, {self.fn(e.create)}, "
                    f"{self.fn(e.merge_combiners)})")
        if isinstance(e, A.CombineByKey):
            return (f"{self.expr(e.source)}.combineByKey({self.fn(e.create)}, {self.fn(e.merge_value)}, "
                    f"{self.fn(e.merge_combiners)})")
        if isinstance(e, A.GroupByKeyAgg):
            parts = [f"{k}(vs)" for k in e.kinds]
            body = parts[0] if len(parts) == 1 else "(" + ", ".join(parts) + ")"
            return f"{self.expr(e.source)}.groupByKey().mapValues(lambda vs: {body})"
        if isinstance(e, A.Fold):
            return f"{self.expr(e.source)}.fold({self.expr(e.zero)}, {self.fn(e.op)})"
        if isinstance(e, A.Aggregate):
            return (f"{self.expr(e.source)}.aggregate({self.expr(e.zero)}, {self.fn(e.seq)}, "
                    f"{self.fn(e.comb)})")
        if isinstance(e, A.Reduce):
            return f"{self.expr(e.source)}.reduce({self.fn(e.op)})"
        if isinstance(e, A.SimpleAgg):
            return f"{self.expr(e.source)}.{e.kind}()"
        raise TypeError(f"unknown expression node {type(e).__name__}")


def function_name(program: A.Program) -> str:
    """The name of the function ``to_pyspark`` defines for ``program``."""
    name = program.name
    return name if name.isidentifier() and not keyword.iskeyword(name) else py_name(name)


def to_pyspark(program: A.Program) -> str:
    """Python source of a module defining ``def <name>(<params>)`` that runs ``program`` on PySpark."""
    g = _Gen({d.name for d in program.defs})
    params = ", ".join(py_name(p.name) for p in program.params)
    lines = [
        f'"""PySpark code generated by sparkeq from the SparkLite program {program.name}."""',
        "",
        "",
        f"def {function_name(program)}({params}):",
    ]
    for d in program.defs:
        if isinstance(d, A.FunDef):
            dparams = ", ".join(py_name(p.name) for p in d.params)
            lines += [f"    def {py_name(d.name)}({dparams}):", f"        return {g.expr(d.body)}", ""]
        else:
            dparams = ", ".join(py_name(p.name) for p in d.params)
            lines += [f"    def {py_name(d.name)}({dparams}):", f"        return {g.fn(d.fn)}", ""]
    for b in program.lets:
        lines.append(f"    {py_name(b.name)} = {g.expr(b.value)}")
    lines.append(f"    return {g.expr(program.body)}")
    return "\n".join(lines) + "\n"
