-- tpcds/q78 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  ROUND(ss_r.ss_qty_r / (
    COALESCE(ws_r.ws_qty_r + cs_r.cs_qty_r, 1)
  ), 2) AS ratio,
  ss_r.ss_qty_r AS store_qty,
  ss_r.ss_wc_r AS store_wholesale_cost,
  ss_r.ss_sp_r AS store_sales_price,
  COALESCE(ws_r.ws_qty_r, 0) + COALESCE(cs_r.cs_qty_r, 0) AS other_chan_qty,
  COALESCE(ws_r.ws_wc_r, 0) + COALESCE(cs_r.cs_wc_r, 0) AS other_chan_wholesale_cost,
  COALESCE(ws_r.ws_sp_r, 0) + COALESCE(cs_r.cs_sp_r, 0) AS other_chan_sales_price
FROM (
  SELECT
    date_dim.d_year AS ss_sold_year_r,
    store_sales.ss_item_sk AS ss_item_sk,
    store_sales.ss_customer_sk AS ss_customer_sk,
    SUM(store_sales.ss_quantity) AS ss_qty_r,
    SUM(store_sales.ss_wholesale_cost) AS ss_wc_r,
    SUM(store_sales.ss_sales_price) AS ss_sp_r
  FROM store_sales AS store_sales
  LEFT JOIN store_returns AS store_returns
    ON store_returns.sr_ticket_number = store_sales.ss_ticket_number
    AND store_sales.ss_item_sk = store_returns.sr_item_sk
  JOIN date_dim AS date_dim
    ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
  WHERE
    store_returns.sr_ticket_number IS NULL
  GROUP BY
    date_dim.d_year,
    store_sales.ss_item_sk,
    store_sales.ss_customer_sk
) AS ss_r
LEFT JOIN (
  SELECT
    date_dim.d_year AS ws_sold_year_r,
    web_sales.ws_item_sk AS ws_item_sk,
    web_sales.ws_bill_customer_sk AS ws_customer_sk_r,
    SUM(web_sales.ws_quantity) AS ws_qty_r,
    SUM(web_sales.ws_wholesale_cost) AS ws_wc_r,
    SUM(web_sales.ws_sales_price) AS ws_sp_r
  FROM web_sales AS web_sales
  LEFT JOIN web_returns AS web_returns
    ON web_returns.wr_order_number = web_sales.ws_order_number
    AND web_sales.ws_item_sk = web_returns.wr_item_sk
  JOIN date_dim AS date_dim
    ON web_sales.ws_sold_date_sk = date_dim.d_date_sk
  WHERE
    web_returns.wr_order_number IS NULL
  GROUP BY
    date_dim.d_year,
    web_sales.ws_item_sk,
    web_sales.ws_bill_customer_sk
) AS ws_r
  ON (
    ws_r.ws_sold_year_r = ss_r.ss_sold_year_r
    AND ws_r.ws_item_sk = ss_r.ss_item_sk
    AND ws_r.ws_customer_sk_r = ss_r.ss_customer_sk
  )
LEFT JOIN (
  SELECT
    date_dim.d_year AS cs_sold_year_r,
    catalog_sales.cs_item_sk AS cs_item_sk,
    catalog_sales.cs_bill_customer_sk AS cs_customer_sk_r,
    SUM(catalog_sales.cs_quantity) AS cs_qty_r,
    SUM(catalog_sales.cs_wholesale_cost) AS cs_wc_r,
    SUM(catalog_sales.cs_sales_price) AS cs_sp_r
  FROM catalog_sales AS catalog_sales
  LEFT JOIN catalog_returns AS catalog_returns
    ON catalog_returns.cr_order_number = catalog_sales.cs_order_number
    AND catalog_sales.cs_item_sk = catalog_returns.cr_item_sk
  JOIN date_dim AS date_dim
    ON catalog_sales.cs_sold_date_sk = date_dim.d_date_sk
  WHERE
    catalog_returns.cr_order_number IS NULL
  GROUP BY
    date_dim.d_year,
    catalog_sales.cs_item_sk,
    catalog_sales.cs_bill_customer_sk
) AS cs_r
  ON (
    cs_r.cs_sold_year_r = ss_r.ss_sold_year_r
    AND cs_r.cs_item_sk = ss_r.ss_item_sk
    AND cs_r.cs_customer_sk_r = ss_r.ss_customer_sk
  )
WHERE
  COALESCE(ws_r.ws_qty_r, 0) > 0
  AND COALESCE(cs_r.cs_qty_r, 0) > 0
  AND ss_r.ss_sold_year_r = 2000
ORDER BY
  ratio,
  ss_r.ss_qty_r DESC,
  ss_r.ss_wc_r DESC,
  ss_r.ss_sp_r DESC,
  other_chan_qty,
  other_chan_wholesale_cost,
  other_chan_sales_price,
  ROUND(ss_r.ss_qty_r / (
    COALESCE(ws_r.ws_qty_r + cs_r.cs_qty_r, 1)
  ), 2)
LIMIT 100
