-- tpcds/q76 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  foo_r.channel AS channel,
  foo_r.col_name AS col_name,
  foo_r.d_year AS d_year,
  foo_r.d_qoy AS d_qoy,
  foo_r.i_category AS i_category,
  COUNT(*) AS sales_cnt,
  SUM(foo_r.ext_sales_price_r) AS sales_amt
FROM (
  SELECT
    'store' AS channel,
    store_sales.ss_store_sk AS col_name,
    date_dim.d_year AS d_year,
    date_dim.d_qoy AS d_qoy,
    item.i_category AS i_category,
    store_sales.ss_ext_sales_price AS ext_sales_price_r
  FROM store_sales AS store_sales
  JOIN item AS item
    ON store_sales.ss_item_sk = item.i_item_sk
  JOIN date_dim AS date_dim
    ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
  WHERE
    store_sales.ss_store_sk IS NULL AND TRUE AND TRUE
  UNION ALL
  SELECT
    'web' AS channel,
    web_sales.ws_ship_customer_sk AS col_name,
    date_dim.d_year AS d_year,
    date_dim.d_qoy AS d_qoy,
    item.i_category AS i_category,
    web_sales.ws_ext_sales_price AS ext_sales_price_r
  FROM web_sales AS web_sales
  JOIN item AS item
    ON web_sales.ws_item_sk = item.i_item_sk
  JOIN date_dim AS date_dim
    ON web_sales.ws_sold_date_sk = date_dim.d_date_sk
  WHERE
    web_sales.ws_ship_customer_sk IS NULL AND TRUE AND TRUE
  UNION ALL
  SELECT
    'catalog' AS channel,
    catalog_sales.cs_ship_addr_sk AS col_name,
    date_dim.d_year AS d_year,
    date_dim.d_qoy AS d_qoy,
    item.i_category AS i_category,
    catalog_sales.cs_ext_sales_price AS ext_sales_price_r
  FROM catalog_sales AS catalog_sales
  JOIN item AS item
    ON catalog_sales.cs_item_sk = item.i_item_sk
  JOIN date_dim AS date_dim
    ON catalog_sales.cs_sold_date_sk = date_dim.d_date_sk
  WHERE
    catalog_sales.cs_ship_addr_sk IS NULL AND TRUE AND TRUE
) AS foo_r
GROUP BY
  foo_r.channel,
  foo_r.col_name,
  foo_r.d_year,
  foo_r.d_qoy,
  foo_r.i_category
ORDER BY
  channel,
  col_name,
  d_year,
  d_qoy,
  i_category
LIMIT 100
