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

Beyond the paper's integers (``verification-conditions.md`` section 6): a ``Str`` is a Z3 string, a
``Float`` an IEEE double in Z3's floating-point theory (round to nearest even; never a real, which
would prove false identities such as ``(a + b) + c == a + (b + c)``), a ``List`` of primitives a Z3
sequence. Builtins with an exact theory are encoded exactly (``len``, ``+``, ``startswith``, indexing
and slicing with Python's negative indices, float arithmetic, ``int / int`` correctly rounded, float
comparisons with NaN). The others (``split``, ``strip``, ``lower``, ``int(s)``, ``str(n)``...) are
uninterpreted functions named by the builtin, so both programs share them: a proof through them is a
proof, a model is only a candidate (the interpreter decides). Every exception a builtin may raise is a
hazard with its kind (``hazards``); which conditions raise is exact where the theory is, an
uninterpreted predicate (shared, so equal inputs fail alike) where it is not.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import z3

from sparklite import ast as A
from sparklite.builtins import BUILTINS as LIBRARY
from sparklite.types import (
    BagType,
    BoolType,
    FloatType,
    IntType,
    ListType,
    OptionType,
    StrType,
    TupleType,
    Type,
)

Sym = z3.ArithRef | z3.BoolRef | z3.SeqRef | z3.FPRef | tuple  # tuple of Sym

F64 = z3.Float64()
RNE = z3.RNE()
ZERO_DIVISION = "ZeroDivisionError"
VALUE_ERROR = "ValueError"
INDEX_ERROR = "IndexError"
OVERFLOW_ERROR = "OverflowError"
TYPE_ERROR = "TypeError"


def sort_of(t: Type) -> z3.SortRef:
    """The Z3 sort of a primitive SparkLite type (or of a list of primitives)."""
    if isinstance(t, IntType):
        return z3.IntSort()
    if isinstance(t, BoolType):
        return z3.BoolSort()
    if isinstance(t, StrType):
        return z3.StringSort()
    if isinstance(t, FloatType):
        return F64
    if isinstance(t, ListType) and not isinstance(t.elem, TupleType | ListType):
        return z3.SeqSort(sort_of(t.elem))
    raise EncodingError(f"no symbolic value for type {t}")


MAX_CHAR = 0x2FFFF
"""Z3's alphabet: code points up to U+2FFFF (Python's go to U+10FFFF)."""


def str_val(text: str) -> z3.SeqRef:
    """A Python string as a Z3 string, character for character. ``z3.StringVal`` reads escape sequences
    (``"\\u{41}"`` would become ``"A"``), so every character outside printable ASCII, and the backslash,
    is written as an escape; a character beyond Z3's alphabet cannot be written at all."""
    out = []
    for ch in text:
        c = ord(ch)
        if c > MAX_CHAR:
            raise EncodingError(f"a string literal holds U+{c:X}, beyond the solver's alphabet")
        out.append(ch if 0x20 <= c < 0x7F and ch != "\\" else f"\\u{{{c:x}}}")
    return z3.StringVal("".join(out))


def is_str(v: object) -> bool:
    return isinstance(v, z3.SeqRef) and v.is_string()


def is_list(v: object) -> bool:
    return isinstance(v, z3.SeqRef) and not v.is_string()


def is_float(v: object) -> bool:
    return isinstance(v, z3.FPRef)


class Opt(tuple):
    """An optional value ``(is_none, value)``; ``value`` means nothing when ``is_none`` holds (equality
    ignores it then), so a None needs no default value of its type. A tuple subclass, so the generic
    traversals (leaves, substitution) see its two leaves."""

    @property
    def is_none(self) -> z3.BoolRef:
        return self[0]

    @property
    def value(self) -> Sym:
        return self[1]


def opt(is_none: z3.BoolRef, value: Sym) -> Opt:
    return Opt((is_none, value))


def padded(missing: z3.BoolRef, value: Sym) -> Opt:
    """An outer join's side: ``None`` when the side is ``missing`` (the join padded it) *or* when the
    value stored in the data is itself ``None``. Python has one ``None`` and no ``Option[Option[T]]``,
    so a value that is already optional is not wrapped again: its own ``is_none`` (a fact about the
    data) is or-ed with the padding (a fact about the join), and ``x is None`` reads both. Wrapping it
    (``opt(missing, Opt(...))``) made ``is None`` see the padding only, so a ``None`` stored in the data
    passed ``is not None`` filters in the prover (issue 26)."""
    if isinstance(value, Opt):
        return opt(z3.Or(missing, value.is_none), value.value)
    return opt(missing, value)


def rebuild(shape: tuple, items: object) -> tuple:
    """A tuple like ``shape`` (an ``Opt`` stays one) holding ``items``."""
    return Opt(tuple(items)) if isinstance(shape, Opt) else tuple(items)  # type: ignore[arg-type]


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
    if isinstance(t, OptionType):
        return opt(z3.Bool(f"{name}.none"), fresh(f"{name}.val", t.elem))
    return z3.Const(name, sort_of(t))


def fresh_like(name: str, shape: Sym) -> Sym:
    """Fresh constants with the same shape (and sorts) as ``shape``."""
    if isinstance(shape, tuple):
        return rebuild(shape, (fresh_like(f"{name}.{i}", s) for i, s in enumerate(shape)))
    if z3.is_bool(shape):
        return z3.Bool(name)
    if z3.is_int(shape):
        return z3.Int(name)
    return z3.Const(name, shape.sort())


def leaves(v: Sym) -> list[z3.ExprRef]:
    """The Z3 terms of a symbolic value, flattened in order."""
    if isinstance(v, tuple):
        return [leaf for item in v for leaf in leaves(item)]
    return [v]


def sym_eq(a: Sym, b: Sym) -> z3.BoolRef:
    """Observational equality of two symbolic values of the same shape (``values.outcomes_equal``):
    structural, and two Nones are equal whatever their (meaningless) values. Floats are outputs as
    Spark returns them, so they compare by representation: Z3's ``=`` on floating point is structural
    (``-0.0`` differs from ``0.0``, every NaN is one NaN), unlike ``fpEQ``, which is Python's ``==``.
    Program comparisons (``x == y`` in a lambda) are ``py_eq``; shuffle keys are ``key_eq``."""
    return _eq(a, b, key=False)


def key_eq(a: Sym, b: Sym) -> z3.BoolRef:
    """Two shuffle keys are one key (``join``, ``reduceByKey``, ``distinct``...): Spark matches keys by
    ``portable_hash`` and ``==``, and ``hash(-0.0) == hash(0.0)``, so ``-0.0`` and ``0.0`` are one key;
    NaN is taken as equal to NaN (its real hash is its identity, which no method relies on: keys
    holding floats are left out of proofs). Otherwise ``sym_eq``."""
    return _eq(a, b, key=True)


def _eq(a: Sym, b: Sym, key: bool) -> z3.BoolRef:
    if isinstance(a, Opt) or isinstance(b, Opt):
        if not isinstance(a, Opt):
            a, b = b, a
        if not isinstance(b, Opt):  # an optional value and a plain one: equal when it holds that value
            return z3.And(z3.Not(a.is_none), _eq(a.value, b, key))
        return z3.And(a.is_none == b.is_none, z3.Or(a.is_none, _eq(a.value, b.value, key)))
    if isinstance(a, tuple) or isinstance(b, tuple):
        if not (isinstance(a, tuple) and isinstance(b, tuple)) or len(a) != len(b):
            return z3.BoolVal(False)
        return z3.And(*[_eq(x, y, key) for x, y in zip(a, b, strict=True)]) if a else z3.BoolVal(True)
    if a.sort() != b.sort():
        return z3.BoolVal(False)
    if is_float(a):
        return z3.Or(z3.fpEQ(a, b), z3.And(z3.fpIsNaN(a), z3.fpIsNaN(b))) if key else a == b
    if is_list(a) and is_float_seq(a):
        raise EncodingError("equality of lists of floats is not encoded (NaN and -0.0 inside sequences)")
    return a == b


def is_float_seq(v: z3.SeqRef) -> bool:
    return isinstance(v.sort(), z3.SeqSortRef) and v.sort().basis() == F64


def py_eq(a: Sym, b: Sym) -> z3.BoolRef:
    """Python's ``a == b``: like ``sym_eq`` except that NaN differs from everything, itself included,
    and an int equals a float of the same value."""
    if isinstance(a, Opt) or isinstance(b, Opt):
        if not (isinstance(a, Opt) and isinstance(b, Opt)):
            raise EncodingError("comparison of an optional value with a plain one")
        return z3.And(a.is_none == b.is_none, z3.Or(a.is_none, py_eq(a.value, b.value)))
    if isinstance(a, tuple) or isinstance(b, tuple):
        if not (isinstance(a, tuple) and isinstance(b, tuple)) or len(a) != len(b):
            return z3.BoolVal(False)
        if _floats_inside(a) or _floats_inside(b):
            # (x, 1) == (x, 1) is True for a NaN x: tuples compare items with an identity shortcut
            raise EncodingError("equality of tuples holding floats (Python's identity shortcut)")
        return z3.And(*[py_eq(x, y) for x, y in zip(a, b, strict=True)]) if a else z3.BoolVal(True)
    if is_list(a) and is_float_seq(a):
        raise EncodingError("equality of lists of floats (Python's identity shortcut)")
    if is_float(a) or is_float(b):
        return num_compare("==", a, b)
    return sym_eq(a, b)


def num_compare(op: str, a: Sym, b: Sym) -> z3.BoolRef:
    """Python's exact comparison of ints and floats (no rounding: ``2**53 + 1 > 2.0**53``); any
    comparison with NaN is false."""
    if is_float(a) and is_float(b):
        return {"<": z3.fpLT, "<=": z3.fpLEQ, ">": z3.fpGT, ">=": z3.fpGEQ, "==": z3.fpEQ}[op](a, b)
    if is_float(a):  # flip so that the float is on the right
        flipped = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}[op]
        return num_compare(flipped, b, a)
    n = z3.ToReal(as_number(a))
    f = b
    real = z3.fpToReal(f)
    finite = {"<": n < real, "<=": n <= real, ">": n > real, ">=": n >= real, "==": n == real}[op]
    pos_inf = z3.And(z3.fpIsInf(f), z3.fpIsPositive(f))
    neg_inf = z3.And(z3.fpIsInf(f), z3.fpIsNegative(f))
    inf_case = {"<": pos_inf, "<=": pos_inf, ">": neg_inf, ">=": neg_inf, "==": z3.BoolVal(False)}[op]
    return z3.If(z3.fpIsNaN(f), z3.BoolVal(False), z3.If(z3.fpIsInf(f), inf_case, finite))


def _floats_inside(v: Sym) -> bool:
    return any(is_float(x) or (is_list(x) and is_float_seq(x)) for x in leaves(v))


def sym_lt(a: Sym, b: Sym) -> z3.BoolRef:
    """Python's ``a < b`` on ordered values: ints, bools (``False < True``) and tuples of those
    (lexicographic, as Python compares tuples)."""
    if isinstance(a, tuple) or isinstance(b, tuple):
        if _floats_inside(a) or _floats_inside(b):
            # tuples compare their items with an identity shortcut (the same NaN object equals itself)
            raise EncodingError("ordering of tuples holding floats (Python's identity shortcut)")
        if not (isinstance(a, tuple) and isinstance(b, tuple)) or len(a) != len(b):
            raise EncodingError("comparison of tuples of different shapes")
        result: z3.BoolRef = z3.BoolVal(False)
        for x, y in reversed(list(zip(a, b, strict=True))):
            result = z3.Or(sym_lt(x, y), z3.And(key_eq(x, y), result))
        return result
    if z3.is_bool(a):
        return z3.And(z3.Not(a), b)
    if is_float(a) or is_float(b):
        return num_compare("<", a, b)
    if is_str(a):
        # Python orders strings by code point over U+0000..U+10FFFF, Z3 over its smaller alphabet: a
        # claim about the order could hold in Z3 and fail on a character beyond it (every string is
        # below U+2FFFF... in Z3 only). An uninterpreted order, the same in both programs, is sound.
        return z3.Function("py_str_lt", z3.StringSort(), z3.StringSort(), z3.BoolSort())(a, b)
    if is_list(a):
        raise EncodingError("ordering of lists is not encoded")
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
    if a is NONE or b is NONE:
        if a is NONE and b is NONE:
            return NONE
        some, none_when = (b, c) if a is NONE else (a, z3.Not(c))
        if isinstance(some, Opt):
            return opt(z3.Or(none_when, some.is_none), some.value)
        return opt(none_when, some)  # the value is meaningless when None: keep the other branch's
    if isinstance(a, Opt) != isinstance(b, Opt):
        raise EncodingError("branches of a conditional mix an optional value and a plain one")
    if isinstance(a, tuple):
        if not isinstance(b, tuple) or len(a) != len(b):
            raise EncodingError("branches of a conditional have different shapes")
        return rebuild(a, (sym_ite(c, x, y) for x, y in zip(a, b, strict=True)))
    return z3.If(c, a, b)


class _NoneSym:
    """The literal None before a conditional gives it a type (``x if c else None``)."""

    def __repr__(self) -> str:
        return "None"


NONE = _NoneSym()


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
    if isinstance(v, float):
        return z3.FPVal(v, F64)
    if isinstance(v, str):
        return z3.StringVal(v)
    if isinstance(v, tuple):
        return tuple(value_to_sym(x) for x in v)
    raise EncodingError(f"not a basic value: {v!r}")


def sym_to_value(v: Sym, model: z3.ModelRef) -> object:
    """Read a symbolic value back from a model (unconstrained leaves become 0 / False / "" / 0.0)."""
    if isinstance(v, Opt):
        if z3.is_true(model.eval(v.is_none, model_completion=True)):
            return None
        return sym_to_value(v.value, model)
    if isinstance(v, tuple):
        return tuple(sym_to_value(x, model) for x in v)
    val = model.eval(v, model_completion=True)
    if z3.is_bool(v):
        return z3.is_true(val)
    if is_float(v):
        return fp_to_float(model.eval(z3.fpToIEEEBV(v), model_completion=True), val)
    if is_str(v):
        return val.as_string() if z3.is_string_value(val) else ""
    if is_list(v):
        raise EncodingError("a list-valued input cannot be read back from a model")
    return val.as_long()


def fp_to_float(bits: z3.ExprRef, val: z3.ExprRef) -> float:
    import struct

    if isinstance(val, z3.FPNumRef) and val.isNaN():
        return float("nan")
    return struct.unpack(">d", bits.as_long().to_bytes(8, "big"))[0]


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
    hazard_kind: dict[int, str] = field(default_factory=dict)
    """The exception of each hazard in ``div_hazards`` (by Z3 id); absent means ZeroDivisionError."""
    _counter: itertools.count = field(default_factory=itertools.count)

    def hazard(self, path: z3.BoolRef, cond: z3.BoolRef, kind: str) -> None:
        """Record that evaluating here (under ``path``) raises ``kind`` when ``cond`` holds."""
        h = z3.And(path, cond)
        self.hazard_kind[h.get_id()] = kind
        self.div_hazards.append(h)

    def kind_of(self, hazard: z3.BoolRef) -> str:
        return self.hazard_kind.get(hazard.get_id(), ZERO_DIVISION)

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
            case A.StrLit(value=v):
                return str_val(v)
            case A.FloatLit(value=v):
                return z3.FPVal(v, F64)
            case A.NoneLit():
                return NONE  # only a conditional's branch may be None here (checked where it lands)
            case A.ListComp():
                raise EncodingError("list comprehensions are not encoded", e.loc)
            case A.ListExpr(elems=es):
                vals = [self.expr(x, env, path) for x in es]
                if not vals or any(isinstance(v, tuple) or is_list(v) for v in vals):
                    raise EncodingError("only non-empty lists of primitive values are encoded", e.loc)
                units = [z3.Unit(v) for v in vals]
                return units[0] if len(units) == 1 else z3.Concat(*units)
            case A.Var(name=n):
                if n not in env:
                    raise EncodingError(f"'{n}' is not a basic value in scope", e.loc)
                return env[n]
            case A.Neg(operand=o):
                v = self.expr(o, env, path)
                return z3.fpNeg(v) if is_float(v) else -v
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
                items = tuple(self.expr(x, env, path) for x in es)
                if any(x is NONE for x in items):
                    raise EncodingError("a bare None inside a tuple is not encoded", e.loc)
                return items
            case A.Proj(tuple=t, index=i):
                tv = self.expr(t, env, path)
                if not isinstance(tv, tuple) or not 0 <= i < len(tv):
                    raise EncodingError(f"projection [{i}] of a non-tuple or out of range", e.loc)
                return tv[i]
            case A.Call(func=name, args=args):
                # None as a slice bound or a split separator means "absent"
                vals = [None if isinstance(a, A.NoneLit) else self.expr(a, env, path) for a in args]
                return self._call(name, vals, env, path, e.loc)
            case A.Apply(fn=fn, args=args):
                vals = [self.expr(a, env, path) for a in args]
                return self.apply(fn, vals, env, path)
        raise EncodingError(f"{type(e).__name__} is not a basic expression", e.loc)

    def _binop(self, op: str, a: Sym, b: Sym, path: z3.BoolRef) -> Sym:
        if op == "==":
            return py_eq(a, b)
        if op == "!=":
            return z3.Not(py_eq(a, b))
        if op == "in":
            if is_str(b):
                return z3.Contains(b, a)
            if is_list(b) and not is_float_seq(b) and not _floats_inside(a):
                return z3.Contains(b, z3.Unit(a))
            raise EncodingError("'in' over this value is not encoded")
        if is_str(a) or is_list(a):
            if op != "+":
                raise EncodingError(f"'{op}' on strings or lists is not encoded")
            return z3.Concat(a, b)
        if is_float(a) or is_float(b):
            return self._float_binop(op, a, b, path)
        if op == "/":  # int / int: the exact quotient rounded once (CPython); opaque unless both are known
            self.hazard(path, b == 0, ZERO_DIVISION)
            if z3.is_int_value(a) and z3.is_int_value(b) and b.as_long() != 0:
                try:
                    return z3.FPVal(a.as_long() / b.as_long(), F64)
                except OverflowError:
                    self.hazard(path, z3.BoolVal(True), OVERFLOW_ERROR)
                    return z3.FPVal(float("inf"), F64)
            a, b = as_number(a), as_number(b)
            self.hazard(path, z3.And(b != 0, self.uf("truediv_overflows", (a, b), z3.BoolSort())),
                        OVERFLOW_ERROR)
            return self.uf("truediv", (a, b), F64)
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

    def _float_binop(self, op: str, a: Sym, b: Sym, path: z3.BoolRef) -> Sym:
        if op in ("<", "<=", ">", ">="):
            return num_compare(op, a, b)
        if not (is_float(a) and is_float(b)):
            raise EncodingError(f"'{op}' mixing Int and Float (the type checker asks for float(...))")
        if op == "+":
            return z3.fpAdd(RNE, a, b)
        if op == "-":
            return z3.fpSub(RNE, a, b)
        if op == "*":
            return z3.fpMul(RNE, a, b)
        self.hazard(path, z3.fpIsZero(b), ZERO_DIVISION)
        if op == "/":
            return z3.fpDiv(RNE, a, b)
        # Python's float // and % (floor, sign of the divisor): uninterpreted, shared by both programs
        return self.uf(f"float{op}", (a, b), F64)

    def uf(self, name: str, args: Sequence[z3.ExprRef], result: z3.SortRef) -> z3.ExprRef:
        """An uninterpreted function named by the builtin and its argument sorts, so that both programs
        (encoded by different encoders) use the same symbol for the same builtin."""
        sorts = [a.sort() for a in args]
        tag = "_".join("".join(ch for ch in str(x) if ch.isalnum()) for x in sorts)
        f = z3.Function(f"py_{name}_{tag}", *sorts, result)
        return f(*args)

    def _call_library(self, name: str, vals: list[Sym], path: z3.BoolRef, loc: A.Loc | None) -> Sym:
        """The builtins of ``sparklite.builtins`` (see the module doc for what is exact)."""
        v = vals[0] if vals else None
        if name == "len":
            if isinstance(v, tuple):
                return z3.IntVal(len(v))
            return z3.Length(v)
        if name == "abs" and is_float(v):
            return z3.fpAbs(v)
        if name == "abs":
            n = as_number(v)
            return z3.If(n >= 0, n, -n)
        if name in ("min", "max") and len(vals) > 1:
            acc = vals[0]
            for x in vals[1:]:
                acc = sym_min(acc, x) if name == "min" else sym_max(acc, x)
            return acc
        if name == "float":
            if is_str(v):
                self.hazard(path, self.uf("float_fails", (v,), z3.BoolSort()), VALUE_ERROR)
                return self.uf("float", (v,), F64)
            if is_float(v):
                return v
            n = as_number(v)
            if z3.is_int_value(n):
                try:
                    return z3.FPVal(float(n.as_long()), F64)
                except OverflowError:
                    self.hazard(path, z3.BoolVal(True), OVERFLOW_ERROR)
                    return z3.FPVal(float("inf"), F64)
            # float(n) rounds n to the nearest double: opaque (bit-blasting an unbounded int is costly)
            self.hazard(path, self.uf("float_overflows", (n,), z3.BoolSort()), OVERFLOW_ERROR)
            return self.uf("float", (n,), F64)
        if name == "int":
            if is_str(v):
                self.hazard(path, self.uf("int_fails", (v,), z3.BoolSort()), VALUE_ERROR)
                return self.uf("int", (v,), z3.IntSort())
            if is_float(v):
                self.hazard(path, z3.fpIsNaN(v), VALUE_ERROR)
                self.hazard(path, z3.fpIsInf(v), OVERFLOW_ERROR)
                return _trunc(v)
            return as_number(v)
        if name == "round" and len(vals) == 1:
            if is_float(v):
                self.hazard(path, z3.fpIsNaN(v), VALUE_ERROR)
                self.hazard(path, z3.fpIsInf(v), OVERFLOW_ERROR)
                return _trunc(z3.fpRoundToIntegral(RNE, v))
            return as_number(v)
        if name in ("math.floor", "math.ceil"):
            if not is_float(v):
                return as_number(v)
            self.hazard(path, z3.fpIsNaN(v), VALUE_ERROR)
            self.hazard(path, z3.fpIsInf(v), OVERFLOW_ERROR)
            mode = z3.RTN() if name == "math.floor" else z3.RTP()
            return _trunc(z3.fpRoundToIntegral(mode, v))
        if name == "math.sqrt":
            f = v if is_float(v) else self._call_library("float", [v], path, loc)
            self.hazard(path, z3.fpLT(f, z3.FPVal(0.0, F64)), VALUE_ERROR)
            return z3.fpSqrt(RNE, f)
        if name == "str.startswith":
            return z3.PrefixOf(vals[1], v)
        if name == "str.endswith":
            return z3.SuffixOf(vals[1], v)
        if name == "str.split":
            sep = vals[1] if len(vals) == 2 and is_str(vals[1]) else None
            if sep is None:
                return self.uf("split", (v,), z3.SeqSort(z3.StringSort()))
            if not (z3.is_string_value(sep) and sep.as_string()):
                self.hazard(path, sep == z3.StringVal(""), VALUE_ERROR)
            return self.uf("split_sep", (v, sep), z3.SeqSort(z3.StringSort()))
        if name in ("str.strip", "str.lower", "str.upper", "str.replace", "str.ascii_ignore"):
            return self.uf(name, tuple(vals), z3.StringSort())
        if name in ("re.split", "re.findall"):  # Python's re: uninterpreted, shared by both programs
            return self.uf(name, tuple(vals), z3.SeqSort(z3.StringSort()))
        if name == "re.sub":
            return self.uf(name, tuple(vals), z3.StringSort())
        if name == "py.flatten" and is_list(v) and isinstance(v.sort().basis(), z3.SeqSortRef):
            return self.uf(name, (v,), v.sort().basis())
        if name == "str.find":  # uninterpreted: the same text and substring give the same index
            return self.uf(name, tuple(vals), z3.IntSort())
        if name == "str.utf8_repr":  # uninterpreted; fails on a lone surrogate
            self.hazard(path, self.uf("utf8_fails", tuple(vals), z3.BoolSort()), VALUE_ERROR)
            return self.uf(name, tuple(vals), z3.StringSort())
        if name == "py.format":  # uninterpreted: the same value and spec give the same text
            self.hazard(path, self.uf("format_fails", tuple(vals), z3.BoolSort()), VALUE_ERROR)
            self.hazard(path, self.uf("format_overflows", tuple(vals), z3.BoolSort()), OVERFLOW_ERROR)
            return self.uf("format", tuple(vals), z3.StringSort())
        if name == "str":
            if v is NONE or v is None:
                return z3.StringVal("None")
            if isinstance(v, Opt):  # str(None) is 'None': Python prints an optional value either way
                shown = self._call_library("str", [v.value], z3.And(path, z3.Not(v.is_none)), loc)
                return z3.If(v.is_none, z3.StringVal("None"), shown)
            if is_str(v):
                return v
            if isinstance(v, tuple) or is_list(v):
                raise EncodingError("str() of a tuple or a list is not encoded", loc)
            if z3.is_int(v):  # Python refuses to print an int of more than 4300 digits
                self.hazard(path, self.uf("str_fails", (v,), z3.BoolSort()), VALUE_ERROR)
            return self.uf("str", (v,), z3.StringSort())
        if name == "py.is_none":
            if v is NONE or v is None:
                return z3.BoolVal(True)
            return v.is_none if isinstance(v, Opt) else z3.BoolVal(False)
        if name == "py.undefined":  # always NameError (sparklite.builtins); the value is never used
            self.hazard(path, z3.BoolVal(True), "NameError")
            return v
        if name == "py.unwrap":
            if not isinstance(v, Opt):
                raise EncodingError("py.unwrap of a value that is not optional", loc)
            self.hazard(path, v.is_none, TYPE_ERROR)
            return v.value
        if name == "py.getitem":
            i = as_number(vals[1])
            n = z3.Length(v)
            self.hazard(path, z3.Or(i >= n, i < -n), INDEX_ERROR)
            j = z3.If(i < 0, n + i, i)
            return z3.SubString(v, j, 1) if is_str(v) else v[j]
        if name == "py.slice":
            n = z3.Length(v)
            lo = self._bound(vals[1], n, z3.IntVal(0))
            hi = self._bound(vals[2], n, n)
            return z3.Extract(v, lo, z3.If(hi > lo, hi - lo, z3.IntVal(0))) if is_str(v) else \
                z3.SubSeq(v, lo, z3.If(hi > lo, hi - lo, z3.IntVal(0)))
        if name == "py.unpack":
            k = vals[1]
            if not z3.is_int_value(k):
                raise EncodingError("py.unpack needs a literal length", loc)
            count = k.as_long()
            if isinstance(v, tuple):
                if len(v) != count:
                    self.hazard(path, z3.BoolVal(True), VALUE_ERROR)
                return v
            self.hazard(path, z3.Length(v) != count, VALUE_ERROR)
            if is_str(v):
                return tuple(z3.SubString(v, i, 1) for i in range(count))
            return tuple(v[i] for i in range(count))
        if name in ("sum", "sorted", "min", "max") and is_list(v):
            if name in ("min", "max"):
                self.hazard(path, z3.Length(v) == 0, VALUE_ERROR)
            basis = v.sort().basis()
            if name == "sum" and len(vals) == 2:  # sum(xs, start): the start is an argument too
                start = vals[1]
                result = F64 if is_float(start) or basis == F64 else z3.IntSort()
                if is_float(start) and basis != F64:  # ints added to a float: OverflowError past 1e308
                    self.hazard(path, self.uf("list_sum_from_fails", (v, start), z3.BoolSort()),
                                OVERFLOW_ERROR)
                return self.uf("list_sum_from", (v, start), result)
            if name == "sum":  # of ints or bools: an int; of floats: a float
                return self.uf("list_sum", (v,), F64 if basis == F64 else z3.IntSort())
            return self.uf(f"list_{name}", (v,), v.sort() if name == "sorted" else basis)
        raise EncodingError(f"the builtin {name} is not encoded for these arguments", loc)

    def _bound(self, b: Sym | None, n: z3.ArithRef, default: z3.ArithRef) -> z3.ArithRef:
        """A slice bound as Python normalises it: negative counts from the end, then clamped."""
        if b is None:
            return default
        i = as_number(b)
        j = z3.If(i < 0, n + i, i)
        return z3.If(j < 0, z3.IntVal(0), z3.If(j > n, n, j))

    def _call(self, name: str, vals: list[Sym], env: Mapping[str, Sym], path: z3.BoolRef,
              loc: A.Loc | None) -> Sym:
        if name not in self.defs and name in LIBRARY and (
                name not in ("min", "max", "abs") or len(vals) == 1 or any(
                    not isinstance(x, tuple) and not (z3.is_int(x) or z3.is_bool(x)) for x in vals)):
            return self._call_library(name, vals, path, loc)
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


def _trunc(f: z3.FPRef) -> z3.ArithRef:
    """``int(f)`` of a finite float: its value truncated toward zero (exact, unbounded)."""
    r = z3.fpToReal(f)
    return z3.If(r >= 0, z3.ToInt(r), -z3.ToInt(-r))


def is_bag_type(t: Type) -> bool:
    return isinstance(t, BagType)
