"""The Glue job of orders_job.py with its variables and bookmark names (transformation_ctx) renamed
and without the Job bookkeeping (Job(...).init/commit): the same Glue calls on the same inputs."""

import sys

from awsglue.context import GlueContext
from awsglue.dynamicframe import DynamicFrame
from awsglue.transforms import ApplyMapping
from awsglue.utils import getResolvedOptions
from pyspark.context import SparkContext

# sparkeq: schema sales.orders = "order_id BIGINT, customer STRING, amount DOUBLE, status STRING"
# sparkeq: schema mapped = "id BIGINT, customer STRING, amount DOUBLE"

args = getResolvedOptions(sys.argv, ["JOB_NAME"])
sc = SparkContext.getOrCreate()
glueContext = GlueContext(sc)
spark = glueContext.spark_session

src = glueContext.create_dynamic_frame.from_catalog(
    database="sales", table_name="orders", transformation_ctx="read_orders"
)
mapped = ApplyMapping.apply(
    frame=src,
    mappings=[
        ("order_id", "long", "id", "long"),
        ("customer", "string", "customer", "string"),
        ("amount", "double", "amount", "double"),
    ],
    transformation_ctx="mapped",
)
df = mapped.toDF()
large = df.filter(df.amount > 100).select("id", "customer")
print("Writing big orders ...")
result = DynamicFrame.fromDF(large, glueContext, "big")
glueContext.write_dynamic_frame.from_options(
    frame=result, connection_type="s3", connection_options={"path": "s3://sales-out/big"}, format="json"
)
