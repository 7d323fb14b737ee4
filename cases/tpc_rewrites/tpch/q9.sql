-- tpch/q9 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
/* using default substitutions */
SELECT
  nation.n_name AS nation,
  YEAR(orders.o_orderdate) AS o_year,
  SUM(
    lineitem.l_extendedprice * (
      1 - lineitem.l_discount
    ) - partsupp.ps_supplycost * lineitem.l_quantity
  ) AS sum_profit
FROM part AS part
CROSS JOIN supplier AS supplier
JOIN lineitem AS lineitem
  ON supplier.s_suppkey = lineitem.l_suppkey AND part.p_partkey = lineitem.l_partkey
JOIN partsupp AS partsupp
  ON partsupp.ps_suppkey = lineitem.l_suppkey
  AND partsupp.ps_partkey = lineitem.l_partkey
JOIN orders AS orders
  ON orders.o_orderkey = lineitem.l_orderkey
JOIN nation AS nation
  ON supplier.s_nationkey = nation.n_nationkey
WHERE
  TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND part.p_name LIKE '%green%'
GROUP BY
  nation.n_name,
  YEAR(orders.o_orderdate)
ORDER BY
  nation,
  o_year DESC
