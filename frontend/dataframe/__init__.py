"""The DataFrame dialect: a Python function over DataFrames -> the relational kernel's ``RelProgram``.

Split by concern: reading the module's names and picking the function, the statement/expression
evaluator, readers and SQL text, column-level methods, joins/aggregations/set operations, the method
table, and below them column expressions (``columns``), ``pyspark.sql.functions`` (``functions``) and
the driver-side values (``values``). SQL text inside DataFrame code (``spark.sql``, ``selectExpr``) is
read by ``frontend.sql``, the one place that parses SQL.
"""
