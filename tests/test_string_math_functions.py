"""String, regex and math functions (``sparklite.relational.strings``, ``mathfuncs``, ``javaregex``):
the values Spark 4 gave for them (probed on local[2], recorded in ``docs/semantics-notes.md``), the
refusals of Java patterns outside the common subset, the frontends' Spark column names, and (marked
``spark``) the same facts re-checked on Spark."""

from __future__ import annotations

import math
from typing import Any

import pytest

from sparklite.errors import UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import build as B
from sparklite.relational import javaregex as J
from sparklite.relational.interpreter import run
from sparklite.relational.mathfuncs import CAVEAT_LIBM, java_pow
from sparklite.relational.strings import initcap, locate, pad, replace, translate
from sparklite.relational.types import parse_ddl

# (SQL expression over no column, the value Spark 4.3 returned)
SPARK_VALUES: list[tuple[str, Any]] = [
    ("instr('abc', '')", 1), ("instr('abcb', 'b')", 2), ("instr(123, 2)", 2),
    ("locate('', 'abc')", 1), ("locate('b', 'abcb', 3)", 4), ("locate('b', 'abcb', 0)", 0),
    ("locate('', 'abc', 0)", 0), ("locate('', 'abc', 5)", 1), ("locate('a', 'abc', NULL)", 0),
    ("locate(NULL, 'abc', 0)", None),
    ("lpad('abc', 5, 'xy')", "xyabc"), ("lpad('abc', 2, 'x')", "ab"), ("lpad('abc', 5, '')", "abc"),
    ("lpad('abc', -1, 'x')", ""), ("rpad('abc', 6, 'xy')", "abcxyx"), ("lpad('abc', 5)", "  abc"),
    ("lpad(12, 5, 0)", "00012"),
    ("initcap('hello wORLD-foo  bar\tbaz')", "Hello World-foo  Bar\tbaz"),
    ("initcap('ßa ǆx ﬁx')", "Ssa ǅx Fix"),
    ("reverse('abé')", "éba"), ("translate('abcabc', 'abc', 'x')", "xx"),
    ("translate('abc', 'aa', 'xy')", "xbc"),
    ("translate('abc', 'a', '')", "bc"), ("replace('abc', '', 'X')", "abc"), ("replace('abc', 'b')", "ac"),
    ("replace('aaa', 'aa', 'b')", "ba"), ("startswith('abc', 'a')", True), ("endswith('', '')", True),
    ("contains('éa', 'b')", False), ("contains('', '')", True),
    ("sqrt(-1)", math.nan), ("ln(0)", None), ("ln(-1)", None), ("log(2, 8)", 3.0), ("log(0, 8)", None),
    ("log(1, 8)", math.inf), ("log10(1000)", 3.0), ("log2(8)", 3.0), ("log2(0)", None),
    ("pow(-8, 1/3)", math.nan), ("pow(0, -1)", math.inf), ("pow(1, CAST('NaN' AS DOUBLE))", math.nan),
    ("pow(1, CAST('Infinity' AS DOUBLE))", math.nan), ("pow(10, 400)", math.inf), ("sqrt('4')", 2.0),
    ("regexp_extract('abc', 'z(a)', 1)", ""), ("regexp_extract('abc', '(z)?a', 1)", ""),
    ("regexp_replace('abc', 'b', 'a\\\\$b')", "aa$bc"), ("'abc' RLIKE ''", True),
    ("regexp_replace('aaa', 'a*?', '-')", "-a-a-a-"), ("regexp_replace('aa', '(|a)', '-')", "-a-a-"),
    ("regexp_extract('a1', '(\\\\d)')", "1"),
]

# Java's ``.``, ``$``, ASCII classes and empty matches on line terminators: (pattern, replacement,
# {input: what Spark's regexp_replace gave})
SPARK_REPLACEMENTS: list[tuple[str, str, dict[str, str]]] = [
    ("x*", "-", {"abc": "-a-b-c-", "a\rb": "-a-\r-b-", "x\r\n": "--\r-\n-", "": "-"}),
    (".", "#", {"a\rb": "#\r#", "x\n": "#\n", "x\u2028": "#\u2028", "é٣": "##"}),
    ("$", "#", {"x\n": "x#\n#", "x\r": "x#\r#", "x\r\n": "x#\r\n#", "x\u2028": "x#\u2028#", "": "#"}),
    (r"\d+", "<$0>", {"a1b22": "a<1>b<22>", "é٣": "é٣"}),
    (r"\w", "W", {"a\rb": "W\rW", "é٣": "é٣"}),
    (r"(a)(\d)?", r"[$2|$1|\$]", {"abc": "[|a|$]bc", "a1b22": "[1|a|$]b22"}),
]


def _eval_sql(expr: str) -> tuple[Any, frozenset[str]]:
    from frontend.sql.translator import translate_query

    rel = translate_query(f"SELECT {expr} AS v", {})
    out = run(R.RelProgram("q", (), rel, language="sql"), {})
    rows = out.outcome.rows  # type: ignore[union-attr]
    assert len(rows) == 1
    return rows.items[0][0], out.caveats


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    return a == b and type(a) is type(b)


@pytest.mark.parametrize(("expr", "want"), SPARK_VALUES)
def test_values_spark_gave(expr: str, want: Any) -> None:
    got, _ = _eval_sql(expr)
    assert _same(got, want), (expr, got, want)


@pytest.mark.parametrize(("pattern", "rep", "cases"), SPARK_REPLACEMENTS)
def test_java_regex_semantics(pattern: str, rep: str, cases: dict[str, str]) -> None:
    regex = J.translate(pattern)
    parts = J.parse_replacement(rep, regex.groups)
    for s, want in cases.items():
        assert J.replace_all(regex, parts, s) == want, (pattern, s)


def test_rlike_dollar_and_case() -> None:
    anchored = J.translate("^x$")
    assert [J.find(anchored, s) for s in ("x", "x\n", "x\r", "x\r\n", "x\u2028", "xx", "x\n\n")] == \
        [True, True, True, True, True, False, False]
    assert J.find(J.translate("(?i)A"), "a") and not J.find(J.translate("(?i)K"), "\u212a")


@pytest.mark.parametrize("pattern", [r"\bx", r"a\B", r"[a[b]]", r"[a&&b]", r"(?<n>a)", r"a++", r"a{2",
                                     r"\p{L}", r"\Qa\E", r"(?i)a(?s)b", r"\1", r"*a", r"a)", r"(a", r"[]a]",
                                     r"\v", r"\h", r"a**", r"[z-a]", r"(?<=a)b"])
def test_patterns_outside_the_subset_are_refused(pattern: str) -> None:
    with pytest.raises(J.NotModelled):
        J.translate(pattern)


@pytest.mark.parametrize(("rep", "groups"), [("$2", 1), ("\\", 0), ("${x}", 1), ("$a", 1), ("a$", 0)])
def test_replacements_spark_rejects_are_refused(rep: str, groups: int) -> None:
    with pytest.raises(J.NotModelled):
        J.parse_replacement(rep, groups)


def test_replacement_group_numbers_are_read_as_java_does() -> None:
    assert J.parse_replacement("$12", 1) == (1, "2")
    assert J.parse_replacement("$12", 12) == (12,)
    assert J.parse_replacement("a\\$1", 1) == ("a$1",)


def test_helpers() -> None:
    assert locate("", "", 1) == 1 and locate("b", "abcb", -1) == 0
    assert pad("abc", 0, "x", False) == "" and pad("a", 4, "xy", False) == "axyx"
    assert initcap(" a") == " A" and initcap("éa") == "Éa"
    assert translate("abc", "", "x") == "abc" and replace("abcabc", "bc", "X") == "aXaX"
    assert java_pow(-0.0, -1.0) == -math.inf and java_pow(-2.0, 1e308) == math.inf
    assert java_pow(float("nan"), 0.0) == 1.0 and math.isnan(java_pow(1.0, math.nan))


def test_non_literal_pattern_and_unbounded_pad_are_refused() -> None:
    t = R.Table("t", parse_ddl("s STRING, n INT"))
    s = R.Col(0, "s", t.schema.fields[0].type, True)
    n = R.Col(1, "n", t.schema.fields[1].type, True)
    for name, args in (("rlike", [s, s]), ("regexp_replace", [s, B.lit("a"), s]),
                       ("lpad", [s, n, B.lit("x")]), ("lpad", [s, B.lit(10**6), B.lit("x")]),
                       ("regexp_extract", [s, B.lit("(a)"), B.lit(2)])):
        with pytest.raises(UnsupportedError):
            B.func(name, args)


def test_libm_results_are_caveated() -> None:
    _, caveats = _eval_sql("exp(1)")
    assert CAVEAT_LIBM in caveats
    _, caveats = _eval_sql("pow(2, 3)")
    assert CAVEAT_LIBM not in caveats
    _, caveats = _eval_sql("sqrt(2)")
    assert CAVEAT_LIBM not in caveats


# Spark's column names, as the frontends reproduce them (checked on Spark below)
DF_NAMES = {
    'F.regexp_replace("s", "-", "+")': "regexp_replace(s, -, +, 1)",
    'F.regexp_extract("s", "(a)", 1)': "regexp_extract(s, (a), 1)",
    'F.col("s").rlike("a")': "RLIKE(s, a)",
    'F.locate("b", "s")': "locate(b, s, 1)",
    'F.locate("b", "s", 2)': "locate(b, s, 2)",
    'F.instr("s", "b")': "instr(s, b)",
    'F.lpad("s", 5, "x")': "lpad(s, 5, x)",
    'F.initcap("s")': "initcap(s)",
    'F.translate("s", "ab", "x")': "translate(s, ab, x)",
    'F.replace("s", F.lit("a"))': "replace(s, a, )",
    'F.sqrt("d")': "SQRT(d)",
    'F.exp("d")': "EXP(d)",
    'F.log("d")': "ln(d)",
    'F.log(2.0, "d")': "LOG(2.0, d)",
    'F.log10("d")': "LOG10(d)",
    'F.log2("d")': "LOG2(d)",
    'F.pow("d", 2)': "POWER(d, 2)",
    'F.nvl2("s", "n", "d")': "nvl2(s, n, d)",
    'F.col("s").startswith("a")': "startswith(s, a)",
    'F.col("s").endswith("")': "endswith(s, )",
    'F.col("s").contains("b")': "contains(s, b)",
}
SQL_NAMES = {
    "regexp_replace(s, '-', '+')": "regexp_replace(s, -, +, 1)", "s RLIKE 'a'": "RLIKE(s, a)",
    "regexp_like(s, 'a')": "REGEXP_LIKE(s, a)", "s REGEXP 'a'": "RLIKE(s, a)",
    "regexp_extract(s, '(a)')": "regexp_extract(s, (a), 1)", "locate('b', s)": "locate(b, s, 1)",
    "position('b' IN s)": "locate(b, s, 1)", "position('b', s)": "position(b, s, 1)",
    "instr(s, 'b')": "instr(s, b)", "lpad(s, 4)": "lpad(s, 4,  )",
    "replace(s, 'a')": "replace(s, a, )", "sqrt(d)": "SQRT(d)", "exp(d)": "EXP(d)", "log(d)": "LOG(E(), d)",
    "log(2.0, d)": "LOG(2.0, d)", "ln(d)": "ln(d)", "log10(d)": "LOG10(d)", "log2(d)": "LOG2(d)",
    "power(n, 2)": "POWER(n, 2)", "pow(n, 2)": "pow(n, 2)", "initcap(s)": "initcap(s)",
    "translate(s, 'a', 'b')": "translate(s, a, b)", "reverse(s)": "reverse(s)",
}
DDL = "s STRING, n INT, d DOUBLE"


def _df_names() -> list[str]:
    from frontend.dataframe.translator import translate_dataframe_source

    body = ", ".join(DF_NAMES)
    src = ("from typing import Annotated\nfrom pyspark.sql import DataFrame, functions as F\n"
           f"def f(t: Annotated[DataFrame, {DDL!r}]):\n    return t.select({body})\n")
    prog = translate_dataframe_source(src, "f", "<test>")
    return [f.name for f in prog.body.schema.fields]  # type: ignore[union-attr]


def _sql_names() -> list[str]:
    from frontend.sql.translator import translate_query

    rel = translate_query(f"SELECT {', '.join(SQL_NAMES)} FROM t", {"t": R.Table("t", parse_ddl(DDL))})
    return [f.name for f in rel.schema.fields]


def test_frontends_give_spark_names() -> None:
    assert _df_names() == list(DF_NAMES.values())
    assert _sql_names() == list(SQL_NAMES.values())


@pytest.mark.spark
def test_names_and_values_on_spark(spark_session: Any) -> None:
    from pyspark.sql import functions as F

    df = spark_session.createDataFrame([("a-b", 2, 1.5)], DDL)
    got = df.select(*[eval(c, {"F": F}) for c in DF_NAMES]).columns  # noqa: S307 - our own test strings
    assert got == list(DF_NAMES.values())
    df.createOrReplaceTempView("t")
    assert spark_session.sql(f"SELECT {', '.join(SQL_NAMES)} FROM t").columns == list(SQL_NAMES.values())
    row = spark_session.sql("SELECT " + ", ".join(e for e, _ in SPARK_VALUES)).collect()[0]
    for (expr, want), value in zip(SPARK_VALUES, row, strict=True):
        assert _same(value, want), (expr, value, want)
    rows = [(s,) for _, _, cases in SPARK_REPLACEMENTS for s in cases]
    sdf = spark_session.createDataFrame(rows, "s STRING")
    for pattern, rep, cases in SPARK_REPLACEMENTS:
        got_rows = sdf.select(F.regexp_replace("s", pattern, rep)).collect()
        seen = {s: r[0] for (s,), r in zip(rows, got_rows, strict=True)}
        assert all(seen[s] == want for s, want in cases.items()), (pattern, seen)


N_FOCUSED = 40  # CI: the first programs of the differential test that call these functions


@pytest.mark.spark
def test_random_programs_calling_them_agree_with_spark(spark_session: Any) -> None:
    """The relational differential test (``tests/test_relational_vs_spark.py``) restricted to the random
    programs that call a function of ``strings``/``mathfuncs``; ``scripts/df_difftest.py --only-calls
    extended`` runs more."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    from df_difftest import calling_seeds
    from test_relational_vs_spark import DISAGREE, run_campaign

    seeds = calling_seeds(range(0, 1000), "extended", False)[:N_FOCUSED]
    report = run_campaign(spark_session, seeds, threads=1)
    assert report.counts[DISAGREE] == 0 and not report.type_mismatches, report.summary() + "\n".join(
        report.disagreements[:3] + report.type_mismatches[:3])
