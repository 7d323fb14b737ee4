"""What a name means on the driver of an RDD script beyond what the RDD frontend knows (the session,
the context, ``sys.argv``, a logger), the fixed tables of driver methods, and small helpers over
Python's ``ast`` and literal values that every part of the driver reads.
"""

from __future__ import annotations

import ast as pyast
from dataclasses import dataclass
from typing import Any

from frontend.rdd.methods import RDD_METHODS
from sparklite import ast as sl

# --- driver meta-values: what a name means on the driver, beyond what the RDD frontend knows ----------


@dataclass(frozen=True)
class _Meta:
    kind: str  # module | class | builder | session | context | conf | argv | logger | stream | reader
    name: str = ""


_SESSION = _Meta("session")
_CONTEXT = _Meta("context")
_ARGV = _Meta("argv")
_LOGGER = _Meta("logger")

_PYSPARK_CLASSES = frozenset({"SparkSession", "SparkContext", "SparkConf"})
_LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "critical", "exception", "log"})
_BUILDER_METHODS = frozenset({"appName", "master", "config", "enableHiveSupport"})
_CONF_METHODS = frozenset({"setAppName", "setMaster", "set", "setAll", "setIfMissing"})
# configuration keys that do not change what an RDD job computes (memory, UI, logging, names). Of the
# SQL settings only those that cannot reach an RDD job: not all of "spark.sql." -- an RDD read through
# spark.read.text(p).rdd gets its partitions from spark.sql.files.* (maxPartitionBytes=1 splits a
# 17-byte file into 17 partitions on Spark 4, and getNumPartitions() prints it), and ignoreCorruptFiles/
# ignoreMissingFiles change which lines it reads
_HARMLESS_CONF_PREFIXES = ("spark.ui.", "spark.app.name", "spark.executor.memory", "spark.driver.memory",
                           "spark.executor.cores", "spark.driver.cores", "spark.eventLog.", "spark.logConf",
                           "spark.serializer", "spark.kryo", "spark.master",
                           "spark.sql.shuffle.partitions", "spark.sql.adaptive.", "spark.sql.warehouse.dir",
                           "spark.sql.session.timeZone", "spark.sql.ansi.enabled", "spark.sql.extensions",
                           "spark.sql.execution.arrow.", "spark.sql.catalogImplementation",
                           "spark.driver.host", "spark.driver.bindAddress", "spark.local.dir",
                           "spark.python.worker.memory",
                           # the cores a cluster gives the job: ignored in local mode; elsewhere it sizes
                           # the default parallelism like the cluster does, which proofs range over
                           "spark.cores.max")
_OTHER_SOURCES = frozenset({"wholeTextFiles", "binaryFiles", "sequenceFile", "pickleFile", "objectFile",
                            "range", "emptyRDD", "hadoopFile", "newAPIHadoopFile", "hadoopRDD",
                            "newAPIHadoopRDD", "binaryRecords", "union", "broadcast", "accumulator",
                            "addFile", "addPyFile"})
_COLLECTING = frozenset({"collect", "take", "takeOrdered", "top", "countByValue", "countByKey",
                         "collectAsMap"})
_MAX_UNROLL = 20
_SINK_BASE = "sink"
_LOOP_BASE = "line"


def _loc(node: pyast.AST, filename: str) -> sl.Loc:
    return sl.Loc(filename, getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1)


def _at(new: pyast.AST, old: pyast.AST) -> Any:
    """``new`` placed at ``old``'s position (and every child without one), so that errors point there."""
    pyast.copy_location(new, old)
    for n in pyast.walk(new):
        if not hasattr(n, "lineno") and isinstance(n, (pyast.expr, pyast.stmt)):
            pyast.copy_location(n, old)
    return new


def _name(id_: str, old: pyast.AST, store: bool = False) -> pyast.Name:
    return _at(pyast.Name(id_, pyast.Store() if store else pyast.Load()), old)


def _call(func: str, args: list[pyast.expr], old: pyast.AST) -> pyast.Call:
    return _at(pyast.Call(_name(func, old), args, []), old)


def _str_const(node: pyast.AST) -> str | None:
    return node.value if isinstance(node, pyast.Constant) and isinstance(node.value, str) else None


def _is_main_test(test: pyast.expr) -> bool | None:
    """``__name__ == "__main__"`` (either order): None when ``test`` is something else."""
    if isinstance(test, pyast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (pyast.Eq,
                                                                                             pyast.NotEq)):
        a, b = test.left, test.comparators[0]
        if isinstance(a, pyast.Name) and a.id == "__name__" and _str_const(b) == "__main__" \
                or isinstance(b, pyast.Name) and b.id == "__name__" and _str_const(a) == "__main__":
            return isinstance(test.ops[0], pyast.Eq)
    return None


def _uses_spark_at_module_level(tree: pyast.Module) -> bool:
    spark_words = {"SparkSession", "SparkContext", "SparkConf", "textFile", "parallelize", "sparkContext",
                   "getOrCreate"} | set(RDD_METHODS)
    for stmt in tree.body:
        if isinstance(stmt, (pyast.FunctionDef, pyast.AsyncFunctionDef, pyast.ClassDef, pyast.Import,
                             pyast.ImportFrom)):
            continue
        if isinstance(stmt, pyast.If) and _is_main_test(stmt.test) is not None:
            return True
        for n in pyast.walk(stmt):
            if isinstance(n, pyast.Attribute) and n.attr in spark_words:
                return True
            if isinstance(n, pyast.Name) and n.id in ("SparkSession", "SparkContext"):
                return True
    return False




# --- the driver ------------------------------------------------------------------------------------


@dataclass
class _Loop:
    """What a name bound to a collected result (``output = counts.collect()``) stands for."""

    kind: str  # "bag" (collect of an RDD: the alias names the RDD) | "list" (take, sorted, ...) | "dict"
    alias: str | None  # the synthetic name bound to the collected RDD (kind "bag"), or counted ("dict")
    method: str | None = None  # the action that made a dict (countByValue, countByKey, collectAsMap)




class _Unknown:
    pass


_UNKNOWN = _Unknown()


def _type_or_none(types: Any, node: sl.Expr) -> Any:
    try:
        return types.type_of_node(node)
    except KeyError:
        return None


def _constant_like(node: pyast.expr) -> bool:
    """A module-level value the RDD frontend reads as a constant (no names but other constants is not
    checked here: the module scan decides)."""
    if isinstance(node, pyast.Constant):
        return True
    if isinstance(node, (pyast.Tuple, pyast.List, pyast.Set)):
        return all(_constant_like(e) for e in node.elts)
    if isinstance(node, pyast.UnaryOp):
        return _constant_like(node.operand)
    if isinstance(node, pyast.BinOp):
        return _constant_like(node.left) and _constant_like(node.right)
    return False


def _literal_type(values: tuple[Any, ...]) -> str | None:
    types = {_value_type(v) for v in values}
    if len(types) != 1:
        return None if types else "int"
    t = types.pop()
    return t


def _value_type(v: Any) -> str | None:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "str"
    if isinstance(v, tuple) and v:
        items = [_value_type(x) for x in v]
        if any(i is None for i in items):
            return None
        return f"tuple[{', '.join(items)}]"  # type: ignore[arg-type]
    return None


def _program_name(filename: str) -> str:
    import os

    base = os.path.splitext(os.path.basename(filename or "script"))[0]
    name = "".join(c if c.isalnum() or c == "_" else "_" for c in base) or "script"
    return name if name[0].isalpha() else f"script_{name}"
