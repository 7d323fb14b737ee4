"""pytest helpers: ``assert_equivalent(old, new, **options)`` and ``assert_not_equivalent``.

Usable from any test suite (plain ``assert`` semantics: an ``AssertionError`` whose message shows the
verdict, the plain reason and the counterexample table, so a failing refactor test reads like
``sparkeq check``'s report). Where ``pyspark.testing.assertDataFrameEqual`` or chispa compare two
results on inputs the test author chose, these compare two *programs* on every input: a proof, or a
counterexample the author did not think of. Replay on Spark is off unless ``replay=True``.
"""

from __future__ import annotations

from typing import Any

from verifier.core.result import Result

__all__ = ["assert_equivalent", "assert_not_equivalent", "describe", "label"]


def assert_equivalent(old: Any, new: Any, **options: Any) -> Result:
    """Fail unless sparkeq *proves* ``old`` and ``new`` equivalent (``unknown`` fails too: no proof).
    ``options`` are ``sparkeq.check``'s. Returns the ``Result`` for further assertions."""
    __tracebackhide__ = True  # pytest shows the caller's line, not this helper's frame
    from verifier import check

    result = check(old, new, **options)
    if result.verdict != "equivalent":
        raise AssertionError(describe(result, "expected the programs to be equivalent", old, new))
    return result


def assert_not_equivalent(old: Any, new: Any, **options: Any) -> Result:
    """Fail unless sparkeq finds a counterexample (an intended change of behaviour, or a test that a
    known-wrong rewrite is caught). Returns the ``Result`` (its ``counterexample`` holds the inputs)."""
    __tracebackhide__ = True
    from verifier import check

    result = check(old, new, **options)
    if result.verdict != "not_equivalent":
        raise AssertionError(describe(result, "expected the programs to differ", old, new))
    return result


def describe(result: Result, expectation: str, old: Any = None, new: Any = None, width: int = 100) -> str:
    """The failure message: the expectation, then ``sparkeq check``'s plain report of ``result`` (no
    colours: pytest prints it as text), with the two sides labelled by their specs (``old: jobs/a.py::f``)
    and called old and new in the sentences."""
    import io

    from rich.console import Console

    from verifier.interfaces.render import render

    buffer = io.StringIO()
    console = Console(file=buffer, width=width, no_color=True, force_terminal=False, highlight=False)
    render(result, console, left=f"old: {label(old)}", right=f"new: {label(new)}", names=("old", "new"))
    return f"sparkeq: {expectation}, got {result.verdict.upper().replace('_', ' ')}\n{buffer.getvalue()}"


def label(spec: Any) -> str:
    """A side as the test wrote it: a spec string as is, a function by its qualified name, source text
    by its function, a program by its name."""
    if spec is None:
        return "?"
    if isinstance(spec, str):
        return spec if "\n" not in spec else "<source text>"
    if isinstance(spec, tuple) and len(spec) == 2:
        return f"<source text>::{spec[1]}"
    name = getattr(spec, "__qualname__", None) or getattr(spec, "name", None)
    module = getattr(spec, "__module__", None)
    if name and module:
        return f"{module}.{name}"
    return str(name or type(spec).__name__)
