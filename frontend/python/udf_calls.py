"""Calls, function values, function bodies and module-level functions of the function-body translator.

A mixin of ``udf.Translator``: a call of a builtin, an operator-module function, a helper ``def`` or a
lambda; a function passed to Spark (``as_fn``); a body of straight-line statements folded into one
expression (``block``); the named module functions emitted once per translation.
"""

from __future__ import annotations

import ast as pyast
from dataclasses import replace

from frontend.python import types as ftypes
from frontend.python.loops import append_loop, ascii_text, utf8_repr_text
from frontend.python.names import (
    OPERATOR_BINARY,
    BagV,
    CollectedV,
    DefV,
    FnV,
    GroupAggRef,
    GroupedV,
    GroupValsV,
    InputV,
    LocalHelperV,
    OpV,
    PendingV,
    Scalar,
    Scope,
    TupleV,
    Value,
    function_locals,
)
from frontend.python.nodes import (
    Beta,
    Force,
    Guard,
    ListLit,
    PyCompare,
    PyInt,
    Shaped,
    fresh,
    loc_of,
)
from frontend.python.regex import RegexUnsupported, is_regex_call, regex_call, regex_expr
from frontend.python.udf_rules import (
    RDD_SOURCES,
    STR_METHODS,
    UNSUPPORTED_STATEMENTS,
    _held_arguments,
    _maybe_simple,
    _names_in,
    _simple,
    _tuples_for_flatmap,
)
from sparklite import ast as sl
from sparklite.builtins import BUILTINS as _LIBRARY
from sparklite.errors import TypeCheckError
from sparklite.pystats import FUNCTIONS as PYSTATS


class CallsMixin:
    """Calls and function bodies of ``udf.Translator``."""

    # --- calls -----------------------------------------------------------------------------------

    def call(self, node: pyast.Call, scope: Scope) -> Value:
        for arg in node.args:
            if isinstance(arg, pyast.Starred):
                raise self.unsupported("*args", "star-arguments are not supported", arg)
        func = node.func
        inner = utf8_repr_text(node)  # str(s.encode('utf-8'))
        if inner is not None and scope.lookup("str") is None:
            text = self.to_scalar(self.expr(inner, scope), inner)
            return Scalar(sl.Call("str.utf8_repr", (text,), loc=self.loc(node)))
        if isinstance(func, pyast.Attribute):
            if isinstance(func.value, pyast.Name) and scope.lookup(func.value.id) is None \
                    and func.value.id in self.info.operator_modules | self.info.math_modules:
                self.no_keywords(node)
                callee: Value = self.attribute(func, scope)
                return self.apply_value(callee, node, scope)
            if is_regex_call(node, {m for m in self.info.re_modules if scope.lookup(m) is None}):
                return Scalar(self.regex(node, scope))
            if isinstance(func.value, pyast.Name) and func.value.id in self.info.stats_modules \
                    and scope.lookup(func.value.id) is None:
                return Scalar(self.statistics_call(func, node, scope))
            if func.attr in RDD_SOURCES:
                raise self.unsupported(f"sc.{func.attr}", f"creating an RDD with .{func.attr}() inside the "
                                       "pipeline is not supported: pass the input RDDs as parameters",
                                       self.attr_loc(func))
            inner = ascii_text(node)  # s.encode('ascii', 'ignore').decode()
            if inner is not None:
                text = self.to_scalar(self.expr(inner, scope), inner)
                return Scalar(sl.Call("str.ascii_ignore", (text,), loc=self.loc(node)))
            receiver = self.expr(func.value, scope)
            if isinstance(receiver, (BagV, GroupedV)) or (
                    isinstance(receiver, InputV) and (func.attr in self.rdd_methods
                                                      or func.attr not in STR_METHODS)):
                if scope.in_udf:
                    raise self.unsupported("RDD inside a function", "RDD methods cannot be called inside "
                                           "a function passed to Spark", self.attr_loc(func))
                return self.rdd_method(receiver, func, node, scope)
            if isinstance(receiver, GroupValsV):
                raise self.unsupported(f".{func.attr}", "the values of a group can only be used through "
                                       "sum/len/min/max or as a whole list", self.attr_loc(func))
            if func.attr in STR_METHODS and isinstance(receiver, (Scalar, InputV)):
                return Scalar(self.str_method(func, self.to_scalar(receiver, func.value), node, scope))
            raise self.unsupported(f"method .{func.attr}", f"method call '.{func.attr}()' on a value "
                                   "that is not an RDD is not supported (string methods: "
                                   f"{', '.join(sorted(STR_METHODS))})", self.attr_loc(func))
        self.no_keywords(node)
        callee = self.expr(func, scope)
        return self.apply_value(callee, node, scope)

    def regex(self, node: pyast.Call, scope: Scope) -> sl.Expr:
        """``re.split(P, s)`` and friends (``frontend.python.regex``): the text is the one argument
        evaluated at run time; the pattern (and replacement) are checked constants."""
        try:
            builtin, pattern, rest, repl = regex_call(node, self.info.re_modules)
        except RegexUnsupported as exc:
            raise self.unsupported(exc.construct, exc.message, exc.node) from None
        text = self.scalar(rest[-1], scope)
        return regex_expr(builtin, pattern, text, repl, self.loc(node))

    def statistics_call(self, func: pyast.Attribute, node: pyast.Call, scope: Scope) -> sl.Expr:
        """``statistics.mean(xs)`` and the other functions of ``sparklite.pystats`` on one list (the
        values of a ``groupByKey`` group too: the result does not depend on their order)."""
        self.no_keywords(node)
        if func.attr not in PYSTATS:
            raise self.unsupported(f"statistics.{func.attr}", f"statistics.{func.attr} is not read (these "
                                   f"are: {', '.join(sorted(PYSTATS))})", self.attr_loc(func))
        if len(node.args) != 1:
            raise self.unsupported("statistics arguments", f"statistics.{func.attr} is read with one "
                                   "argument (a list)", node)
        value = self.expr(node.args[0], scope)
        data = GroupAggRef("list", loc=self.loc(node.args[0])) if isinstance(value, GroupValsV) \
            else self.to_scalar(value, node.args[0])
        return sl.Call(f"statistics.{func.attr}", (data,), loc=self.loc(node))

    def no_keywords(self, node: pyast.Call) -> None:
        if node.keywords:
            kw = node.keywords[0]
            construct = "**kwargs" if kw.arg is None else "keyword argument"
            raise self.unsupported(construct, f"keyword arguments are not supported ({kw.arg or '**'}=...)",
                                   kw.value)

    def str_method(self, func: pyast.Attribute, receiver: sl.Expr, node: pyast.Call, scope: Scope) -> sl.Expr:
        """``s.split(",")`` -> ``str.split(s, ",")`` (the receiver is evaluated first, as in Python)."""
        self.no_keywords(node)
        builtin, arities = STR_METHODS[func.attr]
        if len(node.args) not in arities:
            counts = " or ".join(str(a) for a in arities)
            raise self.unsupported("string method arguments", f"'{func.attr}' is "
                                   f"supported with {counts} argument(s) (maxsplit, chars, count are not)",
                                   node.args[-1] if node.args else func)
        args = tuple(self.scalar(a, scope) for a in node.args)
        return sl.Call(builtin, (receiver, *args), loc=self.loc(node))

    def apply_value(self, callee: Value, node: pyast.Call, scope: Scope) -> Value:
        loc = self.loc(node)
        if isinstance(callee, OpV):
            return self.apply_op(callee.name, node.args, scope, node)
        if isinstance(callee, DefV):
            mdef = self.info.defs[callee.name]
            arg_values = [self.expr(a, scope) for a in node.args]
            if mdef.uses_rdd or any(isinstance(v, (BagV, TupleV, GroupedV)) for v in arg_values):
                if scope.in_udf:
                    raise self.unsupported("RDD inside a function", f"'{callee.name}' works on RDDs and "
                                           "cannot be called inside a function passed to Spark", node)
                return self.inline_rdd_helper(mdef, arg_values, node)
            args = tuple(self.to_scalar(v, a) for v, a in zip(arg_values, node.args, strict=True))
            d = self.ensure_def(callee.name, node)
            self.check_arity(d, len(args), callee.name, node)
            self.value_uses.add(d.name)
            if isinstance(d, sl.ParamFunDef):
                return FnV(sl.PApp(d.name, args, loc=loc), len(d.fn.params))
            return Scalar(sl.Call(d.name, args, loc=loc))
        if isinstance(callee, LocalHelperV):
            return self.apply_local_helper(callee, node, scope)
        if isinstance(callee, PendingV):
            args = tuple(self.scalar(a, scope) for a in node.args)
            if len(args) != callee.arity:
                raise TypeCheckError(f"function takes {callee.arity} argument(s), {len(args)} given", loc)
            return Scalar(self.apply_fn(callee.fn, callee.args + args, loc))
        if isinstance(callee, FnV):
            args = tuple(self.scalar(a, scope) for a in node.args)
            if len(args) != callee.arity:
                raise TypeCheckError(f"function takes {callee.arity} argument(s), {len(args)} given", loc)
            self.note_use(callee.fn, "call")
            return Scalar(self.apply_fn(callee.fn, args, loc))
        raise self.unsupported("call of a non-function", "this value is not a function", node.func)

    @staticmethod
    def check_arity(d: sl.Def, n: int, name: str, node: pyast.AST | sl.Loc) -> None:
        expected = len(d.params)
        if n != expected:
            loc = node if isinstance(node, sl.Loc) else loc_of(node, "")
            raise TypeCheckError(f"'{name}' takes {expected} argument(s), {n} given", loc)

    def apply_fn(self, fn: sl.Fn, args: tuple[sl.Expr, ...], loc: sl.Loc | None) -> sl.Expr:
        """Apply a function value: a lambda is beta-reduced when its arguments turn out to be cheap values
        that cannot raise (``Beta``), else applied call-by-value."""
        if isinstance(fn, sl.FnRef):
            return sl.Call(fn.name, args, loc=loc)
        if isinstance(fn, sl.Lambda):
            if all(_maybe_simple(a) for a in args):
                return Beta(fn, args, loc=loc)
        return sl.Apply(fn, args, loc=loc)

    def apply_op(self, name: str, arg_nodes: list[pyast.expr], scope: Scope, node: pyast.AST) -> Value:
        loc = self.loc(node)
        n = len(arg_nodes)
        if name in ("sum", "len", "min", "max", "sorted", "list") and n == 1:
            arg = arg_nodes[0]
            if isinstance(arg, pyast.Tuple) and arg.elts and name in ("sum", "len", "min", "max"):
                elems = [self.scalar(e, scope) for e in arg.elts]
                if name == "len":  # Python evaluates every element, then counts them
                    n_lit = sl.IntLit(len(elems), loc=loc)
                    return Scalar(sl.Proj(sl.TupleExpr((*elems, n_lit), loc=loc), len(elems), loc=loc))
                if name == "sum":  # sum starts from 0: 0 + a + b
                    result: sl.Expr = sl.IntLit(0, loc=loc)
                    for e in elems:
                        result = self.arith("+", result, e, loc)
                    return Scalar(result)
                return Scalar(self.nary(name, elems, loc))
            value = self.expr(arg, scope)
            if isinstance(value, GroupValsV):
                if name in ("list", "sorted"):
                    ref = GroupAggRef("list", loc=loc)
                    return Scalar(ref if name == "list" else sl.Call("sorted", (ref,), loc=loc))
                return Scalar(GroupAggRef(name, loc=loc))
            x = self.to_scalar(value, arg)
            if name == "list":  # a copy of a list, a string's characters: [y for y in x]
                y = self.synth_param("c", _names_in(x))
                return Scalar(sl.ListComp(sl.Lambda((sl.Param(y, loc=loc),), sl.Var(y, loc=loc), loc=loc), x,
                                          loc=loc))
            return Scalar(sl.Call(name, (x,), loc=loc))
        if name in ("list", "sorted", "sum", "len"):
            raise TypeCheckError(f"{name}() takes one argument here", loc)
        args = [self.scalar(a, scope) for a in arg_nodes]
        if name in ("min", "max"):
            if n < 2:
                raise TypeCheckError(f"{name}() needs arguments", loc)
            return Scalar(self.nary(name, args, loc))
        return Scalar(self.op_expr(name, args, loc))

    @staticmethod
    def nary(name: str, args: list[sl.Expr], loc: sl.Loc | None) -> sl.Expr:
        result = args[0]
        for a in args[1:]:
            result = sl.Call(name, (result, a), loc=loc)
        return result

    def op_expr(self, name: str, args: list[sl.Expr], loc: sl.Loc | None) -> sl.Expr:
        """An operator/builtin applied to translated arguments."""
        unary = {"neg", "abs", "not_", "truth", "pos", "int", "bool", "float", "str", "math.sqrt",
                 "math.floor", "math.ceil"}
        expected: int | tuple[int, ...] = 1 if name in unary else 2
        if name in ("min", "max"):
            expected = max(2, len(args))
        if name == "round":
            expected = (1, 2)
        counts = expected if isinstance(expected, tuple) else (expected,)
        if len(args) not in counts:
            raise TypeCheckError(f"{name} takes {' or '.join(map(str, counts))} argument(s), {len(args)} "
                                 "given", loc)
        if name in OPERATOR_BINARY:
            sym = OPERATOR_BINARY[name]
            left, right = args
            if sym in sl.ARITH_OPS:
                return self.arith(sym, left, right, loc)
            return PyCompare(sym, left, right, loc=loc)
        if name in ("min", "max"):
            return self.nary(name, args, loc)
        if name == "round":
            return sl.Call("round", tuple(args), loc=loc)
        (x,) = args
        if name == "neg":
            if isinstance(x, sl.IntLit):
                return sl.IntLit(-x.value, loc=loc)
            return sl.Neg(self.as_int(x), loc=loc)
        if name == "pos":
            return self.as_int(x)
        if name == "int":
            return x if isinstance(x, sl.IntLit) else PyInt(x, loc=loc)
        if name == "abs":
            return sl.Call("abs", (self.as_int(x),), loc=loc)
        if name in ("float", "str", "math.sqrt", "math.floor", "math.ceil"):
            return sl.Call(name, (x,), loc=loc)
        if name in ("truth", "bool"):
            return self.as_bool(x)
        if name == "not_":
            return sl.Not(self.as_bool(x), loc=loc)
        raise TypeCheckError(f"{name} cannot be used here", loc)

    # --- function values -------------------------------------------------------------------------

    def note_use(self, fn: sl.Fn, purpose: str) -> None:
        """Remember how named functions are used: one returning list displays becomes a tuple for a
        ``flatMap`` that is its only use (``ListLit``)."""
        name = fn.name if isinstance(fn, (sl.FnRef, sl.PApp)) else None
        if name is not None:
            (self.flat_uses if purpose == "flatMap" else self.value_uses).add(name)

    def as_fn(self, value: Value, arity: int, node: pyast.AST, purpose: str) -> sl.Fn:
        """A function value passed to an RDD method, checked to take ``arity`` arguments."""
        loc = self.loc(node)
        if isinstance(value, FnV):
            if value.arity != arity:
                raise TypeCheckError(f"the function passed to {purpose} must take {arity} argument(s), "
                                     f"it takes {value.arity}", loc)
            fn = value.fn
        elif isinstance(value, OpV):
            if value.name in ("sum", "len", "sorted", "min", "max") and arity == 1:
                names = [self.synth_param("a")]
                params = tuple(sl.Param(nm, loc=loc) for nm in names)
                fn = sl.Lambda(params, sl.Call(value.name, (sl.Var(names[0], loc=loc),), loc=loc), loc=loc)
            elif value.name == "list" and arity == 1:
                a, c = self.synth_param("a"), self.synth_param("c")
                self.synth_names.add(c)
                comp = sl.ListComp(sl.Lambda((sl.Param(c, loc=loc),), sl.Var(c, loc=loc), loc=loc),
                                   sl.Var(a, loc=loc), loc=loc)
                fn = sl.Lambda((sl.Param(a, loc=loc),), comp, loc=loc)
            elif value.name in ("sum", "len", "sorted", "list"):
                raise TypeCheckError(f"'{value.name}' takes one argument; {purpose} passes {arity}", loc)
            else:
                names: list[str] = []
                for base in ("a", "b", "c", "d")[:arity]:
                    names.append(self.synth_param(base, set(names)))
                params = tuple(sl.Param(nm, loc=loc) for nm in names)
                body = self.op_expr(value.name, [sl.Var(p.name, loc=loc) for p in params], loc)
                fn = sl.Lambda(params, body, loc=loc)
        elif isinstance(value, DefV):
            mdef = self.info.defs[value.name]
            if mdef.uses_rdd:
                raise self.unsupported("RDD inside a function", f"'{value.name}' works on RDDs and cannot be "
                                       "passed to Spark", node)
            d = self.ensure_def(value.name, node)
            if isinstance(d, sl.ParamFunDef):
                raise self.unsupported("function-returning helper as a function", f"'{value.name}' returns a "
                                       f"function: call it with its arguments ({value.name}(...))", node)
            self.check_arity(d, arity, value.name, loc)
            fn = sl.FnRef(d.name, loc=loc)
        else:
            raise self.unsupported("not a function", f"{purpose} needs a function here", node)
        self.note_use(fn, purpose)
        if purpose == "flatMap" and isinstance(fn, sl.Lambda):
            fn = _tuples_for_flatmap(fn)
        return fn

    def fn_arg(self, node: pyast.expr, scope: Scope, arity: int, purpose: str) -> sl.Fn:
        return self.as_fn(self.expr(node, scope), arity, node, purpose)

    def finalize_lists(self) -> None:
        """A named function that returns list displays of one size and is used only by ``flatMap``
        returns tuples (the proof methods know fixed-size tuples); every other display is a list."""
        for name, d in list(self.defs.items()):
            only_flat = d.name in self.flat_uses and d.name not in self.value_uses
            if isinstance(d, sl.FunDef) and only_flat:
                self.defs[name] = replace(d, body=_tuples_for_flatmap(sl.Lambda(d.params, d.body)).body)
            elif isinstance(d, sl.ParamFunDef) and only_flat:
                self.defs[name] = replace(d, fn=_tuples_for_flatmap(d.fn))

    def lambda_fn(self, node: pyast.Lambda | pyast.FunctionDef, scope: Scope,
                  bind: dict[str, Value] | None = None) -> sl.Lambda:
        """A Python lambda or local ``def`` as a SparkLite lambda (parameters renamed if they would shadow
        a program-level name, which SparkLite forbids)."""
        loc = self.loc(node)
        params = self.params(node.args, node)
        taken = scope.names() | self.program_level()
        inner: dict[str, Value] = {}
        out_params = []
        for name, ann, p_loc in params:
            new = name if name not in taken else fresh(name, taken | self.taken)
            taken.add(new)
            self.synth_names.add(new)
            inner[name] = Scalar(sl.Var(new, loc=p_loc))
            out_params.append(sl.Param(new, ann, loc=p_loc))
        if bind:
            inner.update(bind)
        body_scope = scope.child(inner, in_udf=True, boundary=True, locals_=function_locals(node))
        if isinstance(node, pyast.Lambda):
            body = self.ret_expr(node.body, body_scope)
        else:
            body = self.block(node.body, body_scope, node)
        return sl.Lambda(tuple(out_params), body, loc=loc)

    def params(self, args: pyast.arguments, node: pyast.AST) -> list[tuple[str, object, sl.Loc]]:
        if args.vararg is not None:
            raise self.unsupported("*args", "*args parameters are not supported", args.vararg)
        if args.kwarg is not None:
            raise self.unsupported("**kwargs", "**kwargs parameters are not supported", args.kwarg)
        if args.kwonlyargs:
            raise self.unsupported("keyword-only parameter", "keyword-only parameters are not supported",
                                   args.kwonlyargs[0])
        if args.defaults or args.kw_defaults:
            default = (args.defaults or args.kw_defaults)[0]
            raise self.unsupported("default argument", "parameters with default values are not supported",
                                   default if default is not None else node)
        out = []
        for a in [*args.posonlyargs, *args.args]:
            ann = ftypes.annotation_type(a.annotation, self.filename) if a.annotation is not None else None
            out.append((a.arg, ann, self.loc(a)))
        return out

    def def_params(self, node: pyast.FunctionDef | pyast.Lambda) -> list[tuple[str, str, object, sl.Loc]]:
        """A module function's parameters as (Python name, SparkLite name, type, loc): renamed when they
        coincide with a program input, a let or a function name."""
        out = []
        taken = self.program_level()
        for name, ann, loc in self.params(node.args, node):
            new = name if name not in taken else fresh(name, taken | self.taken)
            taken.add(new)
            self.synth_names.add(new)
            out.append((name, new, ann, loc))
        return out

    def ret_expr(self, node: pyast.expr, scope: Scope) -> sl.Expr:
        """A returned expression: a list display stays a ``ListLit`` (a tuple for a flatMap)."""
        if isinstance(node, pyast.List) and not any(isinstance(e, pyast.Starred) for e in node.elts):
            return ListLit(tuple(self.scalar(e, scope) for e in node.elts), loc=self.loc(node))
        if isinstance(node, pyast.IfExp):
            true_keys, false_keys = self.none_tests(node.test, scope)
            return sl.Ite(self.truth(node.test, scope),
                          self.ret_expr(node.body, self.narrowed_child(scope, true_keys)),
                          self.ret_expr(node.orelse, self.narrowed_child(scope, false_keys)),
                          loc=self.loc(node))
        return self.scalar(node, scope)

    # --- function bodies -------------------------------------------------------------------------

    def block(self, stmts: list[pyast.stmt], scope: Scope, owner: pyast.AST) -> sl.Expr:
        """A straight-line body with if/elif/else as one expression (see the module docstring)."""
        for i, stmt in enumerate(stmts):
            rest = stmts[i + 1:]
            folded = append_loop(stmts, i)  # out = [] then for x in xs: out.append(e)
            if folded is not None:
                return self.block([folded, *stmts[i + 2:]], scope, owner)
            if isinstance(stmt, pyast.Return):
                if stmt.value is None:
                    raise self.unsupported("return None", "functions must return a value", stmt)
                return self.ret_expr(stmt.value, scope)
            if isinstance(stmt, pyast.Pass):
                continue
            if isinstance(stmt, pyast.Expr):
                if isinstance(stmt.value, pyast.Constant) and isinstance(stmt.value.value, str):
                    continue  # docstring
                self.expression_statement(stmt)
            if isinstance(stmt, pyast.If):
                true_keys, false_keys = self.none_tests(stmt.test, scope)
                cond = self.truth(stmt.test, scope)
                then = self.block(stmt.body + rest, self.narrowed_child(scope, true_keys), owner)
                orelse = self.block(stmt.orelse + rest, self.narrowed_child(scope, false_keys), owner)
                return sl.Ite(cond, then, orelse, loc=self.loc(stmt))
            if isinstance(stmt, (pyast.Assign, pyast.AnnAssign, pyast.AugAssign)):
                target, value_node = self.assignment_parts(stmt)
                value = self.expr(value_node, scope)
                if isinstance(value, (BagV, GroupedV, CollectedV)) or type(value) is TupleV:
                    raise self.unsupported("RDD inside a function", "RDDs cannot be used inside a function "
                                           "passed to Spark", value_node)
                self.check_rebind(target, scope)
                inner = scope.child()
                shaped = self.bind(target, value, inner.vars, stmt)
                body = self.block(rest, inner, owner)
                sloc = self.loc(stmt)
                # Python evaluates the assignment here: unpacking first (innermost last), then the value
                for s in reversed(shaped):
                    body = Force(s, body, loc=sloc)
                if isinstance(value, Scalar):
                    body = Force(value.expr, body, loc=sloc)
                held = _held_arguments(value)
                if held:  # ``h = below(10 // x)``: Python evaluates the arguments now, used or not
                    body = Force(sl.TupleExpr(held, loc=sloc), body, loc=sloc)
                return body
            if isinstance(stmt, pyast.FunctionDef):
                if stmt.decorator_list:
                    raise self.unsupported("decorator", "decorators are not supported",
                                           stmt.decorator_list[0])
                self.check_def_rebind(stmt, scope)
                inner = scope.child()
                fn = self.lambda_fn(stmt, scope)
                inner.vars[stmt.name] = FnV(fn, len(fn.params))
                return self.block(rest, inner, owner)
            self.unsupported_statement(stmt)
        raise self.unsupported("implicit None return", "the function can finish without returning a value",
                               owner)

    def expression_statement(self, stmt: pyast.Expr) -> None:
        call = stmt.value
        if isinstance(call, pyast.Call) and isinstance(call.func, pyast.Name) and call.func.id == "print":
            raise self.unsupported("print", "print is a side effect and is not supported", stmt)
        raise self.unsupported("expression statement", "expression statements (side effects) are not "
                               "supported inside functions", stmt)

    def unsupported_statement(self, stmt: pyast.stmt) -> None:
        for kind, construct in UNSUPPORTED_STATEMENTS.items():
            if isinstance(stmt, kind):
                raise self.unsupported(construct, f"'{construct}' is not supported", stmt)
        raise self.unsupported(type(stmt).__name__, f"the statement {type(stmt).__name__} is not supported",
                               stmt)

    def assignment_parts(self, stmt: pyast.stmt) -> tuple[pyast.expr, pyast.expr]:
        if isinstance(stmt, pyast.Assign):
            if len(stmt.targets) != 1:
                raise self.unsupported("chained assignment", "chained assignment (a = b = ...) is not "
                                       "supported", stmt)
            return stmt.targets[0], stmt.value
        if isinstance(stmt, pyast.AnnAssign):
            if stmt.value is None:
                raise self.unsupported("declaration without value", "annotated names need a value", stmt)
            return stmt.target, stmt.value
        assert isinstance(stmt, pyast.AugAssign)
        if not isinstance(stmt.target, pyast.Name):
            raise self.unsupported("augmented assignment to a subscript or attribute",
                                   "only names can be updated with op=", stmt)
        load = pyast.Name(stmt.target.id, pyast.Load())
        pyast.copy_location(load, stmt.target)
        value = pyast.BinOp(load, stmt.op, stmt.value)
        pyast.copy_location(value, stmt)
        return stmt.target, value

    def bind(self, target: pyast.expr, value: Value, into: dict[str, Value],
             stmt: pyast.AST) -> list[sl.Expr]:
        """Bind a name or an unpacking pattern (``(k, v), w = ...``) by substitution. Returns the
        unpackings (``Shaped`` nodes, outermost first) that Python performs here: a list or a string of
        the wrong length raises ``ValueError``, so the caller evaluates them where Python does."""
        if isinstance(target, pyast.Name):
            into[target.id] = value
            return []
        if isinstance(target, (pyast.Tuple, pyast.List)):
            if any(isinstance(e, pyast.Starred) for e in target.elts):
                raise self.unsupported("starred assignment", "starred unpacking is not supported", target)
            n = len(target.elts)
            if isinstance(value, TupleV):
                if len(value.items) != n:
                    raise TypeCheckError(f"cannot unpack {len(value.items)} values into {n} names",
                                         self.loc(target))
                out: list[sl.Expr] = []
                for t, v in zip(target.elts, value.items, strict=True):
                    out += self.bind(t, v, into, stmt)
                return out
            expr = self.to_scalar(value, target)
            if isinstance(expr, sl.TupleExpr):  # components bound one by one (the caller forces the tuple)
                if len(expr.elems) != n:
                    raise TypeCheckError(f"cannot unpack {len(expr.elems)} values into {n} names",
                                         self.loc(target))
                out = []
                for t, e in zip(target.elts, expr.elems, strict=True):
                    out += self.bind(t, Scalar(e), into, stmt)
                return out
            loc = self.loc(target)
            shaped = Shaped(expr, n, loc=loc)
            out = [shaped]
            for i, t in enumerate(target.elts):
                out += self.bind(t, Scalar(sl.Proj(shaped, i, loc=loc)), into, stmt)
            return out
        construct = "assignment to a subscript" if isinstance(target, pyast.Subscript) else \
            "assignment to an attribute" if isinstance(target, pyast.Attribute) else "assignment target"
        raise self.unsupported(construct, f"{construct} (mutation) is not supported", target)

    # --- module-level functions ------------------------------------------------------------------

    def ensure_def(self, name: str, use: pyast.AST | sl.Loc) -> sl.Def:
        """Translate the module-level function ``name`` (once), after the functions it calls."""
        if name in self.defs:
            return self.defs[name]
        if name in self.in_progress:
            raise self.unsupported("recursion", f"'{name}' is recursive: recursion is not supported", use)
        mdef = self.info.defs[name]
        self.in_progress.append(name)
        try:
            node = mdef.node
            loc = self.loc(node)
            module_scope = Scope({}, in_udf=True)
            if isinstance(node, pyast.FunctionDef) and node.decorator_list:
                raise self.unsupported("decorator", "decorators are not supported", node.decorator_list[0])
            if mdef.parametric:
                d: sl.Def = self.param_fundef(name, node, module_scope)
            else:
                params = self.def_params(node)
                inner = module_scope.child({p: Scalar(sl.Var(new, loc=pl)) for p, new, _, pl in params},
                                           locals_=function_locals(node))
                if isinstance(node, pyast.Lambda):
                    body = self.ret_expr(node.body, inner)
                    ret = None
                else:
                    body = self.block(node.body, inner, node)
                    ret = ftypes.annotation_type(node.returns, self.filename) if node.returns else None
                d = sl.FunDef(self.def_name(name), tuple(sl.Param(n, t, loc=pl)  # type: ignore[arg-type]
                                                         for _, n, t, pl in params),
                              ret, body, loc=loc)
        finally:
            self.in_progress.pop()
        self.defs[name] = d
        return d

    def def_name(self, name: str) -> str:
        """The SparkLite name of module function ``name``: renamed when it is a SparkLite builtin's name
        (a user's ``def sum(...)`` or ``def round(...)``)."""
        if name not in _LIBRARY and name not in sl.BUILTINS:
            return name
        new = fresh(f"{name}_fn", self.taken | set(self.info.defs) | self.program_names)
        self.taken.add(new)
        self.program_names.add(new)  # reserved like a program-level name
        return new

    def param_fundef(self, name: str, node: pyast.FunctionDef | pyast.Lambda, scope: Scope) -> sl.ParamFunDef:
        params = self.def_params(node)
        inner = scope.child({p: Scalar(sl.Var(new, loc=pl)) for p, new, _, pl in params},
                            locals_=function_locals(node))
        fn = self.returned_lambda(node, inner)
        return sl.ParamFunDef(self.def_name(name), tuple(sl.Param(n, t, loc=pl)  # type: ignore[arg-type]
                                                         for _, n, t, pl in params),
                              fn, loc=self.loc(node))

    def returned_lambda(self, node: pyast.FunctionDef | pyast.Lambda, inner: Scope) -> sl.Lambda:
        """The function a function-returning helper returns, its parameters bound in ``inner``."""
        if isinstance(node, pyast.Lambda):
            assert isinstance(node.body, pyast.Lambda)
            fn = self.lambda_fn(node.body, inner)
        else:
            fn = None
            guards: list[tuple[sl.Expr, sl.Loc]] = []
            for stmt in node.body:
                if isinstance(stmt, pyast.Expr) and isinstance(stmt.value, pyast.Constant):
                    continue
                if isinstance(stmt, pyast.Return):
                    value = stmt.value
                    if isinstance(value, pyast.Lambda):
                        fn = self.lambda_fn(value, inner)
                    else:
                        found = inner.lookup(value.id) if isinstance(value, pyast.Name) else None
                        if not (isinstance(found, FnV) and isinstance(found.fn, sl.Lambda)):
                            raise self.unsupported("returned value of a function-returning helper",
                                                   "the helper must return a lambda or a function it "
                                                   "defines", stmt)
                        fn = found.fn
                    break
                if isinstance(stmt, pyast.FunctionDef):
                    self.check_def_rebind(stmt, inner)
                    f = self.lambda_fn(stmt, inner)
                    inner.vars[stmt.name] = FnV(f, len(f.params))
                    continue
                if isinstance(stmt, (pyast.Assign, pyast.AnnAssign, pyast.AugAssign)):
                    target, value_node = self.assignment_parts(stmt)
                    value = self.expr(value_node, inner)
                    self.check_rebind(target, inner)  # the returned function reads it when it runs
                    shaped = self.bind(target, value, inner.vars, stmt)
                    for checked in ([value.expr] if isinstance(value, Scalar) else []) + shaped:
                        guards.append((checked, self.loc(stmt)))
                    continue
                self.unsupported_statement(stmt)
            assert fn is not None
            for checked, gloc in reversed(guards):  # the helper's own statements run when it is called
                fn = replace(fn, body=Guard(fn.body, checked, "raising assignment in a function-returning "
                                            "helper", "this assignment may raise; move it into the "
                                            "returned function", loc=gloc))
        return fn

    def apply_local_helper(self, callee: LocalHelperV, node: pyast.Call, scope: Scope) -> Value:
        """``helper(args)`` for a function-returning ``def`` nested in the pipeline: the returned lambda
        with the arguments substituted. Python evaluates the arguments at the call, so a non-trivial
        argument becomes a let (on the driver) or one call-by-value application (inside a UDF)."""
        fn_node = callee.node
        params = self.params(fn_node.args, fn_node)
        if len(params) != len(node.args):
            raise TypeCheckError(f"'{fn_node.name}' takes {len(params)} argument(s), {len(node.args)} given",
                                 self.loc(node))
        bound: dict[str, Value] = {}
        args = [self.scalar(arg, scope) for arg in node.args]
        if scope.in_udf and not all(_simple(e) for e in args):
            # helper(e)(y): one call-by-value application of the helper's parameters and the lambda's
            taken = scope.names() | self.program_level()
            names = []
            for name, _, _ in params:
                new = fresh(name, taken | self.taken)
                taken.add(new)
                self.synth_names.add(new)
                names.append(new)
            inner = callee.scope.child({n: Scalar(sl.Var(new, loc=self.loc(node)))
                                        for (n, _, _), new in zip(params, names, strict=True)},
                                       locals_=function_locals(fn_node))
            fn = self.returned_lambda(fn_node, inner)
            full = sl.Lambda(tuple(sl.Param(n, loc=self.loc(node)) for n in names) + fn.params, fn.body,
                             loc=fn.loc)
            return PendingV(full, tuple(args), len(fn.params))
        for (name, _, _), arg, e in zip(params, node.args, args, strict=True):
            if not _simple(e):
                if not self.evaluated_first(node):
                    e = Guard(e, e, "helper argument that may raise", "an argument that may raise must be "
                              "computed first in its statement: assign it to a variable before this "
                              "statement", loc=self.loc(arg))
                e = self.strict_let(e, name, self.loc(arg)).expr
            bound[name] = Scalar(e)
        fn = self.returned_lambda(fn_node, callee.scope.child(bound, locals_=function_locals(fn_node)))
        return FnV(fn, len(fn.params))
