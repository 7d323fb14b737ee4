"""The Spark runtime: the session (``spark``), replay of functions (``replay``), of DataFrame programs
(``replay_df``) and of whole scripts (``script_replay``, ``df_script_replay``), and the differential test
on Spark (``difftest``).

It depends on the core (``verifier.core``) and implements the core's replay step
(``verifier.runtime.replayer.SparkReplayer``, a ``verifier.core.services.Replayer``); the core never
imports it. Importing this package is light: PySpark loads when a replay first needs it.
"""
