-- tpch/q7 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
/* using default substitutions */
SELECT
  n1_r.n_name AS supp_nation,
  n2_r.n_name AS cust_nation,
  YEAR(lineitem.l_shipdate) AS l_year,
  SUM(lineitem.l_extendedprice * (
    1 - lineitem.l_discount
  )) AS revenue
FROM supplier AS supplier
JOIN lineitem AS lineitem
  ON supplier.s_suppkey = lineitem.l_suppkey
  AND lineitem.l_shipdate BETWEEN DATE '1995-01-01' AND DATE '1996-12-31'
JOIN orders AS orders
  ON orders.o_orderkey = lineitem.l_orderkey
JOIN customer AS customer
  ON customer.c_custkey = orders.o_custkey
JOIN nation AS n1_r
  ON supplier.s_nationkey = n1_r.n_nationkey
JOIN nation AS n2_r
  ON customer.c_nationkey = n2_r.n_nationkey
  AND (
    (
      n1_r.n_name = 'FRANCE' AND n2_r.n_name = 'GERMANY'
    )
    OR (
      n1_r.n_name = 'GERMANY' AND n2_r.n_name = 'FRANCE'
    )
  )
WHERE
  TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND (
    TRUE
  ) AND TRUE
GROUP BY
  n1_r.n_name,
  n2_r.n_name,
  YEAR(lineitem.l_shipdate)
ORDER BY
  supp_nation,
  cust_nation,
  l_year
