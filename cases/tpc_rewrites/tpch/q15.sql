-- tpch/q15 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  supplier.s_suppkey AS s_suppkey,
  supplier.s_name AS s_name,
  supplier.s_address AS s_address,
  supplier.s_phone AS s_phone,
  revenue0_r.total_revenue AS total_revenue
FROM supplier AS supplier
JOIN (
  SELECT
    lineitem.l_suppkey AS supplier_no_r,
    SUM(lineitem.l_extendedprice * (
      1 - lineitem.l_discount
    )) AS total_revenue
  FROM lineitem AS lineitem
  WHERE
    lineitem.l_shipdate >= DATE '1996-01-01'
    AND lineitem.l_shipdate < DATE '1996-01-01' + INTERVAL '3' MONTH
  GROUP BY
    lineitem.l_suppkey
) AS revenue0_r
  ON supplier.s_suppkey = revenue0_r.supplier_no_r
WHERE
  TRUE
  AND revenue0_r.total_revenue = (
    SELECT
      MAX(revenue0_r.total_revenue) AS _col_0
    FROM (
      SELECT
        lineitem.l_suppkey AS supplier_no_r,
        SUM(lineitem.l_extendedprice * (
          1 - lineitem.l_discount
        )) AS total_revenue
      FROM lineitem AS lineitem
      WHERE
        lineitem.l_shipdate >= DATE '1996-01-01'
        AND lineitem.l_shipdate < DATE '1996-01-01' + INTERVAL '3' MONTH
      GROUP BY
        lineitem.l_suppkey
    ) AS revenue0_r
  )
ORDER BY
  s_suppkey
