"""Basic SparkLite expressions as Z3 terms.

A symbolic basic value (``Sym``) mirrors the runtime value: a Z3 ``Int`` term for ``Int``, a Z3 ``Bool``
term for ``Bool``, and a Python tuple of ``Sym`` for a tuple. Keeping tuples as Python tuples (instead
of a Z3 datatype) keeps every formula in linear integer arithmetic plus booleans, which is the fragment
the paper's decision procedures are about.

Python's ``//`` and ``%`` are floor division and floor modulo for *every* divisor sign; Z3's ``div`` and
``mod`` are Euclidean and agree with Python only for a positive divisor. ``py_floordiv`` encodes the
Python meaning exactly. A zero divisor raises ``ZeroDivisionError`` in Python: the encoder records, for
every division it meets, the condition under which it is reached with a zero divisor (``div_hazards``),
so that methods can refuse to claim anything about programs that might raise (the bounded method and the
interpreter deal with those).

Function application inlines the function body (SparkLite has no recursion), which is how UDFs,
parametric functions (``geq(100)``) and closures over program scalars become plain terms.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import z3

from sparklite import ast as A
from sparklite.types import BagType, BoolType, IntType, TupleType, Type

Sym = z3.ArithRef | z3.BoolRef | tuple  # tuple of Sym


class EncodingError(Exception):
    """The expression cannot be encoded (a bag where a basic value is needed, an unknown name)."""

    def __init__(self, message: str, loc: A.Loc | None = None) -> None:
        super().__init__(f"{loc}: {message}" if loc else message)
        self.loc = loc


# ---------------------------------------------------------------------------------------------------
# Symbolic values
# ---------------------------------------------------------------------------------------------------


def fresh(name: str, t: Type) -> Sym:
    """Fresh Z3 constants shaped like type ``t`` (``name``, ``name.0``, ``name.1.0``, ...)."""
    if isinstance(t, IntType):
        return z3.Int(name)
    if isinstance(t, BoolType):
        return z3.Bool(name)
    if isinstance(t, TupleType):
        return tuple(fresh(f"{name}.{i}", e) for i, e in enumerate(t.elems))
    raise EncodingError(f"no symbolic value for type {t}")


def fresh_like(name: str, shape: Sym) -> Sym:
    """Fresh constants with the same shape (and sorts) as ``shape``."""
    if isinstance(shape, tuple):
        return tuple(fresh_like(f"{name}.{i}", s) for i, s in enumerate(shape))
    if z3.is_bool(shape):
        return z3.Bool(name)
    return z3.Int(name)


def leaves(v: Sym) -> list[z3.ExprRef]:
    """The Z3 terms of a symbolic value, flattened in order."""
    if isinstance(v, tuple):
        return [leaf for item in v for leaf in leaves(item)]
    return [v]


def sym_eq(a: Sym, b: Sym) -> z3.BoolRef:
    """Structural equality of two symbolic values of the same shape."""
    if isinstance(a, tuple) or isinstance(b, tuple):
        if not (isinstance(a, tuple) and isinstance(b, tuple)) or len(a) != len(b):
            return z3.BoolVal(False)
        return z3.And(*[sym_eq(x, y) for x, y in zip(a, b, strict=True)]) if a else z3.BoolVal(True)
    if z3.is_bool(a) != z3.is_bool(b):
        return z3.BoolVal(False)
    return a == b


def sym_lt(a: Sym, b: Sym) -> z3.BoolRef:
    """Python's ``a < b`` on ordered values: ints, bools (``False < True``) and tuples of those
    (lexicographic, as Python compares tuples)."""
    if isinstance(a, tuple) or isinstance(b, tuple):
        if not (isinstance(a, tuple) and isinstance(b, tuple)) or len(a) != len(b):
            raise EncodingError("comparison of tuples of different shapes")
        result: z3.BoolRef = z3.BoolVal(False)
        for x, y in reversed(list(zip(a, b, strict=True))):
            result = z3.Or(sym_lt(x, y), z3.And(sym_eq(x, y), result))
        return result
    if z3.is_bool(a):
        return z3.And(z3.Not(a), b)
    return a < b


def sym_min(a: Sym, b: Sym) -> Sym:
    """Python's ``min(a, b)``: ``b`` only when ``b < a``."""
    return sym_ite(sym_lt(b, a), b, a)


def sym_max(a: Sym, b: Sym) -> Sym:
    """Python's ``max(a, b)``: ``b`` only when ``a < b``."""
    return sym_ite(sym_lt(a, b), b, a)


def as_number(v: Sym) -> z3.ArithRef:
    """A bool used as a number (``sum`` of bools counts the Trues), an int as is."""
    if isinstance(v, tuple):
        raise EncodingError("a tuple used as a number")
    return z3.If(v, z3.IntVal(1), z3.IntVal(0)) if z3.is_bool(v) else v


def sym_ite(c: z3.BoolRef, a: Sym, b: Sym) -> Sym:
    if isinstance(a, tuple):
        if not isinstance(b, tuple) or len(a) != len(b):
            raise EncodingError("branches of a conditional have different shapes")
        return tuple(sym_ite(c, x, y) for x, y in zip(a, b, strict=True))
    return z3.If(c, a, b)


def py_floordiv(a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
    """Python's ``a // b`` (floor) for a nonzero ``b`` of either sign."""
    if z3.is_int_value(b):
        bv = b.as_long()
        if bv > 0:
            return a / b
        if bv < 0:
            return (-a) / (-b)
    return z3.If(b > 0, a / b, (-a) / (-b))


def py_mod(a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
    """Python's ``a % b`` (sign of the divisor) for a nonzero ``b``: ``a - b * (a // b)``."""
    if z3.is_int_value(b) and b.as_long() > 0:
        return a % b
    return a - b * py_floordiv(a, b)


def value_to_sym(v: object) -> Sym:
    """A concrete basic value as a symbolic constant."""
    if isinstance(v, bool):
        return z3.BoolVal(v)
    if isinstance(v, int):
        return z3.IntVal(v)
    if isinstance(v, tuple):
        return tuple(value_to_sym(x) for x in v)
    raise EncodingError(f"not a basic value: {v!r}")


def sym_to_value(v: Sym, model: z3.ModelRef) -> object:
    """Read a symbolic value back from a model (unconstrained leaves become 0 / False)."""
    if isinstance(v, tuple):
        return tuple(sym_to_value(x, model) for x in v)
    val = model.eval(v, model_completion=True)
    if z3.is_bool(v):
        return z3.is_true(val)
    return val.as_long()


# ---------------------------------------------------------------------------------------------------
# The encoder of basic expressions
# ---------------------------------------------------------------------------------------------------


@dataclass
class BasicEncoder:
    """Encodes basic expressions of one program.

    ``defs`` are the program's function definitions; ``env`` maps names in scope (program scalars,
    let-bound basic values, lambda parameters) to symbolic values. ``div_hazards`` accumulates, for every
    division met, the condition (path condition and zero divisor) under which it would raise.
    """

    defs: Mapping[str, A.Def]
    div_hazards: list[z3.BoolRef] = field(default_factory=list)
    _counter: itertools.count = field(default_factory=itertools.count)

    @staticmethod
    def for_program(program: A.Program) -> BasicEncoder:
        return BasicEncoder({d.name: d for d in program.defs})

    # -- expressions ---------------------------------------------------------------------------

    def expr(self, e: A.Expr, env: Mapping[str, Sym], path: z3.BoolRef | None = None) -> Sym:
        """The symbolic value of basic expression ``e`` under ``env``. ``path`` is the condition under
        which ``e`` is evaluated (used only to record division hazards precisely)."""
        path = z3.BoolVal(True) if path is None else path
        match e:
            case A.IntLit(value=v):
                return z3.IntVal(v)
            case A.BoolLit(value=v):
                return z3.BoolVal(v)
            case A.Var(name=n):
                if n not in env:
                    raise EncodingError(f"'{n}' is not a basic value in scope", e.loc)
                return env[n]
            case A.Neg(operand=o):
                return -self.expr(o, env, path)
            case A.Not(operand=o):
                return z3.Not(self.expr(o, env, path))
            case A.BinOp(op="and", left=lft, right=rgt):
                lv = self.expr(lft, env, path)
                return z3.And(lv, self.expr(rgt, env, z3.And(path, lv)))
            case A.BinOp(op="or", left=lft, right=rgt):
                lv = self.expr(lft, env, path)
                return z3.Or(lv, self.expr(rgt, env, z3.And(path, z3.Not(lv))))
            case A.BinOp(op=op, left=lft, right=rgt):
                return self._binop(op, self.expr(lft, env, path), self.expr(rgt, env, path), path)
            case A.Ite(cond=c, then=t, orelse=f):
                cv = self.expr(c, env, path)
                tv = self.expr(t, env, z3.And(path, cv))
                fv = self.expr(f, env, z3.And(path, z3.Not(cv)))
                return sym_ite(cv, tv, fv)
            case A.TupleExpr(elems=es):
                return tuple(self.expr(x, env, path) for x in es)
            case A.Proj(tuple=t, index=i):
                tv = self.expr(t, env, path)
                if not isinstance(tv, tuple) or not 0 <= i < len(tv):
                    raise EncodingError(f"projection [{i}] of a non-tuple or out of range", e.loc)
                return tv[i]
            case A.Call(func=name, args=args):
                vals = [self.expr(a, env, path) for a in args]
                return self._call(name, vals, env, path, e.loc)
            case A.Apply(fn=fn, args=args):
                vals = [self.expr(a, env, path) for a in args]
                return self.apply(fn, vals, env, path)
        raise EncodingError(f"{type(e).__name__} is not a basic expression", e.loc)

    def _binop(self, op: str, a: Sym, b: Sym, path: z3.BoolRef) -> Sym:
        if op == "==":
            return sym_eq(a, b)
        if op == "!=":
            return z3.Not(sym_eq(a, b))
        if op in ("//", "%"):
            self.div_hazards.append(z3.And(path, b == 0))
            return py_floordiv(a, b) if op == "//" else py_mod(a, b)
        table = {
            "+": lambda x, y: x + y,
            "-": lambda x, y: x - y,
            "*": lambda x, y: x * y,
            "<": lambda x, y: x < y,
            "<=": lambda x, y: x <= y,
            ">": lambda x, y: x > y,
            ">=": lambda x, y: x >= y,
        }
        return table[op](a, b)

    def _call(self, name: str, vals: list[Sym], env: Mapping[str, Sym], path: z3.BoolRef,
              loc: A.Loc | None) -> Sym:
        if name == "abs" and len(vals) == 1:
            return z3.If(vals[0] >= 0, vals[0], -vals[0])
        if name in ("min", "max") and len(vals) >= 1:
            acc = vals[0]
            for v in vals[1:]:  # ints, bools, tuples: Python's order
                acc = sym_min(acc, v) if name == "min" else sym_max(acc, v)
            return acc
        d = self.defs.get(name)
        if isinstance(d, A.FunDef):
            return self._inline(d.params, d.body, vals, {}, path)
        raise EncodingError(f"unknown function '{name}'", loc)

    # -- functions -----------------------------------------------------------------------------

    def apply(self, fn: A.Fn, args: Sequence[Sym], env: Mapping[str, Sym],
              path: z3.BoolRef | None = None) -> Sym:
        """Apply a function value to symbolic arguments. ``env`` is the enclosing scope (closures)."""
        path = z3.BoolVal(True) if path is None else path
        match fn:
            case A.Lambda(params=ps, body=body):
                return self._inline(ps, body, args, env, path)
            case A.FnRef(name=name):
                d = self.defs.get(name)
                if isinstance(d, A.FunDef):
                    return self._inline(d.params, d.body, args, {}, path)
                if name in A.BUILTINS:
                    return self._call(name, list(args), env, path, fn.loc)
                raise EncodingError(f"'{name}' is not a first-order function", fn.loc)
            case A.PApp(name=name, args=pargs):
                d = self.defs.get(name)
                if not isinstance(d, A.ParamFunDef):
                    raise EncodingError(f"'{name}' is not a parametric function", fn.loc)
                outer = {p.name: self.expr(a, env, path) for p, a in zip(d.params, pargs, strict=True)}
                return self._inline(d.fn.params, d.fn.body, args, outer, path)
        raise EncodingError(f"not a function: {fn!r}")

    def _inline(self, params: Sequence[A.Param], body: A.Expr, args: Sequence[Sym],
                outer: Mapping[str, Sym], path: z3.BoolRef) -> Sym:
        if len(params) != len(args):
            raise EncodingError(f"function expects {len(params)} arguments, got {len(args)}", body.loc)
        scope = dict(outer)
        scope.update({p.name: a for p, a in zip(params, args, strict=True)})
        return self.expr(body, scope, path)

    def fresh_name(self, base: str) -> str:
        return f"{base}!{next(self._counter)}"


def is_bag_type(t: Type) -> bool:
    return isinstance(t, BagType)
