-- tpch/q21 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
/* using default substitutions */
SELECT
  supplier.s_name AS s_name,
  COUNT(*) AS numwait
FROM supplier AS supplier
JOIN lineitem AS l1_r
  ON supplier.s_suppkey = l1_r.l_suppkey AND l1_r.l_receiptdate > l1_r.l_commitdate
JOIN orders AS orders
  ON orders.o_orderkey = l1_r.l_orderkey AND orders.o_orderstatus = 'F'
JOIN nation AS nation
  ON supplier.s_nationkey = nation.n_nationkey AND nation.n_name = 'SAUDI ARABIA'
WHERE
  TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND EXISTS(
    SELECT
      l2_r.l_orderkey AS l_orderkey,
      l2_r.l_partkey AS l_partkey,
      l2_r.l_suppkey AS l_suppkey,
      l2_r.l_linenumber AS l_linenumber,
      l2_r.l_quantity AS l_quantity,
      l2_r.l_extendedprice AS l_extendedprice,
      l2_r.l_discount AS l_discount,
      l2_r.l_tax AS l_tax,
      l2_r.l_returnflag AS l_returnflag,
      l2_r.l_linestatus AS l_linestatus,
      l2_r.l_shipdate AS l_shipdate,
      l2_r.l_commitdate AS l_commitdate,
      l2_r.l_receiptdate AS l_receiptdate,
      l2_r.l_shipinstruct AS l_shipinstruct,
      l2_r.l_shipmode AS l_shipmode,
      l2_r.l_comment AS l_comment
    FROM lineitem AS l2_r
    WHERE
      l2_r.l_orderkey = l1_r.l_orderkey AND l2_r.l_suppkey <> l1_r.l_suppkey
  )
  AND NOT EXISTS(
    SELECT
      l3_r.l_orderkey AS l_orderkey,
      l3_r.l_partkey AS l_partkey,
      l3_r.l_suppkey AS l_suppkey,
      l3_r.l_linenumber AS l_linenumber,
      l3_r.l_quantity AS l_quantity,
      l3_r.l_extendedprice AS l_extendedprice,
      l3_r.l_discount AS l_discount,
      l3_r.l_tax AS l_tax,
      l3_r.l_returnflag AS l_returnflag,
      l3_r.l_linestatus AS l_linestatus,
      l3_r.l_shipdate AS l_shipdate,
      l3_r.l_commitdate AS l_commitdate,
      l3_r.l_receiptdate AS l_receiptdate,
      l3_r.l_shipinstruct AS l_shipinstruct,
      l3_r.l_shipmode AS l_shipmode,
      l3_r.l_comment AS l_comment
    FROM lineitem AS l3_r
    WHERE
      l3_r.l_orderkey = l1_r.l_orderkey
      AND l3_r.l_suppkey <> l1_r.l_suppkey
      AND l3_r.l_receiptdate > l3_r.l_commitdate
  )
  AND TRUE
  AND TRUE
GROUP BY
  supplier.s_name
ORDER BY
  numwait DESC,
  s_name
LIMIT 100
