"""The SparkLite type checker: accepts or rejects a program and *elaborates* it.

Why elaborate: lambda parameters and the parameters of ``def``s may be written without types (the
frontend translates ``lambda x: ...`` from Python), and later passes (interpreter, encoder) must never
guess them. ``typecheck`` returns ``ProgramTypes`` whose ``program`` is the same program with every
``Param.type`` (and every ``FunDef.ret``) filled in, so ``typecheck(p).program`` is what they consume.

Typing is bidirectional and monomorphic: a bag operator knows the types its function receives (``map``
passes the element type) and checks the function against them; a ``def`` with unannotated parameters gets
its types at its first use, and every later use must agree. All errors are ``TypeCheckError`` or
``NameResolutionError`` located at the offending node; the messages name the construct and the types
("map's function expects Int but the bag holds (Int, Int)").

Restrictions enforced here (see docs/sparklite.md for the full rules): ``Int`` and ``Bool`` are distinct;
function bodies are basic expressions that may read enclosing basic values but no bag, and contain no bag
operator or aggregation; tuples may hold bags only in the program's result; no shadowing, no recursion
(a ``def`` sees only earlier ``def``s).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from sparklite import ast as A
from sparklite import builtins as B
from sparklite.errors import NameResolutionError, TypeCheckError
from sparklite.printer import pretty_type
from sparklite.scope import BUILTIN_FUNCTIONS, Entry, FunEntry, Scope, VarEntry
from sparklite.types import (
    BOOL,
    FLOAT,
    INT,
    NONE,
    NUM,
    STR,
    BagType,
    DictType,
    ListType,
    NoneType_,
    OptionType,
    StrType,
    TupleType,
    Type,
    contains_bag,
    is_basic,
    is_hashable,
    is_ordered,
    join_types,
    optional,
)

__all__ = ["FunSig", "ParamFunSig", "ProgramTypes", "typecheck", "type_of"]


@dataclass(frozen=True)
class FunSig:
    """The (monomorphic) type of a first-order function."""

    params: tuple[Type, ...]
    result: Type


@dataclass(frozen=True)
class ParamFunSig:
    """A parametric function ``def F(params) = lambda (fn params) -> body``."""

    params: tuple[Type, ...]
    fn: FunSig


@dataclass(frozen=True)
class ProgramTypes:
    """What the checker learned. ``program`` is elaborated (all parameter types filled in)."""

    program: A.Program
    result: Type
    params: Mapping[str, Type]
    lets: Mapping[str, Type]
    functions: Mapping[str, FunSig]
    parametric: Mapping[str, ParamFunSig]
    _node_types: Mapping[int, tuple[A.Node, Type]] = field(default_factory=dict, repr=False, compare=False)

    def type_of_node(self, node: A.Expr) -> Type:
        """The type of an expression node *of the elaborated program* (by identity: equal-looking nodes in
        different lambdas may have different types). Raises ``KeyError`` for any other node."""
        entry = self._node_types.get(id(node))
        if entry is None or entry[0] is not node:
            raise KeyError(f"not an expression of this elaborated program: {node!r}")
        return entry[1]


def T(t: Type) -> str:  # noqa: N802 - short on purpose: used in every message
    try:
        return pretty_type(t)
    except TypeError:  # a type the printer has no syntax for: its own spelling
        return str(t)


# ---------------------------------------------------------------------------------------------------
# What a bag operator passes to its function (for checking and for messages)
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Expect:
    """``ctx`` names the function's role ("map's function"); ``args`` are the types it receives and
    ``descs`` say where each comes from ("the bag holds (Int, Int)")."""

    ctx: str
    args: tuple[Type, ...]
    descs: tuple[str, ...]


# ---------------------------------------------------------------------------------------------------
# Definitions: resolved eagerly when fully annotated, otherwise at their first use
# ---------------------------------------------------------------------------------------------------


@dataclass
class _DefState:
    node: A.Def
    scope: Scope  # the scope at the definition: inputs and earlier defs only
    elaborated: A.Def | None = None
    sig: FunSig | ParamFunSig | None = None


class _Checker:
    def __init__(self, program: A.Program | None = None) -> None:
        self.node_types: dict[int, tuple[A.Node, Type]] = {}
        self.defs: dict[str, _DefState] = {}
        self.def_order: dict[str, int] = {}
        self.let_locs: dict[str, A.Loc | None] = {}
        if program is not None:
            self.def_order = {d.name: i for i, d in enumerate(program.defs)}
            self.let_locs = {b.name: b.loc for b in program.lets}

    def note(self, node: A.Expr, t: Type) -> tuple[A.Expr, Type]:
        self.node_types[id(node)] = (node, t)
        return node, t

    # -- names --------------------------------------------------------------------------------------

    def unknown(self, name: str, loc: A.Loc | None, scope: Scope) -> NameResolutionError:
        if name in self.def_order:
            return NameResolutionError(
                f"'{name}' is not defined here: a function may only call functions defined before it "
                "(no recursion)", loc)
        if name in self.let_locs:
            where = self.let_locs[name]
            line = f" (line {where.line})" if where is not None else ""
            if scope.in_function and name not in scope.names:
                return NameResolutionError(
                    f"'{name}' is not defined here: let {name}{line} comes later, or is not visible "
                    "in function definitions (defs come before lets)", loc)
            return NameResolutionError(f"'{name}' is used before its definition: let {name}{line}", loc)
        return NameResolutionError(f"unknown name '{name}'", loc)

    def bind_params(self, scope: Scope, params: Sequence[A.Param], types: Sequence[Type],
                    owner: str) -> Scope:
        seen: set[str] = set()
        for p, t in zip(params, types, strict=True):
            if p.name in seen:
                raise NameResolutionError(f"{owner} has two parameters named '{p.name}'", p.loc)
            seen.add(p.name)
            scope = scope.bind(p.name, VarEntry(t, f"parameter of {owner}", p.loc), p.loc)
        return scope

    # -- functions ----------------------------------------------------------------------------------

    def param_types(self, params: Sequence[A.Param], expect: _Expect, ctx: str, loc: A.Loc | None
                    ) -> tuple[Type, ...]:
        """Parameter types from ``expect``, checking arity and any annotations against them."""
        if len(params) != len(expect.args):
            raise TypeCheckError(
                f"{ctx} takes {_count(len(params), 'parameter')} but receives {len(expect.args)} "
                f"({'; '.join(expect.descs) or 'no arguments'})", loc)
        out = []
        for i, (p, t) in enumerate(zip(params, expect.args, strict=True)):
            if p.type is not None and p.type != t:
                which = f" for {p.name}" if len(params) > 1 else ""
                raise TypeCheckError(f"{ctx} expects {T(p.type)}{which} but {expect.descs[i]}", p.loc or loc)
            out.append(t)
        return tuple(out)

    def check_fn(self, fn: A.Fn, expect: _Expect, scope: Scope) -> tuple[A.Fn, Type]:
        """Check a function argument of a bag operator (or of ``apply``); returns it elaborated and the
        type of its result."""
        if isinstance(fn, A.Lambda):
            types = self.param_types(fn.params, expect, expect.ctx, fn.loc)
            params = tuple(dataclasses.replace(p, type=t) for p, t in zip(fn.params, types, strict=True))
            body_scope = self.bind_params(scope.inside(expect.ctx), fn.params, types, expect.ctx)
            body, rt = self.expr(fn.body, body_scope)
            return dataclasses.replace(fn, params=params, body=body), rt
        if isinstance(fn, A.FnRef):
            st = self.function_state(fn.name, fn.loc, scope, parametric=False)
            sig = self.resolve_fundef(st, expect, f"{expect.ctx} {fn.name}", fn.loc)
            return dataclasses.replace(fn), sig.result
        if isinstance(fn, A.PApp):
            st = self.function_state(fn.name, fn.loc, scope, parametric=True)
            args, arg_types = self.basic_args(fn.args, scope, fn.name)
            psig = self.resolve_paramfundef(st, arg_types, expect, fn.loc, f"{expect.ctx} {fn.name}(...)")
            return dataclasses.replace(fn, args=args), psig.fn.result
        raise TypeCheckError(f"{expect.ctx} must be a function (a name, F(args) or a lambda)",
                             getattr(fn, "loc", None))

    def function_state(self, name: str, loc: A.Loc | None, scope: Scope, *, parametric: bool) -> _DefState:
        entry = scope.lookup(name)
        if entry is None:
            if name in BUILTIN_FUNCTIONS:
                raise TypeCheckError(f"the builtin '{name}' cannot be passed as a function; write a lambda, "
                                     f"e.g. lambda (x) -> {name}(x{', x' if name != 'abs' else ''})", loc)
            raise self.unknown(name, loc, scope)
        if isinstance(entry, VarEntry):
            raise TypeCheckError(f"'{name}' is a value of type {T(entry.type)}, not a function", loc)
        if entry.parametric and not parametric:
            raise TypeCheckError(f"'{name}' is a parametric function: give its parameters, "
                                 f"e.g. {name}(...)", loc)
        if not entry.parametric and parametric:
            raise TypeCheckError(f"'{name}' is an ordinary function, not a parametric one: pass it as "
                                 f"'{name}' or call it on values", loc)
        return self.defs[name]

    def resolve_fundef(self, st: _DefState, expect: _Expect, ctx: str, loc: A.Loc | None) -> FunSig:
        d = st.node
        assert isinstance(d, A.FunDef)
        if st.sig is not None:
            assert isinstance(st.sig, FunSig)
            self.match_sig(d.params, st.sig.params, expect, ctx, loc)
            return st.sig
        types = self.param_types(d.params, expect, ctx, loc)
        return self.define_fundef(st, types)

    def match_sig(self, params: Sequence[A.Param], want: Sequence[Type], expect: _Expect, ctx: str,
                  loc: A.Loc | None) -> None:
        """A resolved function is monomorphic: every use must pass exactly its parameter types."""
        if len(want) != len(expect.args):
            raise TypeCheckError(f"{ctx} takes {_count(len(want), 'parameter')} but receives "
                                 f"{len(expect.args)} ({'; '.join(expect.descs) or 'no arguments'})", loc)
        for i, (w, got) in enumerate(zip(want, expect.args, strict=True)):
            if w != got:
                which = f" for {params[i].name}" if len(params) > 1 else ""
                raise TypeCheckError(f"{ctx} expects {T(w)}{which} but {expect.descs[i]}", loc)

    def define_fundef(self, st: _DefState, types: tuple[Type, ...]) -> FunSig:
        d = st.node
        assert isinstance(d, A.FunDef)
        owner = f"function {d.name}"
        scope = self.bind_params(st.scope.inside(owner), d.params, types, owner)
        body, rt = self.expr(d.body, scope)
        if d.ret is not None and d.ret != rt:
            raise TypeCheckError(f"function {d.name} is declared to return {T(d.ret)} but returns {T(rt)}",
                                 d.body.loc or d.loc)
        params = tuple(dataclasses.replace(p, type=t) for p, t in zip(d.params, types, strict=True))
        st.elaborated = dataclasses.replace(d, params=params, ret=rt, body=body)
        st.sig = FunSig(types, rt)
        return st.sig

    def resolve_paramfundef(self, st: _DefState, arg_types: tuple[Type, ...], expect: _Expect,
                            loc: A.Loc | None, ctx: str) -> ParamFunSig:
        d = st.node
        assert isinstance(d, A.ParamFunDef)
        pdescs = tuple(f"argument {i + 1} has type {T(t)}" for i, t in enumerate(arg_types))
        pexpect = _Expect(d.name, arg_types, pdescs)
        if st.sig is not None:
            assert isinstance(st.sig, ParamFunSig)
            self.match_sig(d.params, st.sig.params, pexpect, f"parametric function {d.name}", loc)
            self.match_sig(d.fn.params, st.sig.fn.params, expect, ctx, loc)
            return st.sig
        ptypes = self.param_types(d.params, pexpect, f"parametric function {d.name}", loc)
        ftypes = self.param_types(d.fn.params, expect, ctx, loc)
        return self.define_paramfundef(st, ptypes, ftypes)

    def define_paramfundef(self, st: _DefState, ptypes: tuple[Type, ...], ftypes: tuple[Type, ...]
                           ) -> ParamFunSig:
        d = st.node
        assert isinstance(d, A.ParamFunDef)
        owner = f"function {d.name}"
        scope = self.bind_params(st.scope.inside(owner), d.params, ptypes, owner)
        scope = self.bind_params(scope, d.fn.params, ftypes, owner)
        body, rt = self.expr(d.fn.body, scope)
        params = tuple(dataclasses.replace(p, type=t) for p, t in zip(d.params, ptypes, strict=True))
        fparams = tuple(dataclasses.replace(p, type=t) for p, t in zip(d.fn.params, ftypes, strict=True))
        fn = dataclasses.replace(d.fn, params=fparams, body=body)
        st.elaborated = dataclasses.replace(d, params=params, fn=fn)
        st.sig = ParamFunSig(ptypes, FunSig(ftypes, rt))
        return st.sig

    def basic_args(self, args: Sequence[A.Expr], scope: Scope, callee: str
                   ) -> tuple[tuple[A.Expr, ...], tuple[Type, ...]]:
        out, types = [], []
        for i, a in enumerate(args):
            e, t = self.expr(a, scope)
            if not is_basic(t):
                raise TypeCheckError(f"argument {i + 1} of {callee} is a bag ({T(t)}); functions take basic "
                                     "values (Int, Bool and tuples of them)", a.loc)
            out.append(e)
            types.append(t)
        return tuple(out), tuple(types)

    # -- expressions --------------------------------------------------------------------------------

    def expr(self, e: A.Expr, scope: Scope, *, result: bool = False) -> tuple[A.Expr, Type]:
        """Check ``e``; ``result`` is true only along the program result's top-level tuples, the one place
        where a tuple may hold a bag."""
        if isinstance(e, A.IntLit):
            return self.note(dataclasses.replace(e), INT)
        if isinstance(e, A.BoolLit):
            return self.note(dataclasses.replace(e), BOOL)
        if isinstance(e, A.StrLit):
            return self.note(dataclasses.replace(e), STR)
        if isinstance(e, A.FloatLit):
            if e.value != e.value or e.value in (float("inf"), float("-inf")):
                raise TypeCheckError("a float literal must be finite (write float(\"nan\"))", e.loc)
            return self.note(dataclasses.replace(e), FLOAT)
        if isinstance(e, A.NoneLit):
            return self.note(dataclasses.replace(e), NONE)
        if isinstance(e, A.ListExpr):
            elems, t = [], ListType(NONE)
            for x in e.elems:
                y, xt = self.expr(x, scope)
                if not is_basic(xt):
                    raise TypeCheckError(f"a list holds basic values, not {T(xt)}", x.loc)
                joined = join_types(t, ListType(xt))
                if joined is None:
                    raise TypeCheckError(f"a list holds values of one type, not {T(t)} and {T(xt)}", x.loc)
                t = joined  # type: ignore[assignment]
                elems.append(y)
            return self.note(dataclasses.replace(e, elems=tuple(elems)), t)
        if isinstance(e, A.ListComp):
            src, st = self.expr(e.source, scope)
            if isinstance(st, ListType):
                elem = st.elem
            elif st == STR:
                elem = STR
            else:
                raise TypeCheckError(f"a comprehension iterates over a list or a Str, not {T(st)}", e.loc)
            expect = _Expect("the comprehension", (elem,), (f"it iterates over {T(st)}",))
            fn, rt = self.check_fn(e.fn, expect, scope)
            cond = None
            if e.cond is not None:
                cond, ct = self.check_fn(e.cond, expect, scope)
                if ct != BOOL:
                    raise TypeCheckError(f"a comprehension's condition must be Bool, not {T(ct)}", e.loc)
            return self.note(dataclasses.replace(e, fn=fn, source=src, cond=cond), ListType(rt))
        if isinstance(e, A.Var):
            return self.note(dataclasses.replace(e), self.var(e, scope))
        if isinstance(e, A.BinOp):
            return self.binop(e, scope)
        if isinstance(e, A.Not):
            x, t = self.expr(e.operand, scope)
            _want(t, BOOL, e.operand, "'not' needs a Bool operand")
            return self.note(dataclasses.replace(e, operand=x), BOOL)
        if isinstance(e, A.Neg):
            x, t = self.expr(e.operand, scope)
            if t != FLOAT:
                _want(t, INT, e.operand, "unary '-' needs an Int or Float operand")
            return self.note(dataclasses.replace(e, operand=x), t)
        if isinstance(e, A.Ite):
            c, ct = self.expr(e.cond, scope)
            _want(ct, BOOL, e.cond, "the condition of 'if' must be Bool")
            a, at = self.expr(e.then, scope)
            b, bt = self.expr(e.orelse, scope)
            if not is_basic(at) or not is_basic(bt):
                raise TypeCheckError("'if' chooses between basic values, not bags (branches have types "
                                     f"{T(at)} and {T(bt)})", e.loc)
            joined = join_types(at, bt)
            if joined is None:
                raise TypeCheckError(f"the branches of 'if' must have one type, not {T(at)} and {T(bt)}",
                                     e.loc)
            return self.note(dataclasses.replace(e, cond=c, then=a, orelse=b), joined)
        if isinstance(e, A.TupleExpr):
            if not e.elems:
                raise TypeCheckError("the empty tuple () is not a SparkLite value", e.loc)
            elems, types = [], []
            for x in e.elems:
                y, t = self.expr(x, scope, result=result)
                if contains_bag(t) and not result:
                    raise TypeCheckError(f"a tuple can hold a bag ({T(t)}) only in the program's result",
                                         x.loc)
                elems.append(y)
                types.append(t)
            return self.note(dataclasses.replace(e, elems=tuple(elems)), TupleType(tuple(types)))
        if isinstance(e, A.Proj):
            x, t = self.expr(e.tuple, scope)
            if not isinstance(t, TupleType):
                raise TypeCheckError(f"cannot take [{e.index}] of a value of type {T(t)}: it is not a tuple",
                                     e.loc)
            if not 0 <= e.index < len(t.elems):
                raise TypeCheckError(f"index {e.index} is out of range for a tuple of type {T(t)} "
                                     f"(valid: 0 to {len(t.elems) - 1})", e.loc)
            return self.note(dataclasses.replace(e, tuple=x), t.elems[e.index])
        if isinstance(e, A.Call):
            return self.call(e, scope)
        if isinstance(e, A.Apply):
            args, types = self.basic_args(e.args, scope, "the applied function")
            descs = tuple(f"argument {i + 1} has type {T(t)}" for i, t in enumerate(types))
            fn, rt = self.check_fn(e.fn, _Expect("the applied function", types, descs), scope)
            return self.note(dataclasses.replace(e, fn=fn, args=args), rt)
        return self.bag_expr(e, scope)

    def var(self, e: A.Var, scope: Scope) -> Type:
        entry: Entry | None = scope.lookup(e.name)
        if entry is None:
            if e.name in BUILTIN_FUNCTIONS:
                raise TypeCheckError(f"'{e.name}' is a builtin function, not a value", e.loc)
            raise self.unknown(e.name, e.loc, scope)
        if isinstance(entry, FunEntry):
            raise TypeCheckError(f"'{e.name}' is a function, not a value: call it or pass it to an operator",
                                 e.loc)
        if scope.in_function and contains_bag(entry.type):
            raise TypeCheckError(f"{scope.function} cannot use the bag '{e.name}' ({T(entry.type)}): "
                                 "functions work on single elements and basic values", e.loc)
        return entry.type

    def binop(self, e: A.BinOp, scope: Scope) -> tuple[A.Expr, Type]:
        left, lt = self.expr(e.left, scope)
        right, rt = self.expr(e.right, scope)
        out = dataclasses.replace(e, left=left, right=right)
        if e.op == "+" and lt == rt and isinstance(lt, StrType | ListType):
            return self.note(out, lt)  # concatenation
        if e.op in A.ARITH_OPS:
            if lt == FLOAT and rt == FLOAT:
                return self.note(out, FLOAT)
            if e.op == "/" and lt == INT and rt == INT:
                return self.note(out, FLOAT)  # true division of ints (correctly rounded)
            if {lt, rt} == {INT, FLOAT}:
                raise TypeCheckError(f"'{e.op}' mixes Int and Float: convert the Int with float(...) "
                                     "(Python converts it implicitly, and may raise OverflowError)", e.loc)
            for side, t, node in (("left", lt, e.left), ("right", rt, e.right)):
                if t != INT:
                    raise TypeCheckError(f"'{e.op}' needs Int operands but the {side} operand has type "
                                         f"{T(t)}", node.loc or e.loc)
            return self.note(out, INT)
        if e.op in ("<", "<=", ">", ">="):
            if {lt, rt} <= {INT, FLOAT, NUM} or (lt == rt and is_ordered(lt) and not lt == BOOL
                                                  and lt != INT):  # Num: an int or a float
                return self.note(out, BOOL)
            for side, t, node in (("left", lt, e.left), ("right", rt, e.right)):
                if t != INT:
                    raise TypeCheckError(f"'{e.op}' needs Int operands but the {side} operand has type "
                                         f"{T(t)}", node.loc or e.loc)
            return self.note(out, BOOL)
        if e.op in ("==", "!="):
            if not is_basic(lt) or not is_basic(rt):
                raise TypeCheckError(f"'{e.op}' compares basic values, not bags ({T(lt)} and {T(rt)})", e.loc)
            if lt != rt and not {lt, rt} <= {INT, FLOAT, NUM} and join_types(lt, rt) is None:
                raise TypeCheckError(f"'{e.op}' compares values of one type, not {T(lt)} and {T(rt)}", e.loc)
            return self.note(out, BOOL)
        if e.op in A.BOOL_OPS:
            for side, t, node in (("left", lt, e.left), ("right", rt, e.right)):
                if t != BOOL:
                    raise TypeCheckError(f"'{e.op}' needs Bool operands but the {side} operand has type "
                                         f"{T(t)}", node.loc or e.loc)
            return self.note(out, BOOL)
        if e.op == "in":
            if rt == STR and lt == STR:
                return self.note(out, BOOL)
            if isinstance(rt, ListType) and (rt.elem == lt or join_types(rt.elem, lt) is not None):
                return self.note(out, BOOL)
            raise TypeCheckError(f"'in' tests a Str in a Str or a value in a list, not {T(lt)} in {T(rt)}",
                                 e.loc)
        raise TypeCheckError(f"unknown operator '{e.op}'", e.loc)

    def call(self, e: A.Call, scope: Scope) -> tuple[A.Expr, Type]:
        args, types = self.basic_args(e.args, scope, e.func)
        out = dataclasses.replace(e, args=args)
        if e.func in BUILTIN_FUNCTIONS and scope.lookup(e.func) is None and not (
                len(args) == 1 or any(t not in (INT, BOOL) and not isinstance(t, TupleType) for t in types)):
            if e.func == "abs" and len(args) != 1:
                raise TypeCheckError(f"abs takes 1 argument but is given {len(args)}", e.loc)
            if e.func != "abs" and len(args) < 2:
                raise TypeCheckError(f"{e.func} of values takes at least 2 arguments but is given "
                                     f"{len(args)} (for the {e.func} of a bag write {e.func}(R))", e.loc)
            if e.func == "abs":
                if types[0] != INT:
                    raise TypeCheckError(f"abs needs an Int argument but it has type {T(types[0])}",
                                         e.args[0].loc or e.loc)
                return self.note(out, INT)
            for i, t in enumerate(types):  # Python orders ints, bools and tuples of them
                if not is_ordered(t) or t != types[0]:
                    raise TypeCheckError(f"{e.func} needs arguments of one ordered type (Int, Bool or tuples "
                                         f"of them) but argument {i + 1} has type {T(t)}",
                                         e.args[i].loc or e.loc)
            return self.note(out, types[0])
        lib = B.lookup(e.func)
        if lib is not None and scope.lookup(e.func) is None:
            if len(args) not in lib.arity:
                raise TypeCheckError(f"{e.func} takes {' or '.join(map(str, lib.arity))} arguments but is "
                                     f"given {len(args)}", e.loc)
            try:
                if e.func == "py.unpack":
                    if not isinstance(args[1], A.IntLit) or args[1].value < 0:
                        raise B.BuiltinTypeError("py.unpack needs a literal length")
                    rt = B.unpack_type(types[0], args[1].value)
                else:
                    rt = lib.typing(types)
            except B.BuiltinTypeError as exc:
                raise TypeCheckError(str(exc), e.loc) from None
            return self.note(out, rt)
        entry = scope.lookup(e.func)
        if isinstance(entry, FunEntry) and entry.parametric:
            raise TypeCheckError(f"'{e.func}' is a parametric function: {e.func}(...) makes a function; "
                                 f"apply it to values as {e.func}(...)(x)", e.loc)
        st = self.function_state(e.func, e.loc, scope, parametric=False)
        descs = tuple(f"argument {i + 1} has type {T(t)}" for i, t in enumerate(types))
        sig = self.resolve_fundef(st, _Expect(e.func, types, descs), f"function {e.func}", e.loc)
        return self.note(out, sig.result)

    # -- bag operators and aggregations -------------------------------------------------------------

    def bag(self, e: A.Expr, scope: Scope, op: str) -> tuple[A.Expr, Type]:
        x, t = self.expr(e, scope)
        if not isinstance(t, BagType):
            raise TypeCheckError(f"{op} needs a bag but this has type {T(t)}", e.loc)
        return x, t.elem

    def pair_bag(self, e: A.Expr, scope: Scope, op: str) -> tuple[A.Expr, Type, Type]:
        x, t = self.bag(e, scope, op)
        if not isinstance(t, TupleType) or len(t.elems) != 2:
            raise TypeCheckError(f"{op} needs a bag of (key, value) pairs but the bag holds {T(t)}", e.loc)
        return x, t.elems[0], t.elems[1]

    def basic_zero(self, e: A.Expr, scope: Scope, op: str) -> tuple[A.Expr, Type]:
        x, t = self.expr(e, scope)
        if not is_basic(t):
            raise TypeCheckError(f"{op}'s zero value must be a basic value, not {T(t)}", e.loc)
        return x, t

    def hashable(self, t: Type, op: str, e: A.Expr) -> None:
        if not is_hashable(t):
            raise TypeCheckError(f"{op} hashes its elements (or keys), and {T(t)} is not hashable in Python",
                                 e.loc)

    def accumulator_zero(self, zero: A.Expr, zt: Type, want: Type | None) -> Type:
        """The type of an aggregation's zero value, read as the accumulator type ``want`` when the zero is
        a value of it: ``[]`` is typed ``List[None]`` (the empty list's type), which is also a
        ``List[Int]``, so ``aggregateByKey([], lambda acc, v: acc + [v], ...)`` accumulates
        ``List[Int]``. ``want`` comes from the seq function's declared parameter (or the bag's element
        type for ``fold``); without one the zero keeps its own type."""
        if want is None or zt == want or join_types(zt, want) != want:
            return zt
        self.note(zero, want)
        return want

    @staticmethod
    def declared_first(fn: A.Fn) -> Type | None:
        """The declared type of ``fn``'s first parameter (a lambda's annotation), or None."""
        if isinstance(fn, A.Lambda) and fn.params and isinstance(fn.params[0].type, Type):
            return fn.params[0].type
        return None

    def returns(self, fn: A.Fn, got: Type, want: Type, ctx: str, why: str) -> None:
        if got != want:
            loc = fn.body.loc if isinstance(fn, A.Lambda) and fn.body.loc is not None else fn.loc
            raise TypeCheckError(f"{ctx} must return {T(want)} ({why}) but returns {T(got)}", loc)

    def bag_expr(self, e: A.Expr, scope: Scope) -> tuple[A.Expr, Type]:
        op = e.kind if isinstance(e, A.SimpleAgg) else _OP_NAMES.get(type(e))
        if isinstance(e, A.OuterJoin):
            op = f"{e.kind}OuterJoin"
        elif isinstance(e, A.SortBy):
            op = e.surface
        elif isinstance(e, A.TakeOrdered) and e.top:
            op = "top"
        if op is None:
            raise TypeCheckError(f"not a SparkLite expression: {type(e).__name__}", getattr(e, "loc", None))
        if scope.in_function:
            raise TypeCheckError(f"{scope.function} cannot contain {op}: bag operators and aggregations are "
                                 "only allowed at program level (in lets and the result)", e.loc)
        replace = dataclasses.replace

        if isinstance(e, A.Map | A.Filter | A.FlatMap):
            src, t = self.bag(e.source, scope, op)
            ctx = {"map": "map's function", "filter": "filter's predicate",
                   "flatMap": "flatMap's function"}[op]
            fn, rt = self.check_fn(e.fn, _Expect(ctx, (t,), (f"the bag holds {T(t)}",)), scope)
            if isinstance(e, A.Filter):
                self.returns(fn, rt, BOOL, ctx, "it keeps the elements for which it is true")
                result: Type = BagType(t)
            elif isinstance(e, A.FlatMap):
                if isinstance(rt, ListType) and rt.elem != NONE:
                    result = BagType(rt.elem)
                elif rt == STR:
                    result = BagType(STR)  # a string's characters
                elif not (isinstance(rt, TupleType) and rt.elems and all(x == rt.elems[0] for x in rt.elems)):
                    loc = fn.body.loc if isinstance(fn, A.Lambda) else fn.loc
                    raise TypeCheckError(f"{ctx} must return a list, a Str or a tuple of values of one type, "
                                         f"e.g. (x, x + 1), but returns {T(rt)}", loc)
                else:
                    result = BagType(rt.elems[0])
            else:
                result = BagType(rt)
            return self.note(replace(e, fn=fn, source=src), result)

        if isinstance(e, A.Cartesian | A.Union):
            left, lt = self.bag(e.left, scope, op)
            right, rt = self.bag(e.right, scope, op)
            if isinstance(e, A.Union):
                if lt != rt:
                    raise TypeCheckError(f"union needs bags of one element type, not {T(lt)} and {T(rt)}",
                                         e.loc)
                return self.note(replace(e, left=left, right=right), BagType(lt))
            return self.note(replace(e, left=left, right=right), BagType(TupleType((lt, rt))))

        if isinstance(e, A.Join):
            left, k1, v = self.pair_bag(e.left, scope, op)
            right, k2, w = self.pair_bag(e.right, scope, op)
            if k1 != k2:
                raise TypeCheckError(f"join needs the same key type on both sides, not {T(k1)} and {T(k2)}",
                                     e.loc)
            return self.note(replace(e, left=left, right=right), BagType(TupleType((k1, TupleType((v, w))))))

        if isinstance(e, A.Distinct):
            src, t = self.bag(e.source, scope, op)
            self.hashable(t, op, e)
            return self.note(replace(e, source=src), BagType(t))

        if isinstance(e, A.OuterJoin):
            left, k1, v = self.pair_bag(e.left, scope, op)
            right, k2, w = self.pair_bag(e.right, scope, op)
            if k1 != k2:
                raise TypeCheckError(f"{op} needs the same key type on both sides, not {T(k1)} and {T(k2)}",
                                     e.loc)
            self.hashable(k1, op, e)
            if e.kind in ("right", "full"):
                v = optional(v)
            if e.kind in ("left", "full"):
                w = optional(w)
            return self.note(replace(e, left=left, right=right), BagType(TupleType((k1, TupleType((v, w))))))

        if isinstance(e, A.SortBy):
            src, t = self.bag(e.source, scope, op)
            key, kt = self.check_fn(e.key, _Expect(f"{op}'s key function", (t,), (f"the bag holds {T(t)}",)),
                                    scope)
            if not is_ordered(kt):
                raise TypeCheckError(f"{op}'s key function must return an ordered value, not {T(kt)}", e.loc)
            return self.note(replace(e, key=key, source=src), BagType(t))

        if isinstance(e, A.Subtract | A.Intersection):
            left, lt = self.bag(e.left, scope, op)
            right, rt = self.bag(e.right, scope, op)
            if lt != rt:
                raise TypeCheckError(f"{op} needs bags of one element type, not {T(lt)} and {T(rt)}", e.loc)
            self.hashable(lt, op, e)
            return self.note(replace(e, left=left, right=right), BagType(lt))

        if isinstance(e, A.Collect | A.First):
            src, t = self.bag(e.source, scope, op)
            return self.note(replace(e, source=src), ListType(t) if isinstance(e, A.Collect) else t)

        if isinstance(e, A.Take | A.TakeOrdered):
            src, t = self.bag(e.source, scope, op)
            count, ct = self.expr(e.count, scope)
            if ct != INT:
                raise TypeCheckError(f"{op}'s count must be an Int, not {T(ct)}", e.count.loc or e.loc)
            if isinstance(e, A.Take):
                return self.note(replace(e, count=count, source=src), ListType(t))
            key = None
            kt = t
            if e.key is not None:
                key, kt = self.check_fn(e.key, _Expect(f"{op}'s key function", (t,),
                                                       (f"the bag holds {T(t)}",)), scope)
            if not is_ordered(kt):
                raise TypeCheckError(f"{op} orders by {T(kt)}, which Python does not order", e.loc)
            return self.note(replace(e, count=count, key=key, source=src), ListType(t))

        if isinstance(e, A.CountByValue):
            src, t = self.bag(e.source, scope, op)
            self.hashable(t, op, e)
            return self.note(replace(e, source=src), DictType(t, INT))

        if isinstance(e, A.CollectAsMap):
            src, k, v = self.pair_bag(e.source, scope, op)
            self.hashable(k, op, e)
            return self.note(replace(e, source=src), DictType(k, v))

        if isinstance(e, A.Fold | A.Reduce):
            src, t = self.bag(e.source, scope, op)
            ctx = f"{op}'s operator"
            expect = _Expect(ctx, (t, t), (f"the accumulator has the element type {T(t)}",
                                           f"the bag holds {T(t)}"))
            if isinstance(e, A.Fold):
                zero, zt = self.basic_zero(e.zero, scope, op)
                zt = self.accumulator_zero(zero, zt, t)
                if zt != t:
                    raise TypeCheckError(f"fold's zero value must have the bag's element type {T(t)} but has "
                                         f"type {T(zt)} (use aggregate to fold into another type)",
                                         e.zero.loc)
                fn, rt = self.check_fn(e.op, expect, scope)
                self.returns(fn, rt, t, ctx, "the bag's element type")
                return self.note(replace(e, zero=zero, op=fn, source=src), t)
            fn, rt = self.check_fn(e.op, expect, scope)
            self.returns(fn, rt, t, ctx, "the bag's element type")
            return self.note(replace(e, op=fn, source=src), t)

        if isinstance(e, A.Aggregate):
            src, t = self.bag(e.source, scope, op)
            zero, u = self.basic_zero(e.zero, scope, op)
            u = self.accumulator_zero(zero, u, self.declared_first(e.seq))
            seq, st = self.check_fn(e.seq, _Expect("aggregate's seq function", (u, t), (
                f"the accumulator has the zero's type {T(u)}", f"the bag holds {T(t)}")), scope)
            self.returns(seq, st, u, "aggregate's seq function", "the zero value's type")
            comb, ct = self.check_fn(e.comb, _Expect("aggregate's comb function", (u, u), (
                f"partial results have the zero's type {T(u)}",) * 2), scope)
            self.returns(comb, ct, u, "aggregate's comb function", "the zero value's type")
            return self.note(replace(e, zero=zero, seq=seq, comb=comb, source=src), u)

        if isinstance(e, A.SimpleAgg):
            src, t = self.bag(e.source, scope, op)
            if e.kind not in ("count", "sum", "min", "max"):
                raise TypeCheckError(f"unknown aggregation '{e.kind}'", e.loc)
            if e.kind == "sum" and t == FLOAT:
                return self.note(replace(e, source=src), FLOAT)  # (the int 0 when the bag is empty)
            if e.kind == "sum" and t not in (INT, BOOL):  # Python sums bools as 0/1
                raise TypeCheckError(f"sum needs a bag of Int, Bool or Float but the bag holds {T(t)}", e.loc)
            if e.kind in ("min", "max"):
                if not is_ordered(t):
                    raise TypeCheckError(f"{e.kind} needs a bag of ordered values (Int, Bool, Str, Float or "
                                         f"tuples of them) but the bag holds {T(t)}", e.loc)
                return self.note(replace(e, source=src), t)
            return self.note(replace(e, source=src), INT)

        if isinstance(e, A.FoldByKey | A.ReduceByKey):
            src, k, v = self.pair_bag(e.source, scope, op)
            ctx = f"{op}'s operator"
            expect = _Expect(ctx, (v, v), (f"the accumulator has the value type {T(v)}",
                                           f"the values have type {T(v)}"))
            if isinstance(e, A.FoldByKey):
                zero, zt = self.basic_zero(e.zero, scope, op)
                zt = self.accumulator_zero(zero, zt, v)
                if zt != v:
                    raise TypeCheckError(f"foldByKey's zero value must have the value type {T(v)} but has "
                                         f"type {T(zt)} (use aggregateByKey to fold into another type)",
                                         e.zero.loc)
                fn, rt = self.check_fn(e.op, expect, scope)
                self.returns(fn, rt, v, ctx, "the value type")
                return self.note(replace(e, zero=zero, op=fn, source=src), BagType(TupleType((k, v))))
            fn, rt = self.check_fn(e.op, expect, scope)
            self.returns(fn, rt, v, ctx, "the value type")
            return self.note(replace(e, op=fn, source=src), BagType(TupleType((k, v))))

        if isinstance(e, A.AggregateByKey):
            src, k, v = self.pair_bag(e.source, scope, op)
            zero, u = self.basic_zero(e.zero, scope, op)
            u = self.accumulator_zero(zero, u, self.declared_first(e.seq))
            seq, st = self.check_fn(e.seq, _Expect("aggregateByKey's seq function", (u, v), (
                f"the accumulator has the zero's type {T(u)}", f"the values have type {T(v)}")), scope)
            self.returns(seq, st, u, "aggregateByKey's seq function", "the zero value's type")
            comb, ct = self.check_fn(e.comb, _Expect("aggregateByKey's comb function", (u, u), (
                f"partial results have the zero's type {T(u)}",) * 2), scope)
            self.returns(comb, ct, u, "aggregateByKey's comb function", "the zero value's type")
            return self.note(replace(e, zero=zero, seq=seq, comb=comb, source=src),
                             BagType(TupleType((k, u))))

        if isinstance(e, A.CombineByKey):
            src, k, v = self.pair_bag(e.source, scope, op)
            create, c = self.check_fn(e.create, _Expect("combineByKey's create function", (v,), (
                f"the values have type {T(v)}",)), scope)
            mv, mvt = self.check_fn(e.merge_value, _Expect("combineByKey's mergeValue function", (c, v), (
                f"the combiner has create's result type {T(c)}", f"the values have type {T(v)}")), scope)
            self.returns(mv, mvt, c, "combineByKey's mergeValue function", "create's result type")
            mc_expect = _Expect("combineByKey's mergeCombiners function", (c, c),
                                (f"combiners have create's result type {T(c)}",) * 2)
            mc, mct = self.check_fn(e.merge_combiners, mc_expect, scope)
            self.returns(mc, mct, c, "combineByKey's mergeCombiners function", "create's result type")
            return self.note(replace(e, create=create, merge_value=mv, merge_combiners=mc, source=src),
                             BagType(TupleType((k, c))))

        if isinstance(e, A.GroupByKeyAgg):
            src, k, v = self.pair_bag(e.source, scope, op)
            if not e.kinds:
                raise TypeCheckError("groupByKey needs at least one of sum, len, min, max", e.loc)
            self.hashable(k, op, e)
            kinds_t: list[Type] = []
            for kind in e.kinds:
                if kind not in ("sum", "len", "min", "max", "list"):
                    raise TypeCheckError("groupByKey aggregates with sum, len, min, max or list, "
                                         f"not '{kind}'",
                                         e.loc)
                if kind == "list":
                    kinds_t.append(ListType(v))
                elif kind == "len":
                    kinds_t.append(INT)
                elif v not in ((INT, FLOAT) if kind == "sum" else (INT, FLOAT, STR)):
                    # Python's min/max order strings too (by code point); sum adds numbers only
                    need = "Int or Float" if kind == "sum" else "Int, Float or Str"
                    raise TypeCheckError(f"groupByKey({kind}) needs {need} values but the values have "
                                         f"type {T(v)}", e.loc)
                else:
                    kinds_t.append(v)
            value: Type = kinds_t[0] if len(kinds_t) == 1 else TupleType(tuple(kinds_t))
            return self.note(replace(e, source=src), BagType(TupleType((k, value))))

        raise TypeCheckError(f"not a SparkLite expression: {type(e).__name__}", getattr(e, "loc", None))

    # -- programs -----------------------------------------------------------------------------------

    def program(self, p: A.Program) -> ProgramTypes:
        scope = Scope()
        params: dict[str, Type] = {}
        for prm in p.params:
            if prm.type is None:
                raise TypeCheckError(f"input '{prm.name}' needs a type", prm.loc)
            _check_input_type(prm)
            scope = scope.bind(prm.name, VarEntry(prm.type, "input", prm.loc), prm.loc)
            params[prm.name] = prm.type
        for d in p.defs:
            self.add_def(d, scope)
            scope = scope.bind(d.name, FunEntry(d.name, isinstance(d, A.ParamFunDef), d.loc), d.loc)
        lets: dict[str, Type] = {}
        elaborated_lets = []
        for b in p.lets:
            value, t = self.expr(b.value, scope)
            scope = scope.bind(b.name, VarEntry(t, "let", b.loc), b.loc)
            lets[b.name] = t
            elaborated_lets.append(dataclasses.replace(b, value=value))
        body, result = self.expr(p.body, scope, result=True)
        defs = []
        for d in p.defs:
            st = self.defs[d.name]
            if st.elaborated is None:
                untyped = next(prm for prm in _all_params(d) if prm.type is None)
                raise TypeCheckError(f"cannot infer the type of parameter '{untyped.name}' of {d.name}: "
                                     f"{d.name} is never used; annotate it (e.g. {untyped.name}: Int)",
                                     untyped.loc or d.loc)
            defs.append(st.elaborated)
        program = dataclasses.replace(p, params=tuple(dataclasses.replace(x) for x in p.params),
                                      defs=tuple(defs), lets=tuple(elaborated_lets), body=body)
        functions = {n: s.sig for n, s in self.defs.items() if isinstance(s.sig, FunSig)}
        parametric = {n: s.sig for n, s in self.defs.items() if isinstance(s.sig, ParamFunSig)}
        return ProgramTypes(program, result, MappingProxyType(params), MappingProxyType(lets),
                            MappingProxyType(functions), MappingProxyType(parametric),
                            MappingProxyType(self.node_types))

    def add_def(self, d: A.Def, scope: Scope) -> None:
        """Register ``d`` (seeing ``scope``: inputs and earlier defs); check it now if fully annotated."""
        if isinstance(d, A.FunDef | A.ParamFunDef):
            for prm in _all_params(d):
                if prm.type is not None and not is_basic(prm.type):
                    raise TypeCheckError(f"parameter '{prm.name}' of {d.name} has type {T(prm.type)}; "
                                         "function parameters are basic values (Int, Bool, tuples)", prm.loc)
        if B.lookup(d.name) is not None and d.name not in BUILTIN_FUNCTIONS:
            raise TypeCheckError(f"'{d.name}' is a builtin function; name the function differently", d.loc)
        st = _DefState(d, scope)
        # Bind first in a throwaway scope so that a clash with an input or an earlier def is reported at d.
        scope.bind(d.name, FunEntry(d.name, isinstance(d, A.ParamFunDef), d.loc), d.loc)
        self.defs[d.name] = st
        if isinstance(d, A.FunDef):
            if all(prm.type is not None for prm in d.params):
                self.define_fundef(st, tuple(prm.type for prm in d.params))  # type: ignore[misc]
        elif isinstance(d, A.ParamFunDef):
            if all(prm.type is not None for prm in _all_params(d)):
                self.define_paramfundef(st, tuple(prm.type for prm in d.params),  # type: ignore[misc]
                                        tuple(prm.type for prm in d.fn.params))  # type: ignore[misc]
        else:
            raise TypeCheckError(f"not a SparkLite definition: {type(d).__name__}", getattr(d, "loc", None))


_OP_NAMES: dict[type, str] = {
    A.Map: "map", A.Filter: "filter", A.FlatMap: "flatMap", A.Cartesian: "cartesian", A.Join: "join",
    A.Union: "union", A.Distinct: "distinct", A.Fold: "fold", A.Aggregate: "aggregate", A.Reduce: "reduce",
    A.SimpleAgg: "an aggregation", A.FoldByKey: "foldByKey", A.AggregateByKey: "aggregateByKey",
    A.ReduceByKey: "reduceByKey", A.CombineByKey: "combineByKey", A.GroupByKeyAgg: "groupByKey",
    A.SortBy: "sortBy", A.Subtract: "subtract", A.Intersection: "intersection", A.Collect: "collect",
    A.Take: "take", A.TakeOrdered: "takeOrdered", A.First: "first", A.CountByValue: "countByValue",
    A.CollectAsMap: "collectAsMap",
}


def _all_params(d: A.Def) -> tuple[A.Param, ...]:
    return d.params + d.fn.params if isinstance(d, A.ParamFunDef) else d.params


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _want(got: Type, want: Type, node: A.Expr, what: str) -> None:
    if got != want:
        raise TypeCheckError(f"{what} but has type {T(got)}", node.loc)


def _check_input_type(p: A.Param) -> None:
    t = p.type
    assert t is not None
    ok = (is_basic(t) or (isinstance(t, BagType) and is_basic(t.elem))) and not _has(t, DictType | NoneType_)
    if ok and not _has_empty_tuple(t):
        return
    raise TypeCheckError(f"input '{p.name}' has type {T(t)}; inputs are bags of basic values (Bag[Int], "
                         "Bag[(Int, Int)], ...) or basic values (Int, Bool, tuples of them)", p.loc)


def _has(t: Type, kinds: type | Any) -> bool:
    if isinstance(t, kinds):
        return True
    if isinstance(t, TupleType):
        return any(_has(x, kinds) for x in t.elems)
    if isinstance(t, BagType | ListType | OptionType):
        return _has(t.elem, kinds)
    return False


def _has_empty_tuple(t: Type) -> bool:
    if isinstance(t, TupleType):
        return not t.elems or any(_has_empty_tuple(x) for x in t.elems)
    if isinstance(t, BagType):
        return _has_empty_tuple(t.elem)
    return False


# ---------------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------------


def typecheck(program: A.Program) -> ProgramTypes:
    """Check ``program``; return its types and its elaborated form. Raises ``TypeCheckError`` or
    ``NameResolutionError`` (both ``InputError``) located at the offending node."""
    return _Checker(program).program(program)


def type_of(expr: A.Expr, env: Mapping[str, Type] | None = None, defs: Sequence[A.Def] = (), *,
            in_function: bool = False) -> Type:
    """The type of a stand-alone expression whose free variables have the types in ``env`` and which may
    call the functions ``defs`` (checked in order, seeing ``env``). With ``in_function`` the expression is
    checked as a function body (no bags, no bag operators). Raises like ``typecheck``."""
    checker = _Checker()
    checker.def_order = {d.name: i for i, d in enumerate(defs)}
    scope = Scope()
    for name, t in (env or {}).items():
        scope = scope.bind(name, VarEntry(t, "input"), None)
    for d in defs:
        checker.add_def(d, scope)
        scope = scope.bind(d.name, FunEntry(d.name, isinstance(d, A.ParamFunDef), d.loc), d.loc)
    if in_function:
        scope = scope.inside("the function")
    return checker.expr(expr, scope)[1]
