"""Name resolution: what a Python name means inside the analysed file.

The frontend never imports the user's module, so meaning comes from the source alone: module-level
``def``s, module-level lambdas, module constants (single assignments of constant expressions),
``operator`` imports, a few builtins, and -- inside the pipeline function -- local bindings to RDDs,
scalars and functions. ``Value`` is what a Python expression stands for during translation.
"""

from __future__ import annotations

import ast as pyast
from dataclasses import dataclass, field

from sparklite import ast as sl
from sparklite.errors import NameResolutionError, UnsupportedError

# --- Values -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scalar:
    """A basic value (int, bool, tuple of them) given by a SparkLite expression."""

    expr: sl.Expr


@dataclass(frozen=True)
class BagV:
    """An RDD (transformations are lazy, so the expression is inlined wherever it is used)."""

    expr: sl.Expr


@dataclass(frozen=True)
class InputV:
    """An unannotated program parameter: an RDD or a scalar, decided by how it is used."""

    var: sl.Var


@dataclass(frozen=True)
class TupleV:
    """A Python tuple holding at least one RDD (only a program result may contain bags)."""

    items: tuple[Value, ...]


@dataclass(frozen=True)
class FnV:
    """A function value ready to hand to Spark: a lambda, a named ``FunDef`` or an instantiated helper."""

    fn: sl.Fn
    arity: int


@dataclass(frozen=True)
class OpV:
    """An ``operator`` function or builtin used as a value (``reduce(add)``, ``mapValues(sum)``)."""

    name: str


@dataclass(frozen=True)
class DefV:
    """A module-level ``def`` (or lambda bound at module level), translated on first use."""

    name: str


@dataclass(frozen=True)
class LocalHelperV:
    """A function-returning ``def`` nested in the pipeline function (instantiated where it is called)."""

    node: pyast.FunctionDef
    scope: Scope


@dataclass(frozen=True)
class PendingV:
    """``helper(e)`` inside a UDF where ``e`` is not a plain name: applied later as one call
    ``fn(e, y...)`` so that ``e`` is still evaluated first, as in Python."""

    fn: sl.Lambda
    args: tuple[sl.Expr, ...]
    arity: int


@dataclass(frozen=True)
class GroupedV:
    """The result of ``groupByKey()``: only ``mapValues`` with whole-group functions may follow."""

    source: sl.Expr
    loc: sl.Loc


@dataclass(frozen=True)
class GroupValsV:
    """The iterable of a key's values inside ``groupByKey().mapValues(lambda vs: ...)``."""

    name: str


@dataclass(frozen=True)
class GroupPairV(TupleV):
    """The ``(key, values)`` pair inside ``groupByKey().map(lambda kv: ...)``."""


@dataclass(frozen=True)
class GroupAggRef(sl.Node):
    """``sum(vs)``/``len(vs)``/``min(vs)``/``max(vs)``, or the group as a list (``list(vs)``, ``sorted(vs)``,
    a comprehension over ``vs``), inside a grouped ``mapValues`` (frontend-private)."""

    kind: str


@dataclass(frozen=True)
class CollectedV:
    """The list ``rdd.collect()`` returns: returned as it is, it is the RDD's bag (``return R.collect()``
    observes the same elements, in the same sorted order after ``sortBy``); used on the driver it is a
    ``Collect`` (a job that runs where Python runs it)."""

    bag: sl.Expr
    loc: sl.Loc


Value = (Scalar | BagV | InputV | TupleV | FnV | OpV | DefV | GroupedV | GroupValsV | LocalHelperV | PendingV
         | CollectedV)
# (a name may also resolve to ``UNBOUND``: see ``Scope.resolve``)


# Binary operator functions: name -> SparkLite operator (and whether operands are numbers).
OPERATOR_BINARY = {
    "add": "+", "sub": "-", "mul": "*", "floordiv": "//", "mod": "%",
    "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=",
}
OPERATOR_UNARY = {"neg", "abs", "not_", "truth", "pos"}
OPERATOR_UNSUPPORTED = {
    "truediv": "true division produces a float", "pow": "operator.pow (use ** with a small constant)",
    "and_": "bitwise &", "or_": "bitwise |", "xor": "bitwise ^", "concat": "sequence concatenation",
    "itemgetter": "operator.itemgetter", "attrgetter": "operator.attrgetter",
    "methodcaller": "operator.methodcaller", "lshift": "bitwise <<", "rshift": "bitwise >>",
    "inv": "bitwise ~", "invert": "bitwise ~", "contains": "membership test",
}
BUILTIN_FUNCS = {"min", "max", "abs", "sum", "len", "int", "bool", "float", "str", "round", "sorted", "list"}
MATH_FUNCS = {"sqrt", "floor", "ceil"}
MATH_CONSTANTS = {"pi", "e", "inf", "nan", "tau"}
UNSUPPORTED_BUILTINS = {
    "print": "print", "range": "range", "divmod": "divmod", "pow": "pow", "map": "builtin map",
    "filter": "builtin filter", "zip": "zip", "enumerate": "enumerate", "reversed": "reversed",
    "any": "any", "all": "all", "set": "set", "dict": "dict", "tuple": "tuple", "iter": "iter",
    "next": "next", "hash": "hash", "isinstance": "isinstance", "open": "open", "input": "input",
    "eval": "eval", "exec": "exec", "getattr": "getattr", "id": "id", "type": "type",
}


@dataclass
class ModuleDef:
    """A module-level function: ``def`` or ``name = lambda ...``."""

    name: str
    node: pyast.FunctionDef | pyast.Lambda
    parametric: bool  # returns a function (``def below(n): return lambda v: v < n``)
    uses_rdd: bool  # its body calls RDD methods (an RDD helper, inlined at the call site)


@dataclass
class ModuleInfo:
    """Everything bound at the top level of the analysed file, found without executing it."""

    filename: str
    tree: pyast.Module
    defs: dict[str, ModuleDef] = field(default_factory=dict)
    constants: dict[str, pyast.expr] = field(default_factory=dict)
    # names bound at module level to something that is not a constant (imports, sc, mutable state)
    opaque: dict[str, pyast.AST] = field(default_factory=dict)
    operator_aliases: dict[str, str] = field(default_factory=dict)  # local name -> operator fn name
    operator_modules: set[str] = field(default_factory=set)  # names bound to the operator module
    math_modules: set[str] = field(default_factory=set)  # names bound to the math module
    math_aliases: dict[str, str] = field(default_factory=dict)  # local name -> math function/constant
    re_modules: set[str] = field(default_factory=set)  # names bound to the re module (frontend.python.regex)
    stats_modules: set[str] = field(default_factory=set)  # names bound to statistics (sparklite.pystats)
    mutated: set[str] = field(default_factory=set)  # names declared ``global`` somewhere
    all_identifiers: set[str] = field(default_factory=set)
    param_names: set[str] = field(default_factory=set)  # every function/lambda parameter in the file


def _is_constant_expr(node: pyast.expr, known: dict[str, pyast.expr]) -> bool:
    if isinstance(node, pyast.Constant):
        return node.value is None or isinstance(node.value, (bool, int, float, str))
    if isinstance(node, pyast.Name):
        return node.id in known
    if isinstance(node, pyast.Tuple):
        return all(_is_constant_expr(e, known) for e in node.elts)
    if isinstance(node, pyast.UnaryOp):
        return _is_constant_expr(node.operand, known)
    if isinstance(node, pyast.BinOp):
        return _is_constant_expr(node.left, known) and _is_constant_expr(node.right, known)
    return False


def returns_function(fn: pyast.FunctionDef) -> bool:
    """A parametric helper: its final statement returns a lambda or a locally defined function."""
    if not fn.body or not isinstance(fn.body[-1], pyast.Return) or fn.body[-1].value is None:
        return False
    value = fn.body[-1].value
    if isinstance(value, pyast.Lambda):
        return True
    local_defs = {s.name for s in fn.body if isinstance(s, pyast.FunctionDef)}
    return isinstance(value, pyast.Name) and value.id in local_defs


def scan_module(tree: pyast.Module, filename: str, rdd_methods: frozenset[str]) -> ModuleInfo:
    """Collect module-level bindings; a name assigned more than once is not a constant."""
    info = ModuleInfo(filename, tree)
    assign_counts: dict[str, int] = {}
    for node in pyast.walk(tree):
        if isinstance(node, pyast.Name):
            info.all_identifiers.add(node.id)
        elif isinstance(node, pyast.arg):
            info.all_identifiers.add(node.arg)
            info.param_names.add(node.arg)
        elif isinstance(node, (pyast.FunctionDef, pyast.AsyncFunctionDef)):
            info.all_identifiers.add(node.name)
        elif isinstance(node, pyast.Global):
            info.mutated.update(node.names)
    for stmt in tree.body:
        for target in _assigned_names(stmt):
            assign_counts[target] = assign_counts.get(target, 0) + 1
    for stmt in tree.body:
        if isinstance(stmt, pyast.FunctionDef):
            if assign_counts.get(stmt.name, 0) > 1 or stmt.name in info.mutated:
                info.opaque[stmt.name] = stmt  # redefined: which definition runs is not static
                continue
            uses = any(isinstance(n, pyast.Attribute) and n.attr in rdd_methods
                       and isinstance(getattr(n, "ctx", None), pyast.Load) for n in pyast.walk(stmt))
            info.defs[stmt.name] = ModuleDef(stmt.name, stmt, returns_function(stmt), uses)
        elif isinstance(stmt, pyast.Import):
            for alias in stmt.names:
                if alias.name == "operator":
                    info.operator_modules.add(alias.asname or "operator")
                elif alias.name == "math" and assign_counts.get(alias.asname or "math") == 1:
                    info.math_modules.add(alias.asname or "math")
                else:
                    if alias.name == "re" and assign_counts.get(alias.asname or "re") == 1:
                        info.re_modules.add(alias.asname or "re")  # calls only; other uses stay opaque
                    if alias.name == "statistics" and assign_counts.get(alias.asname or "statistics") == 1:
                        info.stats_modules.add(alias.asname or "statistics")  # calls only, as re
                    info.opaque[(alias.asname or alias.name).split(".")[0]] = stmt
        elif isinstance(stmt, pyast.ImportFrom):
            for alias in stmt.names:
                local = alias.asname or alias.name
                if stmt.module == "operator":
                    info.operator_aliases[local] = alias.name
                elif stmt.module == "math" and alias.name in MATH_FUNCS | MATH_CONSTANTS \
                        and assign_counts.get(local) == 1:
                    info.math_aliases[local] = alias.name
                else:
                    info.opaque[local] = stmt
        elif isinstance(stmt, (pyast.Assign, pyast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, pyast.Assign) else [stmt.target]
            value = stmt.value
            if (len(targets) == 1 and isinstance(targets[0], pyast.Name) and value is not None
                    and assign_counts.get(targets[0].id) == 1 and targets[0].id not in info.mutated):
                name = targets[0].id
                if isinstance(value, pyast.Lambda):
                    info.defs[name] = ModuleDef(name, value, isinstance(value.body, pyast.Lambda), False)
                    continue
                if _is_constant_expr(value, info.constants) or _is_container_constant(value, info.constants):
                    info.constants[name] = value
                    continue
            for name in _assigned_names(stmt):
                info.opaque[name] = stmt
        else:
            for name in _assigned_names(stmt):
                info.opaque[name] = stmt
    _drop_mutable_containers(tree, info)
    return info


def _is_container_constant(node: pyast.expr, known: dict[str, pyast.expr]) -> bool:
    """A list or set display of constants (``STOP = ["a", "the"]``): a constant only while the module
    uses it in ways that cannot mutate it (see ``_drop_mutable_containers``)."""
    return isinstance(node, (pyast.List, pyast.Set)) and all(
        _is_constant_expr(e, known) and not isinstance(e, pyast.Starred) for e in node.elts)


def _drop_mutable_containers(tree: pyast.Module, info: ModuleInfo) -> None:
    """A module-level list or set is a constant only if every read of its name is a membership test
    (``x in STOP``), or for a list the iterable of a comprehension or ``len(STOP)``: anything else
    (``STOP.append``, passing it to a function, indexing) may mutate or expose it, so it is opaque."""
    containers = {n for n, v in info.constants.items() if isinstance(v, (pyast.List, pyast.Set))}
    if not containers:
        return
    allowed: set[int] = set()
    for node in pyast.walk(tree):
        if isinstance(node, pyast.Compare):
            for op, comp in zip(node.ops, node.comparators, strict=True):
                if isinstance(op, (pyast.In, pyast.NotIn)) and isinstance(comp, pyast.Name):
                    allowed.add(id(comp))
        elif isinstance(node, pyast.comprehension) and isinstance(node.iter, pyast.Name):
            if isinstance(info.constants.get(node.iter.id), pyast.List):
                allowed.add(id(node.iter))
        elif isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) and node.func.id == "len" \
                and len(node.args) == 1 and isinstance(node.args[0], pyast.Name) \
                and isinstance(info.constants.get(node.args[0].id), pyast.List):
            allowed.add(id(node.args[0]))
    for node in pyast.walk(tree):
        if isinstance(node, pyast.Name) and node.id in containers and isinstance(node.ctx, pyast.Load) \
                and id(node) not in allowed:
            stmt = info.constants.pop(node.id)
            info.opaque[node.id] = stmt
            containers.discard(node.id)


def _assigned_names(stmt: pyast.stmt) -> list[str]:
    """Every name a module-level statement may bind (as Python does: assignment targets, walrus
    anywhere outside a function body, imports, ``def``/``class``, ``for``/``with``/``except`` targets)."""
    return list(_bound_names([stmt]))


def _bound_names(stmts: list[pyast.stmt]) -> list[str]:
    """The names ``stmts`` bind in their own scope, in order, not looking into nested function, lambda
    or class bodies (which have scopes of their own) but counting the names of nested ``def``s."""
    out: list[str] = []
    todo: list[pyast.AST] = list(reversed(stmts))
    while todo:
        n = todo.pop()
        if isinstance(n, (pyast.FunctionDef, pyast.AsyncFunctionDef, pyast.ClassDef)):
            out.append(n.name)
            args = getattr(n, "args", None)
            evaluated_here = [*n.decorator_list, *getattr(args, "defaults", []),
                              *(d for d in getattr(args, "kw_defaults", []) if d is not None)]
            todo.extend(reversed(evaluated_here))
            continue
        if isinstance(n, (pyast.Lambda, pyast.ListComp, pyast.SetComp, pyast.DictComp, pyast.GeneratorExp)):
            continue  # own scopes
        if isinstance(n, pyast.Name) and isinstance(n.ctx, (pyast.Store, pyast.Del)):
            out.append(n.id)
        elif isinstance(n, (pyast.Import, pyast.ImportFrom)):
            out.extend((a.asname or a.name).split(".")[0] for a in n.names)
        elif isinstance(n, pyast.ExceptHandler) and n.name:
            out.append(n.name)
        todo.extend(reversed(list(pyast.iter_child_nodes(n))))
    return out


def function_locals(node: pyast.AST) -> frozenset[str]:
    """The names Python makes local to a function (bound anywhere in its body, minus ``global`` and
    ``nonlocal`` declarations): inside the function such a name never means a module-level binding,
    even before its assignment runs (Python raises UnboundLocalError, or a closure reads the later
    value)."""
    if not isinstance(node, (pyast.FunctionDef, pyast.AsyncFunctionDef)):
        return frozenset()
    declared = {name for n in pyast.walk(node) if isinstance(n, (pyast.Global, pyast.Nonlocal))
                for name in n.names}
    params = {a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)}
    return frozenset(set(_bound_names(node.body)) - declared - params)


# --- Scopes -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnboundV:
    """A function's local name read before its assignment (see ``function_locals``)."""


UNBOUND = UnboundV()


@dataclass
class Scope:
    """A chain of local scopes (UDF locals -> enclosing lambdas -> pipeline function)."""

    vars: dict[str, Value]
    parent: Scope | None = None
    in_udf: bool = False
    boundary: bool = False  # a function's own scope: names found beyond it are captured by a closure
    locals_: frozenset[str] = frozenset()  # a function's local names (``function_locals``)
    narrowed: frozenset[str] = frozenset()  # paths (``kv[1][1]``) tested ``is not None`` on this path

    def lookup(self, name: str) -> Value | None:
        return self.resolve(name)[0]

    def resolve(self, name: str) -> tuple[Value | None, Scope | None, bool]:
        """The binding of ``name``, the scope holding it, and whether a closure captures it. A name local
        to a function but not bound yet resolves to ``UNBOUND``, never to an outer binding."""
        scope: Scope | None = self
        crossed = False
        while scope is not None:
            if name in scope.vars:
                return scope.vars[name], scope, crossed
            if name in scope.locals_:
                return UNBOUND, scope, crossed
            crossed = crossed or scope.boundary
            scope = scope.parent
        return None, None, False

    def child(self, vars_: dict[str, Value] | None = None, in_udf: bool | None = None,
              boundary: bool = False, locals_: frozenset[str] = frozenset(),
              narrowed: frozenset[str] = frozenset()) -> Scope:
        return Scope(dict(vars_ or {}), self, self.in_udf if in_udf is None else in_udf, boundary, locals_,
                     narrowed)

    def is_narrowed(self, key: str, names: set[str]) -> bool:
        """Whether the path ``key`` (mentioning ``names``) was tested ``is not None`` on this path and
        none of its names was rebound since."""
        scope: Scope | None = self
        while scope is not None:
            if key in scope.narrowed:
                return True
            if names & (set(scope.vars) | scope.locals_):
                return False
            scope = scope.parent
        return False

    def names(self) -> set[str]:
        out: set[str] = set()
        scope: Scope | None = self
        while scope is not None:
            out |= set(scope.vars)
            for v in scope.vars.values():
                if isinstance(v, Scalar) and isinstance(v.expr, sl.Var):
                    out.add(v.expr.name)
            scope = scope.parent
        return out


def undefined(name: str, loc: sl.Loc) -> NameResolutionError:
    return NameResolutionError(f"name '{name}' is not defined", loc)


def unsupported(construct: str, message: str, loc: sl.Loc) -> UnsupportedError:
    return UnsupportedError(message, loc, construct=construct)
