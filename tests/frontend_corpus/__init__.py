"""PySpark pipeline functions in the styles the frontend supports (pipelines are named ``p_*``).

The faithfulness test imports these modules normally (that is test code) and runs each pipeline on a
real local Spark, then compares with the reference interpreter on the frontend's translation.
"""
