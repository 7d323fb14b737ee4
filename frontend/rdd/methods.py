"""Translation of RDD method calls (``rdd.map(f)``, ``rdd.reduceByKey(add)``, ...) to SparkLite.

Each supported method maps to the SparkLite node with the same Spark meaning (see
``shared/design/spark-semantics.md``), following what PySpark itself runs: ``mapValues``/``keys``/
``values`` become a ``Map`` over the pair (``mapValues`` with ``preserves_partitioning``: Spark keeps a
shuffle's hash partitioning through it, which changes how a later ``union`` or ``join`` lays out
partitions), ``flatMapValues(f)`` the ``FlatMap`` of ``(k, y) for y in f(v)`` (also preserving),
``keyBy(f)`` ``map(lambda x: (f(x), x))``, ``countByKey()`` ``map(lambda x: x[0]).countByValue()``;
``groupByKey().mapValues(g)`` becomes ``GroupByKeyAgg`` when ``g`` uses the group through
``sum``/``len``/``min``/``max`` or as a whole list (``list``, ``sorted``: the list's order is the one
Spark builds, which depends on partitioning, as the interpreter models). ``collect()`` returned as it
is stays the RDD (its bag, or its sorted sequence after ``sortBy``); used on the driver it is a
``Collect``. Partition counts (``numPartitions``) other than Spark's default are rejected.
"""

from __future__ import annotations

import ast as pyast

from frontend.python.names import (
    BagV,
    CollectedV,
    DefV,
    FnV,
    GroupAggRef,
    GroupedV,
    GroupPairV,
    GroupValsV,
    InputV,
    OpV,
    Scalar,
    Scope,
    Value,
)
from frontend.python.nodes import AsBool, PairEach, PyIndex, Shaped, TruthFn, all_names, free_vars, transform
from frontend.python.udf import Translator
from frontend.python.udf_rules import is_bool_shaped
from sparklite import ast as sl
from sparklite.errors import TypeCheckError

SUPPORTED = {
    "map", "filter", "flatMap", "mapValues", "flatMapValues", "keys", "values", "cartesian", "join",
    "leftOuterJoin", "rightOuterJoin", "fullOuterJoin", "union", "distinct", "subtract", "intersection",
    "fold", "reduce", "aggregate", "sum", "count", "min", "max", "foldByKey", "reduceByKey",
    "aggregateByKey", "combineByKey", "groupByKey", "cache", "persist", "unpersist", "keyBy",
    "sortBy", "sortByKey", "collect", "take", "takeOrdered", "top", "first", "countByValue", "countByKey",
    "collectAsMap",
}

# Real RDD methods outside the fragment, with the reason shown to the user.
UNSUPPORTED = {
    "zipWithIndex": "indices depend on partitioning", "zipWithUniqueId": "ids depend on partitioning",
    "zip": "zip depends on partitioning",
    "groupBy": "groups are iterables whose order depends on partitioning",
    "lookup": "it returns a list", "subtractByKey": "not supported yet",
    "cogroup": "it produces iterables", "groupWith": "it produces iterables",
    "repartition": "repartitioning is not modelled", "coalesce": "repartitioning is not modelled",
    "partitionBy": "custom partitioning is not modelled",
    "repartitionAndSortWithinPartitions": "repartitioning is not modelled",
    "mapPartitions": "per-partition functions are not supported",
    "mapPartitionsWithIndex": "per-partition functions are not supported",
    "glom": "partitions as lists are not supported", "sample": "sampling is random",
    "randomSplit": "sampling is random", "takeSample": "sampling is random",
    "foreach": "side effects",
    "foreachPartition": "side effects", "saveAsTextFile": "side effects", "saveAsPickleFile": "side effects",
    "mean": "not supported yet (use sum() / count())", "stdev": "not supported yet",
    "variance": "not supported yet", "sampleStdev": "not supported yet",
    "sampleVariance": "not supported yet",
    "stats": "not supported yet", "histogram": "histograms are not supported",
    "treeAggregate": "tree aggregation is not modelled", "treeReduce": "tree aggregation is not modelled",
    "isEmpty": "not supported yet", "countApprox": "approximate", "sumApprox": "approximate",
    "meanApprox": "approximate", "countApproxDistinct": "approximate", "checkpoint": "not supported",
    "localCheckpoint": "not supported", "toDF": "DataFrames are not supported", "pipe": "external programs",
    "getNumPartitions": "partition counts are not modelled", "toLocalIterator": "not supported",
    "setName": "not supported", "barrier": "not supported", "withResources": "not supported",
}
RDD_METHODS = frozenset(SUPPORTED | set(UNSUPPORTED))
ORDER_NOTE = ("the order of a group's values depends on partitioning; use sum, len, min or max of the "
              "values, or the whole list (list, sorted)")

# aggregation name -> number of function arguments (after the zero value, if any)
_AGG_SHAPES = {
    "fold": 1, "aggregate": 2, "reduce": 1, "foldByKey": 1, "aggregateByKey": 2, "reduceByKey": 1,
    "combineByKey": 3,
}

# Keyword (and positional) parameters of the methods that have optional ones, in PySpark's order.
_SIGNATURES: dict[str, tuple[str, ...]] = {
    "sortBy": ("keyfunc", "ascending", "numPartitions"),
    "sortByKey": ("ascending", "numPartitions", "keyfunc"),
    "takeOrdered": ("num", "key"),
    "top": ("num", "key"),
}
_PARTITION_ARGS = ("numPartitions", "partitionFunc")
_WITH_NUM_PARTITIONS = frozenset({
    "distinct", "reduceByKey", "foldByKey", "aggregateByKey", "combineByKey", "groupByKey", "join",
    "leftOuterJoin", "rightOuterJoin", "fullOuterJoin", "subtract",
})


def method(tr: Translator, receiver: Value, func: pyast.Attribute, node: pyast.Call, scope: Scope) -> Value:
    name = func.attr
    mloc = tr.attr_loc(func)
    loc = tr.loc(node)
    if isinstance(receiver, GroupedV):
        tr.no_keywords(node)
        if name in ("mapValues", "map"):
            _expect_args(tr, node, name, 1, mloc)
            return _group_map_values(tr, receiver, node.args[0], scope, loc, whole_pair=name == "map")
        if name in ("cache", "persist", "unpersist") and not node.args:
            return receiver  # storage hints do not change results
        if name in ("count", "keys") and not node.args:
            # these never look at a group's values (whose order depends on partitioning): the same as on
            # the pairs (key, number of values), one per key
            return method(tr, BagV(sl.GroupByKeyAgg(("len",), receiver.source, loc=loc)), func, node, scope)
        raise tr.unsupported(f"groupByKey().{name}", "the result of groupByKey() is supported only "
                             "through .mapValues(f) or .map(f) where f uses the values via "
                             "sum/len/min/max or as a whole list", mloc)
    src = receiver.expr if isinstance(receiver, BagV) else receiver.var  # type: ignore[union-attr]
    if name not in SUPPORTED:
        if name in UNSUPPORTED:
            raise tr.unsupported(name, f"RDD method '{name}' is not supported: {UNSUPPORTED[name]}", mloc)
        raise tr.unsupported(name, f"unknown RDD method '{name}'", mloc)
    if name in _SIGNATURES:
        return _ordered(tr, name, src, node, scope, mloc, loc)
    _no_keywords(tr, node, name)
    if name in ("cache", "persist", "unpersist"):
        return BagV(src)  # storage hints do not change results
    args = node.args
    if name in ("map", "filter", "flatMap", "mapValues", "flatMapValues"):
        _expect_args(tr, node, name, 1, mloc)
        if name == "filter":
            return BagV(sl.Filter(_predicate(tr, args[0], scope), src, loc=loc))
        fn = tr.fn_arg(args[0], scope, 1, name)
        if name == "map":
            return BagV(sl.Map(fn, src, loc=loc))
        if name == "flatMap":
            return BagV(sl.FlatMap(fn, src, loc=loc))
        kv = _pair_param(tr, fn, loc)
        pair = Shaped(sl.Var(kv, loc=loc), 2, loc=loc)
        key, value = sl.Proj(pair, 0, loc=loc), sl.Proj(pair, 1, loc=loc)
        lam_param = (sl.Param(kv, loc=loc),)
        if name == "flatMapValues":
            # PySpark: flatMap(lambda kv: ((kv[0], x) for x in f(kv[1])), preservesPartitioning=True)
            body: sl.Expr = PairEach(key, tr.apply_fn(fn, (value,), loc), loc=loc)
            return BagV(sl.FlatMap(sl.Lambda(lam_param, body, loc=loc), src, preserves_partitioning=True,
                                   loc=loc))
        body = sl.TupleExpr((key, tr.apply_fn(fn, (value,), loc)), loc=loc)
        # Spark's mapValues is map(..., preservesPartitioning=True): a hash-partitioned bag stays so.
        return BagV(sl.Map(sl.Lambda(lam_param, body, loc=loc), src, preserves_partitioning=True, loc=loc))
    if name == "keyBy":  # Spark: map(lambda x: (f(x), x))
        _expect_args(tr, node, name, 1, mloc)
        fn = tr.fn_arg(args[0], scope, 1, name)
        x = tr.synth_param("x", all_names(fn) | free_vars(fn))
        xv = sl.Var(x, loc=loc)
        body = sl.TupleExpr((tr.apply_fn(fn, (xv,), loc), xv), loc=loc)
        return BagV(sl.Map(sl.Lambda((sl.Param(x, loc=loc),), body, loc=loc), src, loc=loc))
    if name in ("keys", "values"):
        _expect_args(tr, node, name, 0, mloc)
        return BagV(sl.Map(_component(tr, 0 if name == "keys" else 1, loc), src, loc=loc))
    if name in ("cartesian", "join", "union", "leftOuterJoin", "rightOuterJoin", "fullOuterJoin", "subtract",
                "intersection"):
        _expect_args(tr, node, name, 1, mloc)
        other = tr.expr(args[0], scope)
        if not isinstance(other, (BagV, InputV)):
            raise TypeCheckError(f"{name} needs an RDD argument", tr.loc(args[0]))
        other_expr = other.expr if isinstance(other, BagV) else other.var
        if name.endswith("OuterJoin"):
            kind = name[:-len("OuterJoin")]
            return BagV(sl.OuterJoin(kind, src, other_expr, loc=loc))  # type: ignore[arg-type]
        cls = {"cartesian": sl.Cartesian, "join": sl.Join, "union": sl.Union, "subtract": sl.Subtract,
               "intersection": sl.Intersection}[name]
        return BagV(cls(src, other_expr, loc=loc))
    if name == "distinct":
        _expect_args(tr, node, name, 0, mloc)
        return BagV(sl.Distinct(src, loc=loc))
    if name in ("sum", "count", "min", "max"):
        _expect_args(tr, node, name, 0, mloc)
        return Scalar(sl.SimpleAgg(name, src, loc=loc))  # type: ignore[arg-type]
    if name == "collect":
        _expect_args(tr, node, name, 0, mloc)
        return CollectedV(src, loc)
    if name in ("first", "countByValue", "collectAsMap"):
        _expect_args(tr, node, name, 0, mloc)
        cls = {"first": sl.First, "countByValue": sl.CountByValue, "collectAsMap": sl.CollectAsMap}[name]
        return Scalar(cls(src, loc=loc))
    if name == "countByKey":  # PySpark: self.map(lambda x: x[0]).countByValue()
        _expect_args(tr, node, name, 0, mloc)
        return Scalar(sl.CountByValue(sl.Map(_component(tr, 0, loc, index=True), src, loc=loc), loc=loc))
    if name == "take":
        _expect_args(tr, node, name, 1, mloc)
        return Scalar(sl.Take(tr.scalar(args[0], scope), src, loc=loc))
    if name == "groupByKey":
        _expect_args(tr, node, name, 0, mloc)
        return GroupedV(src, loc)
    n_fns = _AGG_SHAPES[name]
    has_zero = name in ("fold", "aggregate", "foldByKey", "aggregateByKey")
    _expect_args(tr, node, name, n_fns + (1 if has_zero else 0), mloc)
    zero = tr.scalar(args[0], scope) if has_zero else None
    fn_nodes = args[1:] if has_zero else args
    if name == "combineByKey":
        create = tr.fn_arg(fn_nodes[0], scope, 1, name)
        merge_value = tr.fn_arg(fn_nodes[1], scope, 2, name)
        merge_comb = tr.fn_arg(fn_nodes[2], scope, 2, name)
        return BagV(sl.CombineByKey(create, merge_value, merge_comb, src, loc=loc))
    fns = [tr.fn_arg(f, scope, 2, name) for f in fn_nodes]
    if name == "fold":
        return Scalar(sl.Fold(zero, fns[0], src, loc=loc))  # type: ignore[arg-type]
    if name == "aggregate":
        return Scalar(sl.Aggregate(zero, fns[0], fns[1], src, loc=loc))  # type: ignore[arg-type]
    if name == "reduce":
        return Scalar(sl.Reduce(fns[0], src, loc=loc))
    if name == "foldByKey":
        return BagV(sl.FoldByKey(zero, fns[0], src, loc=loc))  # type: ignore[arg-type]
    if name == "aggregateByKey":
        return BagV(sl.AggregateByKey(zero, fns[0], fns[1], src, loc=loc))  # type: ignore[arg-type]
    return BagV(sl.ReduceByKey(fns[0], src, loc=loc))


def _component(tr: Translator, i: int, loc: sl.Loc, index: bool = False) -> sl.Lambda:
    """``lambda kv: kv[i]`` over (key, value) pairs (``index``: PySpark's own ``x[0]``, which also
    indexes a string or a list)."""
    kv = _pair_param(tr, None, loc)
    var = sl.Var(kv, loc=loc)
    body: sl.Expr = PyIndex(var, sl.IntLit(i, loc=loc), loc=loc) if index else \
        sl.Proj(Shaped(var, 2, loc=loc), i, loc=loc)
    return sl.Lambda((sl.Param(kv, loc=loc),), body, loc=loc)


def _no_keywords(tr: Translator, node: pyast.Call, name: str) -> None:
    for kw in node.keywords:
        if kw.arg == "numPartitions" and name in _WITH_NUM_PARTITIONS \
                and isinstance(kw.value, pyast.Constant) and kw.value.value is None:
            continue  # PySpark's default
        if kw.arg in _PARTITION_ARGS:
            raise tr.unsupported("numPartitions argument", f"'{name}' with {kw.arg}=... is not supported: "
                                 "only Spark's default partition counts are modelled", kw.value)
        construct = "**kwargs" if kw.arg is None else "keyword argument"
        raise tr.unsupported(construct, f"keyword arguments are not supported here ({kw.arg or '**'}=...)",
                             kw.value)


def _ordered(tr: Translator, name: str, src: sl.Expr, node: pyast.Call, scope: Scope, mloc: sl.Loc,
             loc: sl.Loc) -> Value:
    """``sortBy``, ``sortByKey``, ``takeOrdered`` and ``top``, with PySpark's keyword parameters."""
    params = _SIGNATURES[name]
    given: dict[str, pyast.expr] = {}
    if len(node.args) > len(params):
        raise TypeCheckError(f"'{name}' takes at most {len(params)} arguments", tr.loc(node.args[-1]))
    for p, a in zip(params, node.args, strict=False):
        given[p] = a
    for kw in node.keywords:
        if kw.arg is None or kw.arg not in params:
            construct = "**kwargs" if kw.arg is None else "keyword argument"
            raise tr.unsupported(construct, f"'{name}' has no parameter {kw.arg or '**'}", kw.value)
        if kw.arg in given:
            raise TypeCheckError(f"'{name}' got two values for {kw.arg}", tr.loc(kw.value))
        given[kw.arg] = kw.value
    part = given.get("numPartitions")
    if part is not None and not (isinstance(part, pyast.Constant) and part.value is None):
        raise tr.unsupported("numPartitions argument", f"'{name}' with numPartitions is not supported: only "
                             "Spark's default partition counts are modelled", part)
    if name in ("takeOrdered", "top"):
        if "num" not in given:
            raise TypeCheckError(f"'{name}' needs the number of elements", mloc)
        count = tr.scalar(given["num"], scope)
        key = given.get("key")
        fn = None
        if key is not None and not (isinstance(key, pyast.Constant) and key.value is None):
            fn = tr.fn_arg(key, scope, 1, name)
        return Scalar(sl.TakeOrdered(count, fn, src, top=name == "top", loc=loc))
    ascending = True
    if "ascending" in given:
        asc = tr.scalar(given["ascending"], scope)
        if not isinstance(asc, sl.BoolLit):
            raise tr.unsupported("non-constant ascending", f"'{name}' needs ascending=True or False, a "
                                 "constant", given["ascending"])
        ascending = asc.value
    if name == "sortBy":
        if "keyfunc" not in given:
            raise TypeCheckError("'sortBy' needs a key function", mloc)
        key_fn = tr.fn_arg(given["keyfunc"], scope, 1, name)
        return BagV(sl.SortBy(key_fn, ascending, src, surface="sortBy", loc=loc))
    kv = _pair_param(tr, None, loc)
    key_expr: sl.Expr = sl.Proj(Shaped(sl.Var(kv, loc=loc), 2, loc=loc), 0, loc=loc)
    keyfunc = given.get("keyfunc")
    if keyfunc is not None:
        f = tr.fn_arg(keyfunc, scope, 1, name)
        kv = tr.synth_param("kv", all_names(f) | free_vars(f) | {kv})
        key_expr = tr.apply_fn(f, (sl.Proj(Shaped(sl.Var(kv, loc=loc), 2, loc=loc), 0, loc=loc),), loc)
    key_lam = sl.Lambda((sl.Param(kv, loc=loc),), key_expr, loc=loc)
    return BagV(sl.SortBy(key_lam, ascending, src, surface="sortByKey", loc=loc))


def _expect_args(tr: Translator, node: pyast.Call, name: str, n: int, loc: sl.Loc) -> None:
    got = len(node.args)
    if got > n:
        extra = node.args[n]
        raise tr.unsupported(f"{name} with extra arguments", f"'{name}' is supported with {n} argument(s); "
                             "extra arguments (numPartitions, partitionFunc, ...) are not", extra)
    if got < n:
        raise TypeCheckError(f"'{name}' takes {n} argument(s), {got} given", loc)


def _predicate(tr: Translator, node: pyast.expr, scope: Scope) -> sl.Fn:
    """``filter`` keeps elements whose result is *truthy* (an int predicate keeps non-zero results)."""
    fn = tr.fn_arg(node, scope, 1, "filter")
    if isinstance(fn, sl.Lambda):
        if is_bool_shaped(fn.body):
            return fn
        return sl.Lambda(fn.params, AsBool(fn.body, loc=fn.body.loc), loc=fn.loc)
    return TruthFn(fn, loc=fn.loc)  # type: ignore[return-value]


def _pair_param(tr: Translator, fn: sl.Fn | None, loc: sl.Loc) -> str:
    avoid: set[str] = set()
    if fn is not None:
        avoid = all_names(fn) | free_vars(fn)
    return tr.synth_param("kv", avoid)


def _group_map_values(tr: Translator, grouped: GroupedV, node: pyast.expr, scope: Scope,
                      loc: sl.Loc, whole_pair: bool = False) -> Value:
    """``groupByKey().mapValues(g)`` (``whole_pair``: ``groupByKey().map(f)`` where ``f`` reads the key as
    ``kv[0]`` and the values as ``kv[1]``, only through sum/len/min/max)."""
    what = "map" if whole_pair else "mapValues"
    if isinstance(node, pyast.Name) and scope.lookup(node.id) is None and node.id in (
            "tuple", "set", "iter", "reversed", "frozenset"):
        raise tr.unsupported(f"groupByKey().{what}({node.id})",
                             f"groupByKey().{what}({node.id}) is not supported: {ORDER_NOTE}", node)
    value = tr.expr(node, scope) if not isinstance(node, pyast.Lambda) else None
    if not whole_pair and isinstance(value, OpV) and value.name in ("sum", "len", "min", "max", "list"):
        return BagV(sl.GroupByKeyAgg((value.name,), grouped.source, loc=loc))  # type: ignore[arg-type]
    if not whole_pair and isinstance(value, OpV) and value.name == "sorted":
        agg = sl.GroupByKeyAgg(("list",), grouped.source, loc=loc)
        kv = tr.synth_param("kv")
        kvar = sl.Var(kv, loc=loc)
        ordered = sl.Call("sorted", (sl.Proj(kvar, 1, loc=loc),), loc=loc)
        body = sl.TupleExpr((sl.Proj(kvar, 0, loc=loc), ordered), loc=loc)
        return BagV(sl.Map(sl.Lambda((sl.Param(kv, loc=loc),), body, loc=loc), agg,
                           preserves_partitioning=True, loc=loc))
    if isinstance(node, pyast.Lambda):
        fn_node: pyast.Lambda | pyast.FunctionDef = node
    elif isinstance(value, DefV) and isinstance(tr.info.defs[value.name].node, (pyast.FunctionDef,
                                                                                pyast.Lambda)):
        fn_node = tr.info.defs[value.name].node
        scope = Scope({}, in_udf=True)
    elif isinstance(value, FnV) and isinstance(node, pyast.Name):
        raise tr.unsupported(f"groupByKey().{what}(local function)", "pass a lambda or a module-level "
                             f"function to groupByKey().{what}", node)
    else:
        label = node.id if isinstance(node, pyast.Name) else "this function"
        raise tr.unsupported(f"groupByKey().{what}({label})",
                             f"groupByKey().{what}({label}) is not supported: {ORDER_NOTE}", node)
    if len(fn_node.args.args) != 1:
        raise TypeCheckError(f"the function passed to groupByKey().{what} must take 1 argument",
                             tr.loc(node))
    param = fn_node.args.args[0].arg
    python_names = {n.id for n in pyast.walk(fn_node) if isinstance(n, pyast.Name)}
    python_names |= {a.arg for a in pyast.walk(fn_node) if isinstance(a, pyast.arg)}
    kv = tr.synth_param("kv", python_names)
    kvar = sl.Var(kv, loc=loc)
    if whole_pair:
        bound: Value = GroupPairV((Scalar(sl.Proj(kvar, 0, loc=loc)), GroupValsV(param)))
    else:
        bound = GroupValsV(param)
    lam = tr.lambda_fn(fn_node, scope, bind={param: bound})
    body = lam.body
    kinds: list[str] = []
    for n in sl.walk(body):
        if isinstance(n, GroupAggRef) and n.kind not in kinds:
            kinds.append(n.kind)
    body_nodes = fn_node.body if isinstance(fn_node.body, list) else [fn_node.body]
    if not kinds and not whole_pair and param not in {
            n.id for st in body_nodes for n in pyast.walk(st) if isinstance(n, pyast.Name)}:
        kinds = ["len"]  # the values are not read at all: one (key, constant) per key
    if not kinds:
        raise tr.unsupported(f"groupByKey().{what} without sum/len/min/max", "the function passed to "
                             f"groupByKey().{what} must use the values through sum, len, min or max, or as a "
                             "whole list", node)
    agg = sl.GroupByKeyAgg(tuple(kinds), grouped.source, loc=loc)  # type: ignore[arg-type]
    if isinstance(body, GroupAggRef) and not whole_pair:
        return BagV(agg)

    def replace_ref(n: sl.Node) -> sl.Node:
        if isinstance(n, GroupAggRef):
            value_part = sl.Proj(kvar, 1, loc=n.loc)
            if len(kinds) == 1:
                return value_part
            return sl.Proj(value_part, kinds.index(n.kind), loc=n.loc)
        return n

    new_body = transform(body, replace_ref)
    out = new_body if whole_pair else sl.TupleExpr((sl.Proj(kvar, 0, loc=loc), new_body), loc=loc)
    # groupByKey().mapValues keeps the hash partitioning; groupByKey().map does not.
    return BagV(sl.Map(sl.Lambda((sl.Param(kv, loc=loc),), out, loc=loc), agg,
                       preserves_partitioning=not whole_pair, loc=loc))
