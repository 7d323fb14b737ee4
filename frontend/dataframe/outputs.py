"""A DataFrame function that returns a fixed-length tuple (or list) of DataFrames: several outputs.

Why: real jobs split one input into several frames and return them together
(``return (databases, tables, partitions)`` in the AWS Glue Hive migration utility). Such a function
is read as one ``RelProgram`` per position, all over the same parameters; the kind
``verifier.core.kinds.outputs`` compares two of them position by position, each position as any
DataFrame result is compared, and the tuple's length and container (tuple or list) must agree. A
counterexample says which position differs. Nothing is dropped: every element becomes an output.

Only DataFrames (lazy: each element's rows, or its error, are observed on their own) may be returned
together; an action's result among them is refused, since actions run in order and the first error
stops the rest, which a comparison position by position would not see.
"""

from __future__ import annotations

from dataclasses import dataclass

from sparklite.ast import Loc
from sparklite.relational import ast as R


@dataclass(frozen=True)
class OutputsProgram:
    """The outputs of one DataFrame function, in the order it returns them. ``is_list`` tells a list
    (``[a, b]``) from a tuple (``(a, b)``): Python's ``==`` never equates the two."""

    name: str
    outputs: tuple[R.RelProgram, ...]
    is_list: bool = False
    loc: Loc | None = None

    @property
    def params(self) -> tuple[R.TableParam, ...]:
        return self.outputs[0].params

    def describe(self) -> str:
        what = "list" if self.is_list else "tuple"
        return f"a {what} of {len(self.outputs)} results"
