-- tpch/q3 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
/* using default substitutions */
SELECT
  lineitem.l_orderkey AS l_orderkey,
  SUM(lineitem.l_extendedprice * (
    1 - lineitem.l_discount
  )) AS revenue,
  orders.o_orderdate AS o_orderdate,
  orders.o_shippriority AS o_shippriority
FROM customer AS customer
JOIN orders AS orders
  ON customer.c_custkey = orders.o_custkey
  AND orders.o_orderdate < DATE '1995-03-15'
JOIN lineitem AS lineitem
  ON lineitem.l_orderkey = orders.o_orderkey
  AND lineitem.l_shipdate > DATE '1995-03-15'
WHERE
  customer.c_mktsegment = 'BUILDING' AND TRUE AND TRUE AND TRUE AND TRUE
GROUP BY
  lineitem.l_orderkey,
  orders.o_orderdate,
  orders.o_shippriority
ORDER BY
  revenue DESC,
  o_orderdate
LIMIT 10
