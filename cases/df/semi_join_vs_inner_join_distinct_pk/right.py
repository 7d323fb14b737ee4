"""The same as an inner join, the order columns kept and duplicates (from several matching customers) removed
by distinct. distinct would also merge duplicate orders, which the primary key on oid rules out."""

from typing import Annotated

from pyspark.sql import DataFrame

Orders = Annotated[DataFrame, "oid INT PRIMARY KEY, cid INT, amount INT, status STRING"]
Customers = Annotated[DataFrame, "id INT NOT NULL, name STRING, city STRING"]


def ordering_customers(orders: Orders, customers: Customers) -> DataFrame:
    joined = orders.join(customers, orders.cid == customers.id)
    return joined.select("oid", "cid", "amount", "status").distinct()
