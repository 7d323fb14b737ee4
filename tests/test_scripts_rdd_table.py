"""docs/scripts.md's table of RDD script statements ("RDD statements one by one") is kept true: each row's
example runs after a session, its context and a text source, and the stated outcome is checked at the
example's lines: modelled (a sink or source there, no statement ignored there), shown not to matter
(listed in ``ignored_statements`` there, nothing printed there), an excluded field (listed there and
printed there), refused (a located input error there)."""

from __future__ import annotations

import re

import pytest
from doc_tables import placed, table_rows

from frontend.script.rdd_script import translate_script
from sparklite.errors import InputError

HEAD = (
    "import logging\nimport sys\nfrom pyspark.sql import SparkSession\n"
    "spark = SparkSession.builder.getOrCreate()\nsc = spark.sparkContext\n"
    "lines = sc.textFile(sys.argv[1])\n"
)
TAIL = 'print("end", lines.count())\n'


ROWS = table_rows("### RDD statements one by one", "\n## ")


def test_the_table_has_every_kind_of_outcome():
    kinds = {outcome.split(":")[0] for _, _, outcome in ROWS}
    assert kinds == {"modelled", "shown not to matter", "excluded field", "refused"}, kinds
    assert len(ROWS) >= 20


@pytest.mark.parametrize("statement, example, outcome", ROWS, ids=[r[0] for r in ROWS])
def test_each_row_has_its_stated_outcome(statement, example, outcome):
    source, lines = placed(HEAD, example, TAIL)
    refused = re.fullmatch(r"refused: `([^`]*)`", outcome)
    if refused:  # located at the example, with the stated words
        with pytest.raises(InputError, match=re.escape(refused.group(1))) as info:
            translate_script(source, "job.py")
        assert info.value.loc.line in lines, info.value
        return
    sp = translate_script(source, "job.py")
    here = [i for i in sp.ignored if i.line in lines]
    output = any(line in lines for k in sp.sinks for line in _lines(k.loc)) \
        or any(s.loc.line in lines for s in sp.sources)
    if outcome.startswith("modelled"):
        assert not here and output, (here, sp.sinks)
    elif outcome.startswith("shown not to matter"):
        assert here, sp.ignored
        assert not any(k.loc.line in lines for k in sp.sinks), sp.sinks
    else:
        assert outcome.startswith("excluded field")
        assert here and output, (sp.ignored, sp.sinks)


def _lines(loc) -> list[int]:
    return [loc.line] if not isinstance(loc, tuple) else [x.line for x in loc]
