-- tpch/q8 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
/* using default substitutions */
SELECT
  YEAR(orders.o_orderdate) AS o_year,
  SUM(
    CASE
      WHEN n2_r.n_name = 'BRAZIL'
      THEN lineitem.l_extendedprice * (
        1 - lineitem.l_discount
      )
      ELSE 0
    END
  ) / SUM(lineitem.l_extendedprice * (
    1 - lineitem.l_discount
  )) AS mkt_share
FROM part AS part
CROSS JOIN supplier AS supplier
JOIN lineitem AS lineitem
  ON part.p_partkey = lineitem.l_partkey AND supplier.s_suppkey = lineitem.l_suppkey
JOIN orders AS orders
  ON lineitem.l_orderkey = orders.o_orderkey
  AND orders.o_orderdate BETWEEN DATE '1995-01-01' AND DATE '1996-12-31'
JOIN customer AS customer
  ON orders.o_custkey = customer.c_custkey
JOIN nation AS n1_r
  ON customer.c_nationkey = n1_r.n_nationkey
JOIN nation AS n2_r
  ON supplier.s_nationkey = n2_r.n_nationkey
JOIN region AS region
  ON n1_r.n_regionkey = region.r_regionkey AND region.r_name = 'AMERICA'
WHERE
  TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND part.p_type = 'ECONOMY ANODIZED STEEL'
GROUP BY
  YEAR(orders.o_orderdate)
ORDER BY
  o_year
