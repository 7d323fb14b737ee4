#!/usr/bin/env bash
# Set up sparkeq in ./.venv (idempotent). Checks for Python 3.11+ and Java 17+ (Spark needs it).
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
if ! "$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
  echo "sparkeq needs Python 3.11 or newer (found: $("$PY" --version 2>&1 || echo none))." >&2
  exit 1
fi

java_major() {
  local java=java
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then java="$JAVA_HOME/bin/java"; fi
  command -v "$java" >/dev/null 2>&1 || return 0
  "$java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\)\.\{0,1\}\([0-9]*\).*/\1 \2/p' | head -n1 |
    awk '{ if ($1 == 1) print $2; else print $1 }'
}
JV=$(java_major)
if [ -z "$JV" ] || [ "$JV" -lt 17 ]; then
  echo "Spark needs Java 17 or newer (found: ${JV:+Java }${JV:-no java on PATH or in JAVA_HOME})." >&2
  echo "Install it, e.g.: apt-get install -y openjdk-17-jre-headless, or set JAVA_HOME." >&2
  exit 1
fi

if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
# Install (or refresh) the project and its dev tools; quiet unless it fails.
if ! .venv/bin/python -c 'import z3, pyspark, lark, rich, sqlglot, pytest, jsonschema, pre_commit, importlinter, verifier, sparkeq' 2>/dev/null \
   || [ pyproject.toml -nt .venv/.sparkeq-installed ]; then
  .venv/bin/python -m pip install --disable-pip-version-check -q -e '.[dev]'
  touch .venv/.sparkeq-installed
fi
