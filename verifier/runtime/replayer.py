"""``SparkReplayer``: the Spark runtime's implementation of the core's replay step
(``verifier.core.services.Replayer``).

Why a class of its own: the core must not import the runtime, so it calls a replayer it is handed; the
facade (``verifier.check``) hands it this one. Each method delegates to the module that runs the
programs, imported when first needed, so that a check that never replays never loads PySpark.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from verifier.core.base import LoadedProgram


class SparkReplayer:
    """Replays on a local or remote Spark (the master is given per call)."""

    def replay_functions(self, left: LoadedProgram, right: LoadedProgram, inputs: Mapping[str, Any],
                         partitions: Mapping[str, Any] | None, *, master: str,
                         references: tuple[Any, Any] | None) -> Any:
        from verifier.runtime.replay import replay

        return replay(left, right, inputs, partitions, master=master, references=references)

    def run_rdd(self, loaded: LoadedProgram, inputs: Mapping[str, Any], partitions: Mapping[str, Any] | None,
                *, master: str, reference: Any = None) -> Any:
        from py4j.protocol import Py4JError

        from verifier.core.services import SparkUnavailable
        from verifier.runtime.replay import run_on_spark

        try:
            return run_on_spark(loaded, inputs, partitions, master, reference)
        except Py4JError as exc:  # Spark itself failed (the program's own errors are outcomes)
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise SparkUnavailable(f"Spark failed at master {master!r}: {first}") from exc

    def run_dataframe(self, loaded: LoadedProgram, tables: Mapping[str, Any],
                      layout: Mapping[str, Any] | None, names: Mapping[str, str], master: str,
                      reference: Any = None) -> Any:
        from verifier.runtime.progress import label, say
        from verifier.runtime.replay_df import run_on_spark

        say(f"running on Spark: {label(loaded)}")
        return run_on_spark(loaded, tables, layout, names, master, reference)

    def replay_scripts(self, pairs: Sequence[tuple[Any, Any, Mapping[str, Any], Any]], master: str
                       ) -> list[Any]:
        from verifier.runtime.script_replay import replay_many

        return replay_many(pairs, master)

    def replay_df_scripts(self, pairs: Sequence[tuple[Any, Any, Mapping[str, Any], Any]], master: str
                          ) -> list[Any]:
        from verifier.runtime.df_script_replay import replay_df_scripts

        return replay_df_scripts(pairs, master)
