-- tpcds/q95 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  COUNT(DISTINCT ws1_r.ws_order_number) AS `order count `,
  SUM(ws1_r.ws_ext_ship_cost) AS `total shipping cost `,
  SUM(ws1_r.ws_net_profit) AS `total net profit `
FROM web_sales AS ws1_r
JOIN date_dim AS date_dim
  ON date_dim.d_date BETWEEN '1999-02-01' AND (
    CAST('1999-02-01' AS DATE) + INTERVAL '60' DAY
  )
  AND ws1_r.ws_ship_date_sk = date_dim.d_date_sk
JOIN customer_address AS customer_address
  ON ws1_r.ws_ship_addr_sk = customer_address.ca_address_sk
  AND customer_address.ca_state = 'IL'
JOIN web_site AS web_site
  ON ws1_r.ws_web_site_sk = web_site.web_site_sk AND web_site.web_company_name = 'pri'
WHERE
  TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND ws1_r.ws_order_number IN (
    SELECT
      ws1_r.ws_order_number AS ws_order_number
    FROM web_sales AS ws1_r
    JOIN web_sales AS ws2_r
      ON ws1_r.ws_order_number = ws2_r.ws_order_number
      AND ws1_r.ws_warehouse_sk <> ws2_r.ws_warehouse_sk
    WHERE
      TRUE AND TRUE
  )
  AND ws1_r.ws_order_number IN (
    SELECT
      web_returns.wr_order_number AS wr_order_number
    FROM web_returns AS web_returns
    JOIN (
      SELECT
        ws1_r.ws_order_number AS ws_order_number,
        ws1_r.ws_warehouse_sk AS wh1_r,
        ws2_r.ws_warehouse_sk AS wh2_r
      FROM web_sales AS ws1_r
      JOIN web_sales AS ws2_r
        ON ws1_r.ws_order_number = ws2_r.ws_order_number
        AND ws1_r.ws_warehouse_sk <> ws2_r.ws_warehouse_sk
      WHERE
        TRUE AND TRUE
    ) AS ws_wh_r
      ON web_returns.wr_order_number = ws_wh_r.ws_order_number
    WHERE
      TRUE
  )
ORDER BY
  COUNT(DISTINCT ws1_r.ws_order_number)
LIMIT 100
