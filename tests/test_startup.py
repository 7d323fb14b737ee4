"""Start-up without heavy imports (issue 24): ``--version``, ``--help``, usage errors and a missing file
answer before Z3, PySpark, sqlglot, rich or lark are imported. Measured by what is imported
(``python -X importtime``), not by wall-clock time, so the test does not depend on the machine's load;
bench/startup.py reports the times."""

from __future__ import annotations

import subprocess
import sys

import pytest

import verifier

HEAVY = ("z3", "pyspark", "sqlglot", "rich", "lark")


def imported(args: list[str]) -> tuple[int, str, set[str]]:
    code = "import sys; from verifier.interfaces.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", code, *args], capture_output=True,
                          text=True, timeout=120)
    names = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if "|" in line}
    return proc.returncode, proc.stdout, names


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["check", "--bogus"], ["hook", "--help"],
                                  ["check", "no/such.py::f", "other.py::f"], ["batch", "--help"],
                                  ["check", "a.py", "b.py", "--timeout", "nan"]])
def test_no_heavy_import(args: list[str]) -> None:
    code, _, names = imported(args)
    heavy = sorted(n for n in names if n.split(".")[0] in HEAVY)
    assert not heavy, f"sparkeq {' '.join(args)} imported {heavy}"
    assert code in (0, 3)


def test_version_is_the_package_version() -> None:
    code, out, _ = imported(["--version"])
    assert code == 0 and out.strip() == f"sparkeq {verifier.__version__}"


def test_pyproject_version_matches() -> None:
    import tomllib
    from pathlib import Path

    data = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())
    assert data["project"]["version"] == verifier.__version__ == "0.2.0"
