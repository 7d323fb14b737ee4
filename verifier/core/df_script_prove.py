"""Proof of two DataFrame scripts (``docs/scripts.md``, "Proving DataFrame scripts equivalent").

Two scripts are proved equivalent when what they write is the same on every input, sink by sink:

* the same **command line** (as many ``sys.argv`` arguments, every source matched by
  ``frontend.script.df_program.align_df_sources``; file sources read in Spark's default ``PERMISSIVE`` mode);
* the same **sinks in the same order**, each pair of the same shape with the same constant text:
  ``show(n, truncate)`` with the same ``n`` and ``truncate``; prints with the same literal pieces, the
  same row fields in the same places, the same conversions; writes in the same format, save mode,
  header and separator, to the same path expression; the same actions kept (``n = df.count()``);
* every pair of **DataFrame results** feeding corresponding sinks proved equal by the term-matching
  prover (``verifier.core.methods.rel_terms``): the rows as a bag, with their column types, and their column
  names where the sink prints them (``show()``'s header, a ``Row``'s repr, a CSV header, JSON keys);
  where the sink writes rows in the order Spark returns them (``show()``, a loop over ``collect()``,
  ``print(df.collect())``, written files), both results must be sorted alike (the prover then compares
  the sort keys of every row too) or both unsorted (then the rows may come out in another order, which
  the proof lists as an assumption, as the search compares such output as a bag); ``count()`` as a
  count; ``first()``/``take(n)``/``show()`` through the prover's ``limit``.

The prover also shows that each pair of actions raises on the same inputs, so both scripts stop at the
same sink with the same error. Anything not shown identical leaves no proof, with the reason; the
prover's assumptions and the ones of this comparison are the result's ``assumptions``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from frontend.script.df_program import DfScriptProgram, DfSink, Part
from sparklite.relational import ast as R

__all__ = ["DfProof", "prove_df_scripts"]


@dataclass(frozen=True)
class DfProof:
    """A proof: the prover's methods (``NoAgg``, ``byKey``), what it means, what it assumed."""

    method: str
    explanation: str
    assumptions: tuple[str, ...]
    warnings: tuple[str, ...]


class _NoProof(Exception):
    """Why the scripts are not proved equivalent."""


@dataclass(frozen=True)
class _Goal:
    """Action ``left`` of LEFT against action ``right`` of RIGHT, as sink ``where`` observes them:
    ``names`` (the column names are printed or written) and ``ordered`` (rows come out in the order
    Spark returns them)."""

    left: int
    right: int
    names: bool
    ordered: bool
    where: str
    show: bool = False


def prove_df_scripts(left: DfScriptProgram, right: DfScriptProgram, *, until: float,
                     patience_s: float = 1.5) -> DfProof | str:
    """Prove ``left`` and ``right`` (RIGHT aligned: ``align_df_sources``) equivalent, or say why not.
    Each Z3 query gets ``patience_s`` as a resource budget (deterministic); ``until`` (monotonic time)
    is a hard cap only."""
    try:
        return _Prover(left, right, until, patience_s).prove()
    except _NoProof as exc:
        return str(exc)


class _Prover:
    def __init__(self, left: DfScriptProgram, right: DfScriptProgram, until: float, patience_s: float
                 ) -> None:
        self.left, self.right, self.until, self.patience_s = left, right, until, patience_s
        self.assumptions: list[str] = []
        self.warnings: list[str] = []
        self.methods: set[str] = set()
        self.proved: dict[tuple[int, int, bool], bool] = {}

    def assume(self, text: str) -> None:
        if text not in self.assumptions:
            self.assumptions.append(text)

    def prove(self) -> DfProof:
        self.command_line()
        goals = self.sinks()
        for goal in goals:
            self.goal(goal)
        from frontend.script.glue import assumptions

        for text in assumptions(self.left):  # AWS Glue's sources and outputs, operations not modelled
            self.assume(text)
        from frontend.script.df_session import assumptions as session_assumptions

        for text in session_assumptions(self.left, self.right):  # Delta Lake's session settings
            self.assume(text)
        method = "byKey" if "byKey" in self.methods else "NoAgg"
        explanation = (
            f"both scripts write the same sinks in the same order ({len(self.left.sinks)} sink(s) with the "
            "same constant text), and every DataFrame result they show, print or write is proved equal "
            "(the same rows, NULLs in three-valued logic, the same column types and printed names, the "
            "same order where it is printed in order) and raises on the same inputs"
        )
        return DfProof(method, explanation, tuple(self.assumptions), tuple(self.warnings))

    # -- the command line and the inputs ------------------------------------------------------------------

    def command_line(self) -> None:
        left, right = self.left, self.right
        if left.argv_length != right.argv_length:
            raise _NoProof(
                f"{left.filename} uses {left.argv_length - 1} command-line argument(s) and {right.filename} "
                f"{right.argv_length - 1}: one command line does not run both as modelled"
            )
        n = left.argv_length - 1
        args = ", ".join(f"sys.argv[{i}]" for i in range(1, n + 1)) or "none"
        if [c for c, _ in left.arg_checks] == [c for c, _ in right.arg_checks]:
            self.assume(
                f"both scripts are run with the {n} command-line argument(s) they use ({args}); their "
                "argument checks are the same statements"
            )
        else:
            where = "; ".join(
                f"{sp.filename}: " + (", ".join(f"line {loc.line}" for _, loc in sp.arg_checks) or "none")
                for sp in (left, right)
            )
            self.assume(
                f"both scripts are run with the {n} command-line argument(s) they use ({args}), with which "
                f"their argument checks pass and print nothing; the checks differ ({where}), so with "
                "another number of arguments the scripts may exit or fail differently"
            )
        files = False
        glue_l = [s for s in left.sources if s.reader.startswith("glueContext.")]
        glue_r = [s for s in right.sources if s.reader.startswith("glueContext.")]
        if [(s.reader, s.path) for s in glue_l] != [(s.reader, s.path) for s in glue_r]:
            raise _NoProof(  # frontend.script.glue: a Glue source is named by its call, not given
                "the jobs read different AWS Glue sources (LEFT: "
                + ", ".join(f"{s.path} at {s.loc}" for s in glue_l) + "; RIGHT: "
                + ", ".join(f"{s.path} at {s.loc}" for s in glue_r) + ")"
            )
        # file sources are aligned one to one; data written in the scripts may differ in number
        # (``align_df_sources``), so each side's sources are looked at on their own
        for s, sp in [*((s, left) for s in left.sources), *((s, right) for s in right.sources)]:
            if s.kind in ("csv", "json", "text"):
                files = True
                if s.mode != "PERMISSIVE":
                    raise _NoProof(
                        f"{sp.filename} reads {s.path} in {s.mode} mode ({s.loc}): which lines it drops "
                        "or fails on depends on the columns each query parses, which the proof does not "
                        "model (only PERMISSIVE, Spark's default, is proved over)"
                    )
        for ls in left.sources:
            if ls.inferred:
                self.assume(inferred_source(ls))
        from frontend.script.glue import SOURCE_ASSUMPTION

        if any(s.reader.startswith("glueContext.") for s in left.sources):
            self.assume(SOURCE_ASSUMPTION)
        if files:
            self.assume(
                "every input file is read as the same table by every query of both scripts (PERMISSIVE "
                "mode: a field Spark cannot parse reads as NULL, whichever columns a query reads); the proof "
                "holds for every table"
            )

    # -- sinks ----------------------------------------------------------------------------------------------

    def sinks(self) -> list[_Goal]:
        ls, rs = self.left.sinks, self.right.sinks
        if len(ls) != len(rs):
            raise _NoProof(
                f"the scripts have different numbers of sinks ({len(ls)} in {self.left.filename}: "
                f"{_listing(ls)}; {len(rs)} in {self.right.filename}: {_listing(rs)}), so no proof compares "
                "them sink by sink"
            )
        goals: list[_Goal] = []
        for a, b in zip(ls, rs, strict=True):
            where = f"sink {a.index + 1}, {a.words} ({a.loc}, {b.loc})"
            if a.kind != b.kind:
                raise _NoProof(f"sink {a.index + 1} is {a.words} at {a.loc} and {b.words} at {b.loc}")
            goals.extend(self.sink(a, b, where))
        return goals

    def sink(self, a: DfSink, b: DfSink, where: str) -> list[_Goal]:
        differ = _differ(where)
        if a.kind == "print":
            return self.parts(a.parts, b.parts, where)
        if a.kind == "glue":  # an AWS Glue output (frontend.script.glue): the same call, the same rows
            from frontend.script.glue import sink_assumption

            if (a.fmt, a.path) != (b.fmt, b.path):
                raise differ(f"the AWS Glue calls differ ({a.fmt}({a.path}) against {b.fmt}({b.path})), and "
                             "Glue's operations are not modelled")
            self.assume(sink_assumption(a))
            if a.action is None or b.action is None:
                return []
            # a Glue writer writes the rows in the frame's order, and DynamicFrame.show(n) prints its first
            # n: ordered, as a DataFrame's write and show() are (review 5: a sorted and an unsorted frame
            # shown by show(2) were proved equal)
            return [_Goal(a.action, b.action, True, True, where, show=a.fmt == "DynamicFrame.show")]
        assert a.action is not None and b.action is not None
        if a.kind == "job":
            return [_Goal(a.action, b.action, False, False, where)]
        if a.kind == "show":
            if (a.show_n, a.truncate) != (b.show_n, b.truncate):
                raise differ(
                    f"show(n={a.show_n}, truncate={a.truncate}) against show(n={b.show_n}, "
                    f"truncate={b.truncate})"
                )
            return [_Goal(a.action, b.action, True, True, where, show=True)]
        if a.kind == "print_rows":
            if len(a.lines) != len(b.lines):
                raise differ(f"the loops print {len(a.lines)} and {len(b.lines)} line(s) per row")
            goals = [g for la, lb in zip(a.lines, b.lines, strict=True) for g in self.parts(la, lb, where)]
            names = any(p.kind == "field" and p.conversion == "row" for line in a.lines for p in line)
            return [*goals, _Goal(a.action, b.action, names, True, where)]
        if a.kind == "print_collection":
            return [*self.parts(a.parts, b.parts, where), _Goal(a.action, b.action, True, True, where)]
        if a.kind == "write":
            mine = (a.fmt, a.mode, a.header, a.sep, a.path)
            theirs = (b.fmt, b.mode, b.header, b.sep, b.path)
            if mine != theirs:
                raise differ(
                    f"the writes differ in format, save mode, header, separator or path ({_write(a)} against "
                    f"{_write(b)})"
                )
            names = a.fmt == "json" or a.header
            return [_Goal(a.action, b.action, names, True, where)]
        raise differ(f"a sink of kind {a.kind} is not compared")  # pragma: no cover

    def parts(self, a: tuple[Part, ...], b: tuple[Part, ...], where: str) -> list[_Goal]:
        """Printed text: the same pieces, action results as goals (a ``first()`` row prints its names)."""
        if len(a) != len(b) or any(
            (p.kind, p.text, p.column, p.conversion) != (q.kind, q.text, q.column, q.conversion)
            for p, q in zip(a, b, strict=True)
        ):
            raise _differ(where)(f"the printed text is made differently ({_text(a)} against {_text(b)})")
        goals = []
        for p, q in zip(a, b, strict=True):
            if p.kind == "action":
                kind = self.left.actions[p.action].body
                names = isinstance(kind, R.Action) and kind.kind != "count"
                goals.append(_Goal(p.action, q.action, names, False, where))
        return goals

    # -- one pair of DataFrame results -------------------------------------------------------------------

    def goal(self, goal: _Goal) -> None:
        key = (goal.left, goal.right, goal.names)
        if self.proved.get(key):
            return
        from verifier.core.methods import rel_terms
        from verifier.core.methods.rel_terms import RelProof
        from verifier.core.relational_search import align

        lp, rp = self.left.actions[goal.left], self.right.actions[goal.right]
        lb, rb = lp.body, rp.body
        lkind = (lb.kind, lb.count) if isinstance(lb, R.Action) else ("dataframe", None)
        rkind = (rb.kind, rb.count) if isinstance(rb, R.Action) else ("dataframe", None)
        if lkind != rkind:
            raise _NoProof(
                f"{goal.where}: the scripts run different actions ({_action(lkind)} against {_action(rkind)})"
            )
        if lkind[0] != "count":
            lrel = lb.source if isinstance(lb, R.Action) else lb
            rrel = rb.source if isinstance(rb, R.Action) else rb
            ltypes = [f.type for f in lrel.schema.fields]
            rtypes = [f.type for f in rrel.schema.fields]
            if ltypes != rtypes:
                raise _NoProof(
                    f"{goal.where}: the results' column types differ ({_types(lrel)} against {_types(rrel)})"
                )
            if goal.names and lrel.schema.names != rrel.schema.names:
                raise _NoProof(
                    f"{goal.where}: the results' column names differ ({', '.join(lrel.schema.names)} against "
                    f"{', '.join(rrel.schema.names)}) and the sink prints them"
                )
            if goal.ordered:
                self.order(goal, lrel, rrel)
        if time.monotonic() >= self.until:
            raise _NoProof(f"{goal.where}: no time left for the proof")
        aligned_l, aligned_r, _ = align(lp, rp)
        proof = rel_terms.run(
            aligned_l,
            aligned_r,
            timeout_s=self.patience_s,
            until=self.until,
            ignore_names=not goal.names,
        )
        if not isinstance(proof, RelProof):
            raise _NoProof(f"{goal.where}: the results are not proved equal ({proof.method}: {proof.reason})")
        self.methods.add(proof.method)
        for text in proof.assumptions:
            self.assume(text)
        for text in proof.warnings:
            if text not in self.warnings:
                self.warnings.append(text)
        self.proved[key] = True

    def order(self, goal: _Goal, lrel: R.Rel, rrel: R.Rel) -> None:
        """Rows printed or written in Spark's order: both sorted alike (the prover compares the keys), or
        both unsorted (then compared as bags, an assumption)."""
        lsorted, rsorted = _sorted(lrel), _sorted(rrel)
        if lsorted is None or rsorted is None:
            return  # the prover cannot read the result: it proves nothing either
        if lsorted != rsorted:
            which = self.left.filename if lsorted else self.right.filename
            raise _NoProof(
                f"{goal.where}: only {which} sorts the rows it prints or writes, so the other may show them "
                "in another order"
            )
        if not lsorted:
            self.assume(
                "rows of an unsorted result are shown, printed and written in the order Spark returns them, "
                "which may differ between the two scripts: they are compared as a bag, as the search "
                "compares them"
            )
            if goal.show:
                self.assume(
                    "show() of an unsorted result of more than n rows prints any n of them: both scripts "
                    "can print the same tables, not necessarily the same one in a given run"
                )


def _sorted(rel: R.Rel) -> bool | None:
    from encoder.relational.normal import NotNormalisable, normalise
    from encoder.relational.smt import NotEncodable

    try:
        return normalise(rel).order is not None
    except (NotNormalisable, NotEncodable):
        return None


def _differ(where: str) -> Any:
    return lambda what: _NoProof(f"{where}: {what}")


def _listing(sinks: tuple[DfSink, ...]) -> str:
    return ", ".join(f"{k.words} (line {k.loc.line})" for k in sinks) or "none"


def _write(k: DfSink) -> str:
    return f"{k.fmt}, mode {k.mode}, header {k.header}, sep {k.sep!r}, to {k.path}"


def _text(parts: tuple[Part, ...]) -> str:
    out = []
    for p in parts:
        if p.kind in ("lit", "arg", "opaque"):
            out.append(repr(p.text) if p.kind == "lit" else f"<{p.text}>")
        elif p.kind == "file":
            out.append(f"<the text of {p.text}>")
        elif p.kind == "listing":
            out.append(f"<os.listdir({p.text})>")
        elif p.kind == "action":
            out.append("<action result>")
        else:
            out.append(f"<{p.conversion} of column {p.column}>" if p.column >= 0 else "<row>")
    return " + ".join(out)


def _action(kind: tuple[str, int | None]) -> str:
    name, n = kind
    return f"{name}({n})" if n is not None else ("the DataFrame" if name == "dataframe" else f"{name}()")


def _types(rel: R.Rel) -> str:
    return ", ".join(str(f.type) for f in rel.schema.fields)


def inferred_source(source: Any) -> str:
    """The assumption a proof over a source read without a schema rests on (a proof's or congruence's)."""
    return (f"{source.path} is read without a schema: Spark infers the one declared for it ({source.schema}) "
            "from every input file")
