#!/usr/bin/env bash
# Set up and run sparkeq's tests: lint, then the whole pytest suite (Spark tests use one local[2] session).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/lint-imports  # the import contracts of pyproject.toml's [tool.importlinter]
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"
