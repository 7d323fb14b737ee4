#!/usr/bin/env bash
# The slow corpora kept out of CI's suite (marked @pytest.mark.slow): run before a release or nightly.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/python -m pytest -q -p no:cacheprovider -m slow "$@"
