-- tpch/q20 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
/* using default substitutions */
SELECT
  supplier.s_name AS s_name,
  supplier.s_address AS s_address
FROM supplier AS supplier
JOIN nation AS nation
  ON supplier.s_nationkey = nation.n_nationkey AND nation.n_name = 'CANADA'
WHERE
  supplier.s_suppkey IN (
    SELECT
      partsupp.ps_suppkey AS ps_suppkey
    FROM partsupp AS partsupp
    WHERE
      partsupp.ps_partkey IN (
        SELECT
          part.p_partkey AS p_partkey
        FROM part AS part
        WHERE
          part.p_name LIKE 'forest%'
      )
      AND partsupp.ps_availqty > (
        SELECT
          0.5 * SUM(lineitem.l_quantity) AS _col_0
        FROM lineitem AS lineitem
        WHERE
          lineitem.l_partkey = partsupp.ps_partkey
          AND lineitem.l_suppkey = partsupp.ps_suppkey
          AND lineitem.l_shipdate >= DATE '1994-01-01'
          AND lineitem.l_shipdate < DATE '1994-01-01' + INTERVAL '1' YEAR
      )
  )
  AND TRUE
  AND TRUE
ORDER BY
  s_name
