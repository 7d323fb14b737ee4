-- tpch/q16 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
/* using default substitutions */
SELECT
  part.p_brand AS p_brand,
  part.p_type AS p_type,
  part.p_size AS p_size,
  COUNT(DISTINCT partsupp.ps_suppkey) AS supplier_cnt
FROM partsupp AS partsupp
JOIN part AS part
  ON (
    (
      part.p_partkey = partsupp.ps_partkey AND part.p_brand <> 'Brand#45'
    )
    AND part.p_type NOT LIKE 'MEDIUM POLISHED%'
  )
  AND part.p_size IN (49, 14, 23, 45, 19, 3, 36, 9)
WHERE
  TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND NOT partsupp.ps_suppkey IN (
    SELECT
      supplier.s_suppkey AS s_suppkey
    FROM supplier AS supplier
    WHERE
      supplier.s_comment LIKE '%Customer%Complaints%'
  )
GROUP BY
  part.p_brand,
  part.p_type,
  part.p_size
ORDER BY
  supplier_cnt DESC,
  p_brand,
  p_type,
  p_size
