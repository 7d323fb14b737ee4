-- tpch/q2 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
/* using default substitutions */
SELECT
  supplier.s_acctbal AS s_acctbal,
  supplier.s_name AS s_name,
  nation.n_name AS n_name,
  part.p_partkey AS p_partkey,
  part.p_mfgr AS p_mfgr,
  supplier.s_address AS s_address,
  supplier.s_phone AS s_phone,
  supplier.s_comment AS s_comment
FROM part AS part
CROSS JOIN supplier AS supplier
JOIN partsupp AS partsupp
  ON part.p_partkey = partsupp.ps_partkey AND supplier.s_suppkey = partsupp.ps_suppkey
JOIN nation AS nation
  ON supplier.s_nationkey = nation.n_nationkey
JOIN region AS region
  ON nation.n_regionkey = region.r_regionkey AND region.r_name = 'EUROPE'
WHERE
  TRUE
  AND TRUE
  AND part.p_size = 15
  AND part.p_type LIKE '%BRASS'
  AND TRUE
  AND TRUE
  AND TRUE
  AND partsupp.ps_supplycost = (
    SELECT
      MIN(partsupp.ps_supplycost) AS _col_0
    FROM partsupp AS partsupp
    JOIN supplier AS supplier
      ON supplier.s_suppkey = partsupp.ps_suppkey
    JOIN nation AS nation
      ON supplier.s_nationkey = nation.n_nationkey
    JOIN region AS region
      ON nation.n_regionkey = region.r_regionkey AND region.r_name = 'EUROPE'
    WHERE
      part.p_partkey = partsupp.ps_partkey AND TRUE AND TRUE AND TRUE AND TRUE
  )
ORDER BY
  s_acctbal DESC,
  n_name,
  s_name,
  p_partkey
LIMIT 100
