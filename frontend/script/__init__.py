"""Whole scripts: a job that builds its own session, reads ``sys.argv`` and prints or saves its results.

``rdd_script`` reads RDD scripts into SparkLite programs per sink (on top of ``frontend.rdd``);
``df_script`` reads DataFrame scripts into relational programs per sink (on top of
``frontend.dataframe``). See docs/scripts.md.
"""
