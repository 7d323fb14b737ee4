-- tpcds/q92 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  SUM(web_sales.ws_ext_discount_amt) AS `Excess Discount Amount `
FROM web_sales AS web_sales
JOIN item AS item
  ON item.i_manufact_id = 350 AND item.i_item_sk = web_sales.ws_item_sk
JOIN date_dim AS date_dim
  ON date_dim.d_date BETWEEN '2000-01-27' AND (
    CAST('2000-01-27' AS DATE) + INTERVAL '90' DAYS
  )
  AND date_dim.d_date_sk = web_sales.ws_sold_date_sk
WHERE
  TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND web_sales.ws_ext_discount_amt > (
    SELECT
      1.3 * AVG(web_sales.ws_ext_discount_amt) AS _col_0
    FROM web_sales AS web_sales
    JOIN date_dim AS date_dim
      ON date_dim.d_date BETWEEN '2000-01-27' AND (
        CAST('2000-01-27' AS DATE) + INTERVAL '90' DAYS
      )
      AND date_dim.d_date_sk = web_sales.ws_sold_date_sk
    WHERE
      web_sales.ws_item_sk = item.i_item_sk AND TRUE AND TRUE
  )
ORDER BY
  SUM(web_sales.ws_ext_discount_amt)
LIMIT 100
