"""Generated program pairs for the scaling benchmark (written as PySpark files, like users' code).

The pairs are equivalent by construction, but not syntactically equal, so the verifier must reason:

- *chains*: ``n`` operations alternating ``map(x + c)`` and ``filter(x > d)``; the right side moves each
  filter in front of its map with the shifted bound ``d - c``. ``broken=True`` makes the first filter
  ``>=`` on the right: not equivalent, differing only at one boundary value (which then passes every
  later filter, since the maps only add).
- *cartesian*: ``k`` bags multiplied out, then a filter on the first bag's component; the right side
  filters the first bag before the products.
- *join*: ``k`` bags of pairs joined on their key, then a filter on the key; the right side filters the
  first bag before the joins.

With ``aggregate=True`` the chains and joins end in ``sum()`` (the joins after projecting the key), so
the fold methods (AggOneSync) must reason about the whole pipeline. Two more shapes stress what grows
with tuple width and nesting, and one pair cannot be settled at all:

- *nested*: a bag of right-nested pairs ``(x0, (x1, (..., x_d)))`` of depth ``d``, summing
  ``x0 + x1`` against ``x1 + x0``: the fold's input tuple has ``d + 1`` leaves.
- *unsettleable*: the parity of the sum of squares against the parity of the sum. Equivalent (``x*x``
  and ``x`` have the same parity), but only nonlinear reasoning shows it, which Z3 does not finish:
  sparkeq must answer ``unknown`` and the benchmark measures how fast.
"""

from __future__ import annotations

from pathlib import Path


def chain_pair(n: int, broken: bool = False, aggregate: bool = False) -> tuple[str, str]:
    """Sources of (left, right) for a chain of ``n`` operations (``n`` even: map/filter pairs), ending
    in ``sum()`` when ``aggregate``."""
    left_ops, right_ops = [], []
    for i in range(n // 2):
        c, d = i % 7 + 1, i % 5 + 3
        left_ops += [f".map(lambda x: x + {c})", f".filter(lambda x: x > {d})"]
        cmp = ">=" if broken and i == 0 else ">"
        right_ops += [f".filter(lambda x: x {cmp} {d - c})", f".map(lambda x: x + {c})"]
    end = [".sum()"] if aggregate else []
    return _module("chain", "R: RDD[int]", "R" + _wrap(left_ops + end)), \
        _module("chain", "R: RDD[int]", "R" + _wrap(right_ops + end))


def cartesian_pair(k: int) -> tuple[str, str]:
    params = ", ".join(f"R{i}: RDD[int]" for i in range(1, k + 1))
    first = "t" + "[0]" * (k - 1)
    left = "R1" + "".join(f".cartesian(R{i})" for i in range(2, k + 1)) + f".filter(lambda t: {first} > 0)"
    right = "R1.filter(lambda x: x > 0)" + "".join(f".cartesian(R{i})" for i in range(2, k + 1))
    return _module("product", params, left), _module("product", params, right)


def join_pair(k: int, aggregate: bool = False) -> tuple[str, str]:
    """``k`` bags joined, filtered on the key after (left) or before (right); with ``aggregate`` the
    keys of the joined tuples are summed."""
    params = ", ".join(f"R{i}: RDD[tuple[int, int]]" for i in range(1, k + 1))
    end = ".map(lambda t: t[0]).sum()" if aggregate else ""
    left = "R1" + "".join(f".join(R{i})" for i in range(2, k + 1)) + ".filter(lambda t: t[0] > 0)" + end
    right = "R1.filter(lambda t: t[0] > 0)" + "".join(f".join(R{i})" for i in range(2, k + 1)) + end
    return _module("joined", params, left), _module("joined", params, right)


def nested_pair(depth: int) -> tuple[str, str]:
    """A bag of right-nested pairs of ``depth`` levels; the sum of the first two leaves, added in
    either order."""
    elem = "int"
    for _ in range(depth):
        elem = f"tuple[int, {elem}]"
    params = f"R: RDD[{elem}]"
    return _module("nested", params, "R.map(lambda t: t[0] + t[1][0]).sum()"), \
        _module("nested", params, "R.map(lambda t: t[1][0] + t[0]).sum()")


def join_parity_pair(k: int) -> tuple[str, str]:
    """Parity of the sum of squared join keys against parity of their sum, over ``k`` joined bags: as
    unsettleable as ``unsettleable_pair``, and every search step is expensive -- what a deadline must
    cut short."""
    params = ", ".join(f"R{i}: RDD[tuple[int, int]]" for i in range(1, k + 1))
    joined = "R1" + "".join(f".join(R{i})" for i in range(2, k + 1))
    return _module("parity", params, f"{joined}.map(lambda t: t[0] * t[0]).sum() % 2"), \
        _module("parity", params, f"{joined}.map(lambda t: t[0]).sum() % 2")


def unsettleable_pair() -> tuple[str, str]:
    """Equivalent, but beyond what Z3 decides (nonlinear integer arithmetic): the answer is unknown."""
    return _module("parity", "R: RDD[int]", "R.map(lambda x: x * x).sum() % 2"), \
        _module("parity", "R: RDD[int]", "R.sum() % 2")


def _wrap(ops: list[str]) -> str:
    # One operation per line keeps the generated files readable and the lines short.
    return "".join(f"\n        {op}" for op in ops)


def _module(name: str, params: str, body: str) -> str:
    return (
        '"""Generated by bench/workloads.py."""\n\nfrom pyspark import RDD\n\n\n'
        f"def {name}({params}):\n    return (\n        {body}\n    )\n"
    )


def write_pair(directory: Path, stem: str, sources: tuple[str, str], function: str) -> tuple[str, str]:
    """Write the pair and return ``path::function`` specs for ``verifier.check``."""
    directory.mkdir(parents=True, exist_ok=True)
    specs = []
    for side, text in zip(("left", "right"), sources, strict=True):
        path = directory / f"{stem}_{side}.py"
        path.write_text(text)
        specs.append(f"{path}::{function}")
    return specs[0], specs[1]
