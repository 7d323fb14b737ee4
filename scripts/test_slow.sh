#!/usr/bin/env bash
# The slow corpora kept out of CI's suite (marked @pytest.mark.slow), then the RDD interpreter-vs-Spark
# differential tests at 1,000 programs each (CI runs 200): run before a release or nightly.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/python -m pytest -q -p no:cacheprovider -m slow "$@"
SPARKEQ_DIFF_CASES=1000 SPARKEQ_RICH_CASES=1000 .venv/bin/python -m pytest -q -p no:cacheprovider \
    tests/test_interpreter_vs_spark.py tests/test_interpreter_vs_spark_rich.py "$@"
