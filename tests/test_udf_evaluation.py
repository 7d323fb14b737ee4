"""What Python evaluates eagerly inside functions, and the frontend must not drop (found in review).

Each pair was proved equivalent before the fix while PySpark computes different results; now each
is refuted with an interpreter-checked counterexample or is a located input error."""

from __future__ import annotations

import pytest

import verifier

H = "from pyspark import RDD\n\n"
IDENTITY = H + "def f(R: RDD[int]):\n    return R.map(lambda x: x)\n"
PLUS_ONE = H + "def f(R: RDD[int]):\n    return R.map(lambda v: v + 1)\n"

REFUTED = {
    "a parametric helper's argument, its function unused": (
        H + "def below(n):\n    return lambda v: v < n\n\ndef f(R: RDD[int]):\n    def u(x):\n"
        "        h = below(10 // x)\n        return x\n    return R.map(u)\n", IDENTITY),
    "a nested helper's argument, its function unused": (
        H + "def f(R: RDD[int]):\n    def above(n):\n        return lambda v: v > n\n    def u(x):\n"
        "        h = above(10 // x)\n        return x\n    return R.map(u)\n", IDENTITY),
    "a helper's argument on the driver, its function unused": (
        H + "def below(n):\n    return lambda v: v < n\n\ndef f(R: RDD[int], t: int):\n"
        "    h = below(10 // t)\n    return R\n", H + "def f(R: RDD[int], t: int):\n    return R\n"),
    "the base of ** 0 in a function": (
        H + "def f(R: RDD[int]):\n    return R.map(lambda x: (10 // x) ** 0)\n",
        H + "def f(R: RDD[int]):\n    return R.map(lambda x: 1)\n"),
    "the base of ** 0 on the driver": (
        H + "def f(R: RDD[int]) -> int:\n    return R.max() ** 0\n",
        H + "def f(R: RDD[int]) -> int:\n    return 1\n"),
}

REJECTED = {
    "a pending helper returning a list": (
        H + "def f(R: RDD[int]):\n    def mk(k):\n        return lambda v: [v, k]\n"
        "    return R.map(lambda x: mk(x + 1)(x)).distinct()\n",
        H + "def f(R: RDD[int]):\n    return R.map(lambda x: (x, x + 1)).distinct()\n"),
    "a captured variable rebound in a function-returning helper": (
        H + "def mk(k):\n    def h(v):\n        return v + k\n    k = k + 1\n    return h\n\n"
        "def f(R: RDD[int]):\n    return R.map(mk(1))\n", PLUS_ONE),
    "a function-returning helper returning a rebound name": (
        H + "def mk(k):\n    def h(v):\n        return v + k\n    h = 5\n    return h\n\n"
        "def f(R: RDD[int]):\n    return R.map(mk(1))\n", PLUS_ONE),
}


@pytest.mark.parametrize("name", sorted(REFUTED))
def test_eager_evaluation_is_kept(name: str) -> None:
    left, right = REFUTED[name]
    result = verifier.check((left, "f"), (right, "f"), replay=False, timeout=20)
    assert result.verdict == "not_equivalent", result
    assert "error" in str(result.counterexample.left)


@pytest.mark.parametrize("name", sorted(REJECTED))
def test_unfaithful_shapes_are_located_input_errors(name: str) -> None:
    left, right = REJECTED[name]
    result = verifier.check((left, "f"), (right, "f"), replay=False, timeout=20)
    assert result.verdict == "error", result
    assert result.reason.startswith("<input>:")
