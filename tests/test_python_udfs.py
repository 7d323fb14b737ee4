"""Python UDFs of DataFrame code (``frontend/dataframe/udfs.py``, ``frontend/python/spark_udf.py``,
``sparklite/relational/pyudf.py``): read with Spark's names, interpreted with Spark's UDF rules, and
checked against Spark 4 on chosen and random tables (``docs/semantics-notes.md``, "Python UDFs").
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from sparklite.relational import pyudf
from sparklite.relational import types as T
from sparklite.relational.interpreter import run
from sparklite.relational.values import RelError, RelResult, rel_outcomes_equal

SOURCE = '''
from typing import Annotated
from pyspark.sql import DataFrame
from pyspark.sql import functions as F
from pyspark.sql.functions import udf
from pyspark.sql.types import DoubleType, IntegerType, LongType, StringType, BooleanType, ByteType

SCHEMA = "name STRING, age INT, score DOUBLE, ok BOOLEAN, big BIGINT NOT NULL"


def squared(s):
    return s * s


def first_word(x):
    if x is None:
        return None
    return x.split()[0]


@udf(returnType=IntegerType())
def plus_one(x):
    return x + 1 if x is not None else None


@F.udf
def shout(s):
    return s.upper() + "!" if s else "none"


def reading(df: Annotated[DataFrame, SCHEMA]):
    sq = udf(squared, LongType())
    fw = udf(first_word, StringType())
    return df.select(sq("age"), fw(F.col("name")), plus_one("age"), shout("name"),
                     udf(lambda x: x, IntegerType())(F.col("age") + 1))


def conversions(df: Annotated[DataFrame, SCHEMA]):
    as_string = udf(lambda x: x * 2 if x is not None else None)  # default return type: string
    as_int = udf(lambda s: s / 2 if s is not None else None, IntegerType())  # a float: NULL
    wrapped = udf(lambda b: b * 4294967296 + 5, IntegerType())  # wraps to 32 bits
    as_byte = udf(lambda b: b + 300, ByteType())
    as_double = udf(lambda a: a, DoubleType())
    int_for_double = udf(lambda a: 0 if a is None else 1, DoubleType())  # an int: NULL
    flag = udf(lambda o: o, BooleanType())
    text = udf(lambda o: o if o is None else not o, StringType())  # a bool as 'true'/'false'
    return df.select(as_string("age"), as_int("score"), wrapped("big"), as_byte("big"), as_double("score"),
                     flag("ok"), text("ok"), int_for_double("score"))


def failing(df: Annotated[DataFrame, SCHEMA]):
    return df.select(udf(lambda x: x * 2, LongType())("age"))  # None * 2 raises


def splitting(df: Annotated[DataFrame, SCHEMA]):
    return df.select(udf(lambda x: x.split()[0], StringType())("name"))  # '' raises IndexError


def plus_one_a(df: Annotated[DataFrame, SCHEMA]):
    f = udf(lambda a: a + 1 if a is not None else None, LongType())
    return df.filter(f("age") > 3).select("name")


def plus_one_b(df: Annotated[DataFrame, SCHEMA]):
    f = udf(lambda a: a + 2 if a is not None else None, LongType())
    return df.filter(f("age") > 3).select("name")


def registered(spark, df: Annotated[DataFrame, SCHEMA]):
    spark.udf.register("sq", lambda x: x * x if x is not None else None, LongType())
    spark.udf.register("initial", udf(lambda s: s[:1] if s else None))  # a UDF: its own return type
    df.createOrReplaceTempView("people")
    return spark.sql("SELECT name, sq(age), initial(name) FROM people WHERE sq(age) > 10")


def pandas(df: Annotated[DataFrame, SCHEMA]):
    f = F.pandas_udf(lambda s: s, "int")
    return df.select(f("age"))


def nondeterministic(df: Annotated[DataFrame, SCHEMA]):
    f = udf(lambda a: a, IntegerType()).asNondeterministic()
    return df.select(f("age"))
'''

ROWS = [
    ("a b", 3, 2.5, True, 1),
    ("hello", None, None, None, -1),
    ("x", -2147483648, -0.0, False, 7),
    ("  lead", 46340, 1e300, True, 100),
]


@pytest.fixture(scope="module")
def path(tmp_path_factory: Any) -> Path:
    p = tmp_path_factory.mktemp("udfs") / "jobs.py"
    p.write_text(SOURCE, encoding="utf-8")
    return p


def _load(path: Path, fn: str) -> Any:
    from verifier.core.loading import load

    return load(f"{path}::{fn}")


def test_udf_calls_read_with_sparks_names(path: Path) -> None:
    program = _load(path, "reading").program
    assert [(f.name, f.type.simple) for f in program.body.schema.fields] == [
        ("squared(age)", "bigint"), ("first_word(name)", "string"), ("plus_one(age)", "int"),
        ("shout(name)", "string"), ("<lambda>((age + 1))", "int")]


def test_registered_udfs_in_sql(path: Path) -> None:
    program = _load(path, "registered").program
    assert [f.name for f in program.body.schema.fields] == ["name", "sq(age)", "initial(name)"]
    out = run(program, {"df": ROWS}).outcome
    assert isinstance(out, RelResult) and sorted(out.rows.items, key=repr) == sorted(
        [("x", 4611686018427387904, "x"), ("  lead", 2147395600, " ")], key=repr)


def test_udf_values_follow_sparks_rules(path: Path) -> None:
    """The interpreter's values of the rows Spark showed (docs/semantics-notes.md, "Python UDFs")."""
    out = run(_load(path, "conversions").program, {"df": ROWS}).outcome
    assert isinstance(out, RelResult)
    assert sorted(out.rows.items, key=repr) == sorted([
        ("6", None, 5, 45, 2.5, True, "false", None),  # 3*2 as text; 2.5/2 is a float for int: NULL
        (None, None, 5, 43, None, None, None, None),  # None in; an int for double: NULL
        ("-4294967296", None, 5, 51, -0.0, False, "true", None),  # ints wrap to 32 (5) and 8 bits (51)
        ("92680", None, 5, -112, 1e300, True, "false", None),
    ], key=repr)


def test_none_and_exceptions_are_task_failures(path: Path) -> None:
    assert run(_load(path, "failing").program, {"df": ROWS}).outcome == pyudf.PYTHON_UDF_ERROR
    assert run(_load(path, "splitting").program, {"df": [("", 1, 1.0, True, 1)]}).outcome == \
        pyudf.PYTHON_UDF_ERROR
    # a body not typed for None (x.split() on a nullable column): a NULL is outside the model (caveat)
    r = run(_load(path, "splitting").program, {"df": [(None, 1, 1.0, True, 1)]})
    assert r.caveats


def test_convert() -> None:
    c = pyudf.convert
    assert c(5, T.STRING) == "5" and c(1.5, T.STRING) == "1.5" and c(True, T.STRING) == "true"
    assert c(1e-4, T.STRING) == "1.0E-4"  # Java's Double.toString; 1e20 prints otherwise on some JDKs:
    with pytest.raises(pyudf.UdfOutsideModel):
        c(1e20, T.STRING)
    assert c(1.5, T.INT) is None and c("1", T.INT) is None and c(True, T.INT) is None
    assert c(2 ** 40, T.INT) == 0 and c(300, T.TINYINT) == 44 and c(2 ** 70, T.BIGINT) is None
    assert c(1, T.DOUBLE) is None and c(-0.0, T.DOUBLE) == 0.0 and c(1, T.BOOLEAN) is None


def test_refusals_are_located(path: Path) -> None:
    from sparklite.errors import UnsupportedError

    for fn in ("pandas", "nondeterministic"):
        with pytest.raises(UnsupportedError) as info:
            _load(path, fn)
        assert info.value.loc is not None


def test_verdicts(path: Path) -> None:
    from verifier.core.check import check

    same = check(f"{path}::reading", f"{path}::reading")
    assert same.verdict == "equivalent" and same.method == "congruence"
    differ = check(f"{path}::plus_one_a", f"{path}::plus_one_b", timeout=60)
    assert differ.verdict == "not_equivalent"


# -- against Spark ---------------------------------------------------------------------------------


def _random_rows(rng: random.Random, n: int) -> list[tuple]:
    from sparklite.relational.generate import random_value

    schema = T.parse_ddl("name STRING, age INT, score DOUBLE, ok BOOLEAN, big BIGINT NOT NULL")
    return [tuple(random_value(rng, f.type, f.nullable) for f in schema.fields) for _ in range(n)]


@pytest.mark.spark
@pytest.mark.parametrize("fn", ["reading", "conversions", "failing", "splitting", "plus_one_a", "registered"])
def test_udfs_agree_with_spark(spark_session: Any, path: Path, fn: str) -> None:
    """Chosen rows, then random tables: the interpreter's outcome is Spark's (or rests on a caveat)."""
    from verifier.runtime.replay_df import run_on_spark

    loaded = _load(path, fn)
    rng = random.Random(fn)
    tables = [ROWS, *(_random_rows(rng, rng.randint(0, 5)) for _ in range(6))]
    for rows in tables:
        expected = run(loaded.program, {"df": rows})
        got = run_on_spark(loaded, {"df": rows}, None, {}, "local[2]", reference=expected.outcome)
        if expected.caveats:
            continue
        if isinstance(expected.outcome, RelError):
            assert got == expected.outcome, (rows, got)
            continue
        assert rel_outcomes_equal(expected.outcome, got), \
            f"{rows}\ninterpreter {expected.outcome!r}\nSpark {got!r}"
