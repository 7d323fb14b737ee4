"""The relational half of SparkLite: DataFrame and SQL programs lower to these nodes (``ast``), typed by
Spark's rules (``types``, ``build``) and given Spark 4's meaning (``interpreter``)."""
