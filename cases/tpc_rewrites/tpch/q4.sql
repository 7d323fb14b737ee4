-- tpch/q4 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
/* using default substitutions */
SELECT
  orders.o_orderpriority AS o_orderpriority,
  COUNT(*) AS order_count
FROM orders AS orders
WHERE
  orders.o_orderdate >= DATE '1993-07-01'
  AND orders.o_orderdate < DATE '1993-07-01' + INTERVAL '3' MONTH
  AND EXISTS(
    SELECT
      lineitem.l_orderkey AS l_orderkey,
      lineitem.l_partkey AS l_partkey,
      lineitem.l_suppkey AS l_suppkey,
      lineitem.l_linenumber AS l_linenumber,
      lineitem.l_quantity AS l_quantity,
      lineitem.l_extendedprice AS l_extendedprice,
      lineitem.l_discount AS l_discount,
      lineitem.l_tax AS l_tax,
      lineitem.l_returnflag AS l_returnflag,
      lineitem.l_linestatus AS l_linestatus,
      lineitem.l_shipdate AS l_shipdate,
      lineitem.l_commitdate AS l_commitdate,
      lineitem.l_receiptdate AS l_receiptdate,
      lineitem.l_shipinstruct AS l_shipinstruct,
      lineitem.l_shipmode AS l_shipmode,
      lineitem.l_comment AS l_comment
    FROM lineitem AS lineitem
    WHERE
      lineitem.l_orderkey = orders.o_orderkey
      AND lineitem.l_commitdate < lineitem.l_receiptdate
  )
GROUP BY
  orders.o_orderpriority
ORDER BY
  o_orderpriority
