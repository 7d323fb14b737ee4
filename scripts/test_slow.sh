#!/usr/bin/env bash
# The slow corpora kept out of CI's suite (marked @pytest.mark.slow: among them every TPC-H and TPC-DS query
# against Spark on SPARKEQ_TPC_SETS=20 table sets, 1,000 random mixed RDD/DataFrame programs against Spark,
# every cases/migration verdict run on Spark over random inputs), then the interpreter-vs-Spark differential
# tests at 1,000 programs each (CI runs 200 RDD and 300 DataFrame/SQL programs), the DataFrame/SQL soundness
# fuzzer at 2,000 pairs (CI: 500; issue 21's acceptance), the cross-kind soundness fuzzer at 1,000 pairs
# (CI: 200) and the mixed-script one at 300 (CI: 20): run before a release or nightly.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/python -m pytest -q -p no:cacheprovider -m slow "$@"
SPARKEQ_DIFF_CASES=1000 SPARKEQ_RICH_CASES=1000 SPARKEQ_DF_DIFF_CASES=1000 .venv/bin/python -m pytest -q \
    -p no:cacheprovider tests/test_interpreter_vs_spark.py tests/test_interpreter_vs_spark_rich.py \
    tests/test_relational_vs_spark.py::test_interpreter_agrees_with_spark_on_random_programs "$@"
SPARKEQ_REL_FUZZ_PAIRS=2000 .venv/bin/python -m pytest -q -p no:cacheprovider \
    tests/test_rel_soundness_fuzz.py::test_rel_soundness_fuzz "$@"
SPARKEQ_CROSS_FUZZ_PAIRS=1000 .venv/bin/python -m pytest -q -p no:cacheprovider \
    tests/test_cross_soundness_fuzz.py "$@"
SPARKEQ_MIXED_FUZZ_PAIRS=300 .venv/bin/python -m pytest -q -p no:cacheprovider \
    tests/test_mixed_script_fuzz.py "$@"
