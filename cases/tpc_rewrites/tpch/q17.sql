-- tpch/q17 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
/* using default substitutions */
SELECT
  SUM(lineitem.l_extendedprice) / 7.0 AS avg_yearly
FROM lineitem AS lineitem
JOIN part AS part
  ON (
    part.p_partkey = lineitem.l_partkey AND part.p_brand = 'Brand#23'
  )
  AND part.p_container = 'MED BOX'
WHERE
  TRUE
  AND TRUE
  AND TRUE
  AND lineitem.l_quantity < (
    SELECT
      0.2 * AVG(lineitem.l_quantity) AS _col_0
    FROM lineitem AS lineitem
    WHERE
      lineitem.l_partkey = part.p_partkey
  )
