-- tpch/q13 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
/* using default substitutions */
SELECT
  c_orders_r.c_count AS c_count,
  COUNT(*) AS custdist
FROM (
  SELECT
    customer.c_custkey AS c_custkey,
    COUNT(orders.o_orderkey) AS c_count
  FROM customer AS customer
  LEFT OUTER JOIN orders AS orders
    ON customer.c_custkey = orders.o_custkey
    AND orders.o_comment NOT LIKE '%special%requests%'
  GROUP BY
    customer.c_custkey
) AS c_orders_r
GROUP BY
  c_orders_r.c_count
ORDER BY
  custdist DESC,
  c_count DESC
