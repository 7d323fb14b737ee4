#!/usr/bin/env bash
# Set up and run sparkeq's tests: lint (ruff, then the import contracts), then the whole pytest suite (Spark tests use one local[2] session).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/lint-imports  # the layers and no import circles (pyproject.toml [tool.importlinter])
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"
