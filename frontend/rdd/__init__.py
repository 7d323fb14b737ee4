"""The RDD dialect: a Python function over RDDs -> a SparkLite ``Program``.

``loader`` (the entry points ``translate_source``/``translate_file``), ``pipeline`` (the pipeline
function's statements), ``methods`` (RDD method calls) and ``translator`` (the function-body translator
of ``frontend.python.udf`` with the RDD method chain plugged in, so that ``udf`` never imports this
package).
"""
