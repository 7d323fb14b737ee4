#!/usr/bin/env bash
# Set up and run the main job: sparkeq on the bundled cases (a proof, a counterexample replayed on Spark,
# a partition-dependence finding).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/python -m verifier.interfaces.demo "$@"
