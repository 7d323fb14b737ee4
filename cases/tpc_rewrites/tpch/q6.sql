-- tpch/q6 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
/* using default substitutions */
SELECT
  SUM(lineitem.l_extendedprice * lineitem.l_discount) AS revenue
FROM lineitem AS lineitem
WHERE
  lineitem.l_shipdate >= DATE '1994-01-01'
  AND lineitem.l_shipdate < DATE '1994-01-01' + INTERVAL '1' YEAR
  AND lineitem.l_discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01
  AND lineitem.l_quantity < 24
