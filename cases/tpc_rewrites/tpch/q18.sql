-- tpch/q18 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
/* using default substitutions */
SELECT
  customer.c_name AS c_name,
  customer.c_custkey AS c_custkey,
  orders.o_orderkey AS o_orderkey,
  orders.o_orderdate AS o_orderdate,
  orders.o_totalprice AS o_totalprice,
  SUM(lineitem.l_quantity) AS `sum(l_quantity)`
FROM customer AS customer
JOIN orders AS orders
  ON customer.c_custkey = orders.o_custkey
JOIN lineitem AS lineitem
  ON orders.o_orderkey = lineitem.l_orderkey
WHERE
  orders.o_orderkey IN (
    SELECT
      lineitem.l_orderkey AS l_orderkey
    FROM lineitem AS lineitem
    GROUP BY
      lineitem.l_orderkey
    HAVING
      SUM(lineitem.l_quantity) > 300
  )
  AND TRUE
  AND TRUE
GROUP BY
  customer.c_name,
  customer.c_custkey,
  orders.o_orderkey,
  orders.o_orderdate,
  orders.o_totalprice
ORDER BY
  o_totalprice DESC,
  o_orderdate
LIMIT 100
