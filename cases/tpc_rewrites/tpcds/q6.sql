-- tpcds/q6 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  a_r.ca_state AS state,
  COUNT(*) AS cnt
FROM customer_address AS a_r
JOIN customer AS c_r
  ON a_r.ca_address_sk = c_r.c_current_addr_sk
JOIN store_sales AS s_r
  ON c_r.c_customer_sk = s_r.ss_customer_sk
JOIN date_dim AS d_r
  ON s_r.ss_sold_date_sk = d_r.d_date_sk
JOIN item AS i_r
  ON s_r.ss_item_sk = i_r.i_item_sk
WHERE
  TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND d_r.d_month_seq = (
    SELECT DISTINCT
      (
        date_dim.d_month_seq
      ) AS d_month_seq
    FROM date_dim AS date_dim
    WHERE
      date_dim.d_year = 2000 AND date_dim.d_moy = 1
  )
  AND i_r.i_current_price > 1.2 * (
    SELECT
      AVG(j_r.i_current_price) AS _col_0
    FROM item AS j_r
    WHERE
      j_r.i_category = i_r.i_category
  )
GROUP BY
  a_r.ca_state
HAVING
  COUNT(*) >= 10
ORDER BY
  cnt,
  state
LIMIT 100
