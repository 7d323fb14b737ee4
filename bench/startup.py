"""Start-up time of the ``sparkeq`` command: what a user waits for before anything is checked.

``sparkeq --version``, ``--help``, a usage error and a missing file must answer before Z3, sqlglot,
rich or PySpark are imported (issue 24: ``--version`` under 0.3 s cold on an idle machine). Each command
runs ``--runs`` times as a fresh process (the first run is the coldest this machine can give without
dropping the OS page cache); the table gives the first run, the median and the worst. The machine's
load average is printed too: these are wall-clock times.

    .venv/bin/python bench/startup.py [--runs 10] [--limit 0.3]

With ``--limit`` the script exits 1 when the median of ``--version`` exceeds it. It also asserts that
none of the commands imported a heavy module (``python -X importtime``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent / "sparkeq"
HEAVY = ("z3", "pyspark", "sqlglot", "rich", "lark")
COMMANDS = {
    "sparkeq --version": ["--version"],
    "sparkeq --help": ["--help"],
    "sparkeq check (usage error)": ["check", "--bogus"],
    "sparkeq check (missing file)": ["check", "no/such/file.py::f", "other.py::f"],
    "sparkeq hook --help": ["hook", "--help"],
}


def timed(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([str(BIN), *args], capture_output=True, check=False)
    return time.perf_counter() - start


def heavy_imports(args: list[str]) -> list[str]:
    """The heavy modules a command imports (from ``-X importtime`` of the same entry point)."""
    code = "import sys; from verifier.interfaces.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", code, *args], capture_output=True,
                          text=True, check=False)
    names = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if "|" in line}
    return sorted(n for n in names if n.split(".")[0] in HEAVY)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--limit", type=float, default=None, help="fail if --version's median exceeds it")
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} CPUs")
    print("| command | first | median | worst | heavy imports |")
    print("|---|---|---|---|---|")
    medians = {}
    failed = False
    for name, argv in COMMANDS.items():
        times = [timed(argv) for _ in range(args.runs)]
        medians[name] = statistics.median(times)
        heavy = heavy_imports(argv)
        failed |= bool(heavy)
        print(f"| `{name}` | {times[0]:.3f} s | {medians[name]:.3f} s | {max(times):.3f} s | "
              f"{', '.join(heavy) or 'none'} |")
    if args.limit is not None and medians["sparkeq --version"] > args.limit:
        print(f"sparkeq --version: median {medians['sparkeq --version']:.3f} s > {args.limit} s")
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
