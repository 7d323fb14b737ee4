"""What users touch: the command line (``cli``, ``cli_options``, ``batch_cli``), the pre-commit hook
(``hook``), batches of pairs (``batch``), the rendering of a result (``render``), the plain-language
reasons of an ``unknown`` (``reasons``) and the demo (``demo``).

They call the facade (``verifier.check`` and its replay functions), which wires the core with the Spark
runtime; nothing below this layer imports it.
"""
