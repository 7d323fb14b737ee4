"""The pipeline function's body: straight-line driver code around RDD method chains.

RDD-valued names are inlined where used (transformations are lazy, so Spark recomputes the lineage
too). Driver code is strict, as Python runs it: every scalar computed on the driver -- an action's
result, or arithmetic on it -- that a statement binds becomes a ``LetBinding``, and SparkLite evaluates
every let in order, used or not, so an action whose result is unused still raises (``rdd.reduce`` on an
empty RDD) exactly as in Python. Nothing is simplified here: dropping what cannot raise is
``sparklite.simplify``'s job. Module-level helpers that take RDDs are inlined at their call sites; their
arguments and their own statements are evaluated where Python evaluates them (as lets before the
calling statement), which is exact only when the call is evaluated first in its statement.
"""

from __future__ import annotations

import ast as pyast

from frontend.python.names import (
    BagV,
    CollectedV,
    FnV,
    GroupedV,
    InputV,
    LocalHelperV,
    ModuleDef,
    Scalar,
    Scope,
    TupleV,
    Value,
    function_locals,
    returns_function,
)
from frontend.python.nodes import Guard, Shaped
from frontend.python.udf import Translator
from sparklite import ast as sl
from sparklite.errors import TypeCheckError
from sparklite.types import BagType


def program_params(tr: Translator, fn: pyast.FunctionDef) -> tuple[list[sl.Param], dict[str, Value]]:
    """The pipeline's parameters: annotated RDDs, annotated scalars, or unannotated (decided by use)."""
    params = tr.params(fn.args, fn)
    out: list[sl.Param] = []
    bindings: dict[str, Value] = {}
    for name, ann, loc in params:
        var = sl.Var(name, loc=loc)
        out.append(sl.Param(name, ann, loc=loc))  # type: ignore[arg-type]
        if ann is None:
            bindings[name] = InputV(var)
        elif isinstance(ann, BagType):
            bindings[name] = BagV(var)
        else:
            bindings[name] = Scalar(var)
    tr.program_names |= set(bindings)
    tr.taken |= set(bindings)
    return out, bindings


def translate_pipeline(tr: Translator, fn: pyast.FunctionDef) -> sl.Program:
    if fn.decorator_list:
        raise tr.unsupported("decorator", "decorators are not supported", fn.decorator_list[0])
    params, bindings = program_params(tr, fn)
    scope = Scope(bindings, locals_=function_locals(fn))
    result = pipeline_block(tr, fn.body, scope, fn)
    body = to_expr(tr, result, fn)
    for guard in tr.side_guards:  # checked once the types are known (see Guard)
        body = Guard(body, guard.checked, guard.construct, guard.message, loc=guard.loc)
    tr.finalize_lists()
    return sl.Program(fn.name, tuple(params), tuple(tr.defs.values()), tuple(tr.lets), body, loc=tr.loc(fn))


def inline_helper(tr: Translator, mdef: ModuleDef, args: list[Value], call: pyast.Call) -> Value:
    """Call of a module-level function that works on RDDs: translate its body in place."""
    node = mdef.node
    if not isinstance(node, pyast.FunctionDef):
        raise tr.unsupported("RDD in a lambda helper", "RDD helpers must be defined with def", call)
    if mdef.name in tr.in_progress:
        raise tr.unsupported("recursion", f"'{mdef.name}' is recursive: recursion is not supported", call)
    params = tr.params(node.args, node)
    if len(params) != len(args):
        raise TypeCheckError(f"'{mdef.name}' takes {len(params)} argument(s), {len(args)} given",
                             tr.loc(call))
    first = tr.evaluated_first(call)
    bindings: dict[str, Value] = {}
    for (name, ann, _), value, arg in zip(params, args, call.args, strict=True):
        if isinstance(value, InputV) and ann is not None:
            value = BagV(value.var) if isinstance(ann, BagType) else Scalar(value.var)
        if isinstance(value, CollectedV):
            value = Scalar(tr.to_scalar(value, arg))
        if isinstance(value, Scalar) and not isinstance(value.expr, (sl.Var, sl.IntLit, sl.BoolLit)):
            # Python evaluates arguments once, at the call: a let (a UDF may then capture an action's
            # result, which it could not hold inline); reordering only matters if it may raise
            expr = value.expr if first else _not_first_guard(tr, value.expr, call)
            value = tr.strict_let(expr, name, tr.loc(arg))
        bindings[name] = value
    tr.in_progress.append(mdef.name)
    lets_before = len(tr.lets)
    root = tr.stmt_root
    try:
        result = pipeline_block(tr, node.body, Scope(bindings, locals_=function_locals(node)), node)
    finally:
        tr.in_progress.pop()
        tr.stmt_root = root
    if not first:
        if any(lt.name in tr.bag_lets for lt in tr.lets[lets_before:]):
            raise _not_first(tr, call)
        for i in range(lets_before, len(tr.lets)):
            lt = tr.lets[i]
            tr.lets[i] = sl.LetBinding(lt.name, _not_first_guard(tr, lt.value, call), loc=lt.loc)
    return result


_NOT_FIRST = "RDD helper call after other driver work"


def _not_first_message(call: pyast.Call) -> str:
    name = getattr(call.func, "id", "helper")
    return (f"'{name}' runs driver computations that may raise, so it must be evaluated first in its "
            "statement: assign its result to a variable first")


def _not_first(tr: Translator, call: pyast.Call) -> Exception:
    return tr.unsupported(_NOT_FIRST, _not_first_message(call), call)


def _not_first_guard(tr: Translator, expr: sl.Expr, call: pyast.Call) -> sl.Expr:
    """``expr``, moved before the statement it belongs to: exact only if it cannot raise (decided once
    its types are known)."""
    return Guard(expr, expr, _NOT_FIRST, _not_first_message(call), loc=tr.loc(call))


def pipeline_block(tr: Translator, stmts: list[pyast.stmt], scope: Scope, owner: pyast.AST) -> Value:
    for stmt in stmts:
        tr.stmt_root = getattr(stmt, "value", None)
        if isinstance(stmt, pyast.Return):
            if stmt.value is None:
                raise tr.unsupported("return None", "the pipeline must return its result", stmt)
            return tr.expr(stmt.value, scope)
        if isinstance(stmt, pyast.Pass):
            continue
        if isinstance(stmt, pyast.Expr):
            value_node = stmt.value
            if isinstance(value_node, pyast.Constant) and isinstance(value_node.value, str):
                continue
            if isinstance(value_node, pyast.Call) and isinstance(value_node.func, pyast.Name) \
                    and value_node.func.id == "print":
                raise tr.unsupported("print", "print is a side effect and is not supported", stmt)
            value = tr.expr(value_node, scope)
            if isinstance(value, CollectedV):
                value = Scalar(tr.to_scalar(value, value_node))
            if isinstance(value, Scalar):  # an action run for its effect: it may still raise
                tr.strict_let(value.expr, "unused", tr.loc(stmt))
            elif tr.builds_raising(value):  # an RDD built with arguments that may raise
                tr.bag_let(value, "unused", tr.loc(stmt))  # type: ignore[arg-type]
            continue
        if isinstance(stmt, (pyast.Assign, pyast.AnnAssign, pyast.AugAssign)):
            target, value_node = tr.assignment_parts(stmt)
            value = tr.expr(value_node, scope)
            tr.check_rebind(target, scope)
            bind_pipeline(tr, target, value, scope, stmt)
            continue
        if isinstance(stmt, pyast.FunctionDef):
            if stmt.decorator_list:
                raise tr.unsupported("decorator", "decorators are not supported", stmt.decorator_list[0])
            tr.check_def_rebind(stmt, scope)
            if returns_function(stmt):
                scope.vars[stmt.name] = LocalHelperV(stmt, scope)
                continue
            fn = tr.lambda_fn(stmt, scope)
            scope.vars[stmt.name] = FnV(fn, len(fn.params))
            continue
        if isinstance(stmt, pyast.If):
            raise tr.unsupported("if statement in the pipeline", "control flow in the driver code is not "
                                 "supported (use a conditional expression on scalars)", stmt)
        tr.unsupported_statement(stmt)
    raise tr.unsupported("implicit None return", "the pipeline function must return its result", owner)


def bind_pipeline(tr: Translator, target: pyast.expr, value: Value, scope: Scope, stmt: pyast.stmt) -> None:
    loc = tr.loc(stmt)
    if isinstance(value, CollectedV):  # the job runs here, as in Python
        value = Scalar(tr.to_scalar(value, target))
    if isinstance(target, pyast.Name):
        if isinstance(value, Scalar) and not isinstance(value.expr, (sl.Var, sl.IntLit, sl.BoolLit)):
            scope.vars[target.id] = tr.strict_let(value.expr, target.id, loc)
        elif isinstance(value, BagV) and tr.builds_raising(value):
            # an RDD whose construction may raise is built here, not where it is used (maybe never)
            scope.vars[target.id] = tr.bag_let(value, target.id, loc)
        elif isinstance(value, FnV) and isinstance(value.fn, sl.PApp) \
                and any(tr.raises(a) for a in value.fn.args):
            # ``h = below(10 // t)``: the arguments are evaluated here, whether or not h is ever called
            args = tuple(tr.strict_let(a, f"{target.id}_arg", loc).expr if tr.raises(a) else a
                         for a in value.fn.args)
            scope.vars[target.id] = FnV(sl.PApp(value.fn.name, args, loc=value.fn.loc), value.arity)
        else:
            scope.vars[target.id] = value
        return
    if isinstance(target, (pyast.Tuple, pyast.List)) and isinstance(value, Scalar) \
            and all(isinstance(e, pyast.Name) for e in target.elts):
        names = [e.id for e in target.elts]  # type: ignore[attr-defined]
        let = tr.fresh_let("_".join(names))
        # unpacking (py.unpack of a list: ValueError on a wrong length) happens here, as in Python
        tr.lets.append(sl.LetBinding(let, Shaped(value.expr, len(names), loc=loc), loc=loc))
        for i, n in enumerate(names):
            scope.vars[n] = Scalar(sl.Proj(sl.Var(let, loc=loc), i, loc=loc))
        return
    if isinstance(target, (pyast.Tuple, pyast.List)) and isinstance(value, Scalar):
        let = tr.fresh_let("tuple")
        tr.lets.append(sl.LetBinding(let, value.expr, loc=loc))
        value = Scalar(sl.Var(let, loc=loc))
    tmp: dict[str, Value] = {}
    for shaped in tr.bind(target, value, tmp, stmt):  # nested unpacking happens here, as in Python
        tr.strict_let(shaped, "unpacked", loc)
    scope.vars.update(tmp)


def to_expr(tr: Translator, value: Value, node: pyast.AST) -> sl.Expr:
    """The program's result: a bag, a basic value, or a tuple of these."""
    if isinstance(value, Scalar):
        return value.expr
    if isinstance(value, BagV):
        return value.expr
    if isinstance(value, InputV):
        return value.var
    if isinstance(value, CollectedV):
        return value.bag  # the list collect() returns, observed as the RDD is: its bag (or sorted order)
    if isinstance(value, TupleV):
        return sl.TupleExpr(tuple(to_expr(tr, v, node) for v in value.items), loc=tr.loc(node))
    if isinstance(value, GroupedV):
        raise tr.unsupported("groupByKey result", "returning groupByKey()'s iterables is not supported: "
                             "their order depends on partitioning", value.loc)
    raise tr.unsupported("returning a function", "the pipeline must return RDDs or values", node)

