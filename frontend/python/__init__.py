"""What every Python dialect shares when it reads the user's module with ``ast`` (never importing it).

``names`` (module-level names, scopes, what a name is bound to), ``nodes`` (the frontend-only SparkLite
nodes that carry Python's own semantics until typing resolves them), ``udf`` with ``udf_calls`` and
``udf_rules`` (the translator of expressions, function and lambda bodies), and ``types``,
``inference``, ``resolve`` (annotations, type inference, resolution of the placeholders). The dialect packages
(``frontend.rdd``, ``frontend.dataframe``, ``frontend.sql``) build on these and never on each other
where they do not share code: shared reading lives here or in the kernel.
"""
