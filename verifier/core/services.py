"""What the decision core needs from the layers above it, handed down by the facade (``verifier.check``).

Why: the core decides verdicts and must not depend on Spark or on how a result is worded for people, yet
``check(..., replay=True)`` replays a counterexample on Spark and every result's reason is put in plain
words. So the core defines the two steps here -- a ``Replayer`` (implemented by
``verifier.runtime.replayer.SparkReplayer``) and a ``summarise`` function (``verifier.interfaces.reasons``)
-- and the facade wires the implementations in (dependency inversion). A check given no replayer reports a
counterexample as not replayed, with a warning saying why.

The exceptions a replayer raises are defined here too, so that the core can tell "Spark could not run"
from a difference without importing the runtime.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from sparklite.ast import Program
    from verifier.core.base import LoadedProgram
    from verifier.core.result import Result


NO_REPLAYER = "replay is unavailable (no Spark runtime was given to the check)"


class SparkUnavailable(RuntimeError):
    """Spark cannot be started here (no Java, too old a Java, or the JVM failed)."""


class ReplayError(RuntimeError):
    """A program could not be run on Spark at all (its code cannot be isolated or loaded, or Spark
    failed for a reason that is not an exception of the program): no outcome to report."""


class DataFrameReplayError(RuntimeError):
    """The program could not be run on Spark at all (no outcome to compare)."""


class Replayer(Protocol):
    """Runs the users' original programs on Spark with a counterexample's inputs (``verifier.runtime``)."""

    def replay_functions(self, left: LoadedProgram, right: LoadedProgram, inputs: Mapping[str, Any],
                         partitions: Mapping[str, Any] | None, *, master: str,
                         references: tuple[Any, Any] | None) -> Any:
        """Both RDD functions on ``inputs`` with ``partitions`` (``verifier.runtime.replay.replay``): a
        result with ``left``, ``right``, ``differs`` and ``seconds``. Raises ``SparkUnavailable`` or
        ``ReplayError``."""
        ...

    def run_rdd(self, loaded: LoadedProgram, inputs: Mapping[str, Any], partitions: Mapping[str, Any] | None,
                *, master: str, reference: Any = None) -> Any:
        """One RDD function's outcome on ``inputs`` (``verifier.runtime.replay.run_on_spark``): the RDD
        side of a cross-kind pair (``verifier.core.kinds.cross``). Raises ``SparkUnavailable`` or
        ``ReplayError``."""
        ...

    def run_dataframe(self, loaded: LoadedProgram, tables: Mapping[str, Any],
                      layout: Mapping[str, Any] | None, names: Mapping[str, str], master: str,
                      reference: Any = None) -> Any:
        """One DataFrame/SQL program's outcome on ``tables`` (``verifier.runtime.replay_df.run_on_spark``).
        Raises ``SparkUnavailable`` or ``DataFrameReplayError``."""
        ...

    def replay_scripts(self, pairs: Sequence[tuple[Any, Any, Mapping[str, Any], Any]], master: str
                       ) -> list[Any]:
        """Both unmodified RDD scripts of every pair on its files, in one Python process
        (``verifier.runtime.script_replay.replay_many``). Raises ``verifier.core.script_inputs.ReplayError``
        when a pair cannot be run at all."""
        ...

    def replay_df_scripts(self, pairs: Sequence[tuple[Any, Any, Mapping[str, Any], Any]], master: str
                          ) -> list[Any]:
        """Both unmodified DataFrame scripts of every pair on its input files
        (``verifier.runtime.df_script_replay.replay_df_scripts``)."""
        ...


@dataclass(frozen=True)
class Services:
    """The steps the facade hands the core: ``replayer`` (None: counterexamples are not replayed) and
    ``summarise`` (the plain-language reason of a result, given the programs it is about; None: the
    reason stays as the steps wrote it)."""

    replayer: Replayer | None = None
    summarise: Callable[[Result, list[Program]], Result] | None = None
