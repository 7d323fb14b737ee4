-- tpch/q11 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
/* using default substitutions */
SELECT
  partsupp.ps_partkey AS ps_partkey,
  SUM(partsupp.ps_supplycost * partsupp.ps_availqty) AS value
FROM partsupp AS partsupp
JOIN supplier AS supplier
  ON partsupp.ps_suppkey = supplier.s_suppkey
JOIN nation AS nation
  ON supplier.s_nationkey = nation.n_nationkey AND nation.n_name = 'GERMANY'
WHERE
  TRUE AND TRUE AND TRUE
GROUP BY
  partsupp.ps_partkey
HAVING
  SUM(partsupp.ps_supplycost * partsupp.ps_availqty) > (
    SELECT
      SUM(partsupp.ps_supplycost * partsupp.ps_availqty) * 0.0001000000 AS _col_0
    FROM partsupp AS partsupp
    JOIN supplier AS supplier
      ON partsupp.ps_suppkey = supplier.s_suppkey
    JOIN nation AS nation
      ON supplier.s_nationkey = nation.n_nationkey AND nation.n_name = 'GERMANY'
    WHERE
      TRUE AND TRUE AND TRUE
  )
ORDER BY
  value DESC
