"""Operations sparkeq does not model, proved only by congruence (``ast.Opaque``).

Why: real jobs call operations whose meaning sparkeq cannot know or check -- AWS Glue's transforms
(``ApplyMapping``, ``ResolveChoice``, ``Relationalize``...), which only run on AWS Glue, or values that
depend on the seed *and* on how Spark partitions the data (``F.rand(seed)``). Refusing such a job loses
it entirely; guessing its meaning would risk a wrong verdict. What stays sound is to treat each call as
an uninterpreted function of its literal arguments and its inputs:

- the **proof** (``encoder.relational.normal``: an ``OpaqueSrc``; congruence:
  ``sparklite.relational.canonical``) equates two calls only when they name the same operation with the
  same arguments over inputs proved equal, and the verdict lists the assumption this rests on
  (``assumption``): the operation is a deterministic function of its inputs (or, when it is not, the two
  programs have the same *set* of possible results);
- the **reference interpreter** cannot run it: it raises ``NotModelled``, and the searches answer
  ``unknown`` with ``reason`` instead of comparing outputs (a difference is shown only where no opaque
  result is needed to show it).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sparklite.relational import ast as R


class NotModelled(Exception):
    """The interpreter met an ``Opaque`` node: the outcome is not known."""

    def __init__(self, node: R.Opaque | str) -> None:
        super().__init__(reason(node) if isinstance(node, R.Opaque) else node)
        self.node = node


def reason(node: R.Opaque) -> str:
    """Why the interpreter cannot compute ``node``'s result (the search's unknown reason)."""
    return f"{node.op} is not modelled: only proved by congruence (the same call on the same inputs)"


def assumption(node: R.Opaque) -> str:
    """What a proof through ``node`` assumes, listed among the verdict's assumptions."""
    if node.nondeterministic:
        return (f"{node.op} is not modelled: two calls with the same arguments on equal inputs are taken "
                "as equal as sets of possible results (each run may return another one)")
    return f"{node.op} is not modelled: it is assumed to be a deterministic function of its inputs"


def opaque_nodes(root: R.Rel | R.Action | R.RelProgram) -> Iterator[R.Opaque]:
    """Every ``Opaque`` node of a plan (``rows.relations`` walks into their inputs too)."""
    from sparklite.relational.rows import relations

    body = root.body if isinstance(root, R.RelProgram) else root
    return (n for n in relations(body) if isinstance(n, R.Opaque))


def assumptions(root: Any) -> list[str]:
    """The assumptions of every opaque call under ``root``, in order, without repeats."""
    return list(dict.fromkeys(assumption(n) for n in opaque_nodes(root)))


def literal(value: Any) -> Any:
    """``value`` (a Python literal: str, number, bool, None, list, tuple, dict) as a hashable key: lists
    become tuples, dicts sorted tuples of pairs; anything else is None (not a literal)."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        items = [literal(v) for v in value]
        return None if any(i is None and v is not None for i, v in zip(items, value, strict=True)) \
            else ("list" if isinstance(value, list) else "tuple", tuple(items))
    if isinstance(value, dict):
        pairs = [(literal(k), literal(v)) for k, v in value.items()]
        if any(k is None or (v is None and value[kk] is not None)
               for (k, v), kk in zip(pairs, value, strict=True)):
            return None
        return ("dict", tuple(sorted(pairs, key=repr)))
    return None
