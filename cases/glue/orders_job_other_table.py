"""The Glue job of orders_job.py reading another catalog table (declared with the same columns)."""

import sys

from awsglue.context import GlueContext
from awsglue.dynamicframe import DynamicFrame
from awsglue.job import Job
from awsglue.transforms import ApplyMapping
from awsglue.utils import getResolvedOptions
from pyspark.context import SparkContext

# sparkeq: schema sales.orders_2025 = "order_id BIGINT, customer STRING, amount DOUBLE, status STRING"
# sparkeq: schema mapped = "id BIGINT, customer STRING, amount DOUBLE"

args = getResolvedOptions(sys.argv, ["JOB_NAME"])
sc = SparkContext.getOrCreate()
glueContext = GlueContext(sc)
spark = glueContext.spark_session
job = Job(glueContext)
job.init(args["JOB_NAME"], args)

orders = glueContext.create_dynamic_frame.from_catalog(
    database="sales", table_name="orders_2025", transformation_ctx="orders"
)
mapped = ApplyMapping.apply(
    frame=orders,
    mappings=[
        ("order_id", "long", "id", "long"),
        ("customer", "string", "customer", "string"),
        ("amount", "double", "amount", "double"),
    ],
    transformation_ctx="mapped",
)
df = mapped.toDF()
big = df.filter(df.amount > 100).select("id", "customer")
print("Writing big orders ...")
out = DynamicFrame.fromDF(big, glueContext, "big")
glueContext.write_dynamic_frame.from_options(
    frame=out, connection_type="s3", connection_options={"path": "s3://sales-out/big"}, format="json"
)
job.commit()
