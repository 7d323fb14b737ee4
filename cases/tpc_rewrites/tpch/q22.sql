-- tpch/q22 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
/* using default substitutions */
SELECT
  SUBSTRING(customer.c_phone, 1, 2) AS cntrycode,
  COUNT(*) AS numcust,
  SUM(customer.c_acctbal) AS totacctbal
FROM customer AS customer
WHERE
  SUBSTRING(customer.c_phone, 1, 2) IN ('13', '31', '23', '29', '30', '18', '17')
  AND customer.c_acctbal > (
    SELECT
      AVG(customer.c_acctbal) AS _col_0
    FROM customer AS customer
    WHERE
      customer.c_acctbal > 0.00
      AND SUBSTRING(customer.c_phone, 1, 2) IN ('13', '31', '23', '29', '30', '18', '17')
  )
  AND NOT EXISTS(
    SELECT
      orders.o_orderkey AS o_orderkey,
      orders.o_custkey AS o_custkey,
      orders.o_orderstatus AS o_orderstatus,
      orders.o_totalprice AS o_totalprice,
      orders.o_orderdate AS o_orderdate,
      orders.o_orderpriority AS o_orderpriority,
      orders.o_clerk AS o_clerk,
      orders.o_shippriority AS o_shippriority,
      orders.o_comment AS o_comment
    FROM orders AS orders
    WHERE
      orders.o_custkey = customer.c_custkey
  )
GROUP BY
  SUBSTRING(customer.c_phone, 1, 2)
ORDER BY
  cntrycode
