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
from sparklite import builtins as B

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
        if isinstance(e, A.StrLit):
            return repr(e.value)
        if isinstance(e, A.FloatLit):  # finite (the type checker says so); repr round-trips exactly
            text = repr(float(e.value))
            return f"({text})" if text.startswith("-") else text
        if isinstance(e, A.NoneLit):
            return "None"
        if isinstance(e, A.ListExpr):
            return "[" + ", ".join(self.expr(x) for x in e.elems) + "]"
        if isinstance(e, A.ListComp):
            # the functions are applied as lambdas, so their parameter names cannot capture anything;
            # _ITEM is a name py_name never produces
            cond = f" if {self.fn(e.cond)}({_ITEM})" if e.cond is not None else ""
            return f"[{self.fn(e.fn)}({_ITEM}) for {_ITEM} in {self.expr(e.source)}{cond}]"
        if isinstance(e, A.Var):
            return py_name(e.name)
        if isinstance(e, A.BinOp):  # "in" is Python's: ``a in b`` tests a in the container b
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
            if e.func in self.def_names:
                return f"{py_name(e.func)}({', '.join(self.expr(a) for a in e.args)})"
            return self.builtin_call(e.func, [self.expr(a) for a in e.args])
        if isinstance(e, A.Apply):
            return f"{self.fn(e.fn)}({', '.join(self.expr(a) for a in e.args)})"
        return self.bag_or_agg(e)

    def builtin_call(self, name: str, args: list[str]) -> str:
        """A builtin call in the table's Python spelling (``sparklite.builtins``). Two builtins are
        spelled out here because their meaning is not one Python expression: ``py.unpack(xs, n)`` is
        ``a, b = xs`` (``ValueError`` on a wrong length) and ``py.unwrap(x)`` raises ``TypeError`` on
        ``None`` at the point the interpreter does (the bare ``x`` the table gives would only raise when
        Python's next operation fails, and not at all before ``==`` or ``str``)."""
        if name == "py.unpack":
            return (f"(lambda t: t if len(t) == {args[1]} else (_ for _ in ()).throw(ValueError("
                    f"'wrong number of values to unpack')))(tuple({args[0]}))")
        if name == "py.unwrap":
            return (f"(lambda v: v if v is not None else (_ for _ in ()).throw(TypeError("
                    f"'None used as a value')))({args[0]})")
        lib = B.lookup(name)
        if lib is None or not lib.python:
            if name in A.BUILTINS:
                return f"{name}({', '.join(args)})"
            raise TypeError(f"no Python spelling for the builtin {name!r}")
        return lib.python.format(*args, args=", ".join(args), rest=", ".join(args[1:]))

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
        if isinstance(e, A.OuterJoin):
            return f"{self.expr(e.left)}.{e.kind}OuterJoin({self.expr(e.right)})"
        if isinstance(e, A.SortBy):
            if e.surface == "sortByKey" and _is_first_projection(e.key):
                return f"{self.expr(e.source)}.sortByKey({e.ascending})"
            return f"{self.expr(e.source)}.sortBy({self.fn(e.key)}, {e.ascending})"
        if isinstance(e, A.Subtract):
            return f"{self.expr(e.left)}.subtract({self.expr(e.right)})"
        if isinstance(e, A.Intersection):
            return f"{self.expr(e.left)}.intersection({self.expr(e.right)})"
        if isinstance(e, A.Collect):
            return f"{self.expr(e.source)}.collect()"
        if isinstance(e, A.Take):
            return f"{self.expr(e.source)}.take({self.expr(e.count)})"
        if isinstance(e, A.TakeOrdered):
            method = "top" if e.top else "takeOrdered"
            key = "" if e.key is None else f", key={self.fn(e.key)}"
            return f"{self.expr(e.source)}.{method}({self.expr(e.count)}{key})"
        if isinstance(e, A.First):
            return f"{self.expr(e.source)}.first()"
        if isinstance(e, A.CountByValue):
            return f"{self.expr(e.source)}.countByValue()"
        if isinstance(e, A.CollectAsMap):
            return f"{self.expr(e.source)}.collectAsMap()"
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
            if e.kinds == ("list",):
                return f"{self.expr(e.source)}.groupByKey().mapValues(list)"
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


_ITEM = "it_sl"  # py_name maps a name to itself or appends "_sl" to a reserved one: never to this


def _is_first_projection(fn: A.Fn) -> bool:
    """``lambda kv: kv[0]``: the key ``sortByKey`` sorts by."""
    return (isinstance(fn, A.Lambda) and len(fn.params) == 1 and isinstance(fn.body, A.Proj)
            and fn.body.index == 0 and isinstance(fn.body.tuple, A.Var)
            and fn.body.tuple.name == fn.params[0].name)


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
