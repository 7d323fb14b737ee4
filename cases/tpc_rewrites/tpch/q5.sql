-- tpch/q5 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
/* using default substitutions */
SELECT
  nation.n_name AS n_name,
  SUM(lineitem.l_extendedprice * (
    1 - lineitem.l_discount
  )) AS revenue
FROM customer AS customer
JOIN orders AS orders
  ON (
    customer.c_custkey = orders.o_custkey
    AND orders.o_orderdate >= DATE '1994-01-01'
  )
  AND orders.o_orderdate < DATE '1994-01-01' + INTERVAL '1' YEAR
JOIN lineitem AS lineitem
  ON lineitem.l_orderkey = orders.o_orderkey
JOIN supplier AS supplier
  ON lineitem.l_suppkey = supplier.s_suppkey
  AND customer.c_nationkey = supplier.s_nationkey
JOIN nation AS nation
  ON supplier.s_nationkey = nation.n_nationkey
JOIN region AS region
  ON nation.n_regionkey = region.r_regionkey AND region.r_name = 'ASIA'
WHERE
  TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE
GROUP BY
  nation.n_name
ORDER BY
  revenue DESC
