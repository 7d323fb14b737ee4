"""docs/scripts.md's table of DataFrame script statements ("Statements one by one") is kept true: each row's
example runs after a session and a small literal DataFrame, and the stated outcome is checked at the
example's line: modelled (read, no statement ignored there), shown not to matter or an excluded diagnostic
(listed in ``ignored_statements`` at that line, with the matching why), opaque (an AWS Glue output or an
operation not modelled at that line), refused (a located input error at that line)."""

from __future__ import annotations

import re

import pytest
from doc_tables import table_rows

from frontend.script.df_script import translate_df_script
from sparklite.errors import InputError

HEAD = (
    "import logging\nimport sys\nfrom pyspark.sql import SparkSession\n"
    "spark = SparkSession.builder.getOrCreate()\n"
    'df = spark.createDataFrame([(1, "a"), (2, None)], ["id", "k"])\n'
)
TAIL = 'print("end")\n'


ROWS = table_rows("### Statements one by one", "\n### ")


def test_the_table_has_every_kind_of_outcome():
    kinds = {outcome.split(":")[0].split(" (")[0] for _, _, outcome in ROWS}
    assert {"modelled", "shown not to matter", "excluded diagnostic", "refused"} <= kinds, kinds
    assert len(ROWS) >= 15


@pytest.mark.parametrize("statement, example, outcome", ROWS, ids=[r[0] for r in ROWS])
def test_each_row_has_its_stated_outcome(statement, example, outcome):
    source = HEAD + example + "\n" + TAIL
    first = HEAD.count("\n") + 1
    lines = range(first, first + example.count("\n") + 1)
    if outcome.startswith("refused"):
        with pytest.raises(InputError) as info:
            translate_df_script(source, "job.py")
        assert info.value.loc.line in lines, info.value
        quoted = re.search(r"`([^`]*)`", outcome)
        if quoted:
            assert quoted.group(1).split("...")[0].strip() in str(info.value)
        return
    sp = translate_df_script(source, "job.py")
    here = [i for i in sp.ignored if i.loc.line in lines]
    if outcome.startswith("modelled"):
        assert not here, here
        assert any(k.loc.line in lines for k in sp.sinks) or any(s.loc.line in lines for s in sp.sources)
    elif outcome.startswith("opaque"):  # an operation not modelled (sparklite/relational/opaque.py)
        from sparklite.relational.opaque import opaque_nodes

        glue_sinks = [k for k in sp.sinks if k.kind == "glue" and k.loc.line in lines]
        calls = [n for a in sp.actions for n in opaque_nodes(a.body) if n.loc and n.loc.line in lines]
        assert glue_sinks or calls, sp.sinks
    elif outcome.startswith("shown not to matter"):
        assert here and not any("excluded diagnostic" in i.why for i in here), sp.ignored
    else:
        assert outcome.startswith("excluded diagnostic")
        assert here and all("excluded diagnostic" in i.why for i in here), sp.ignored
        with pytest.raises(InputError) as info:
            translate_df_script(source, "job.py", compare_diagnostics=True)
        assert info.value.loc.line in lines and "--compare-diagnostics" in str(info.value)
