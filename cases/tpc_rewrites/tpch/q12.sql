-- tpch/q12 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
/* using default substitutions */
SELECT
  lineitem.l_shipmode AS l_shipmode,
  SUM(
    CASE
      WHEN orders.o_orderpriority = '1-URGENT' OR orders.o_orderpriority = '2-HIGH'
      THEN 1
      ELSE 0
    END
  ) AS high_line_count,
  SUM(
    CASE
      WHEN orders.o_orderpriority <> '1-URGENT' AND orders.o_orderpriority <> '2-HIGH'
      THEN 1
      ELSE 0
    END
  ) AS low_line_count
FROM orders AS orders
JOIN lineitem AS lineitem
  ON (
    (
      (
        (
          orders.o_orderkey = lineitem.l_orderkey
          AND lineitem.l_shipmode IN ('MAIL', 'SHIP')
        )
        AND lineitem.l_commitdate < lineitem.l_receiptdate
      )
      AND lineitem.l_shipdate < lineitem.l_commitdate
    )
    AND lineitem.l_receiptdate >= DATE '1994-01-01'
  )
  AND lineitem.l_receiptdate < DATE '1994-01-01' + INTERVAL '1' YEAR
WHERE
  TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE
GROUP BY
  lineitem.l_shipmode
ORDER BY
  l_shipmode
