"""``dict(...)`` and ``collections.OrderedDict(...)`` of constants in DataFrame driver code
(frontend/dataframe/dicts.py): CPython's insertion order and repeated-key rule; an OrderedDict is not
printed as a dict (its repr differs)."""

from __future__ import annotations

import pytest

from frontend.dataframe.dicts import make_dict
from frontend.dataframe.values import DictV, PyV, SeqV
from frontend.script.df_script import translate_df_script
from sparklite.ast import Loc
from sparklite.errors import InputError, UnsupportedError

LOC = Loc("t.py", 1, 1)
HEAD = "from collections import OrderedDict\nfrom pyspark.sql import Row, SparkSession\n" \
       "spark = SparkSession.builder.getOrCreate()\n"


def _pair(k, v):
    return SeqV((PyV(k), PyV(v)), False)


def test_pairs_keep_first_position_and_last_value_as_cpython():
    d = make_dict([SeqV((_pair("b", 1), _pair("a", 2), _pair("b", 3)))], {"c": PyV(4)}, LOC, ordered=False)
    assert d == DictV(((PyV("b"), PyV(3)), (PyV("a"), PyV(2)), (PyV("c"), PyV(4))))
    assert list(dict([("b", 1), ("a", 2), ("b", 3)], c=4).items()) == [("b", 3), ("a", 2), ("c", 4)]
    assert make_dict([d], {}, LOC, ordered=True).ordered


def test_bad_arguments_are_located_errors():
    with pytest.raises(InputError):
        make_dict([SeqV(()), SeqV(())], {}, LOC, ordered=False)
    with pytest.raises(UnsupportedError):
        make_dict([SeqV((PyV(1),))], {}, LOC, ordered=False)


def test_row_of_a_sorted_ordered_dict_names_columns_in_sorted_order():
    sp = translate_df_script(
        HEAD + "d = {'name': 'alex', 'age': 40}\n"
        "df = spark.createDataFrame([Row(**OrderedDict(sorted(d.items())))])\ndf.printSchema()\n", "t.py"
    )
    assert [f.name for f in sp.sources[0].schema.fields] == ["age", "name"]


def test_printing_an_ordered_dict_is_refused_not_written_as_a_dict():
    with pytest.raises(UnsupportedError):
        translate_df_script(HEAD + "print(OrderedDict([('a', 1)]))\nspark.range(1).show()\n", "t.py")
