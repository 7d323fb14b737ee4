-- tpcds/q25 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  item.i_item_id AS i_item_id,
  item.i_item_desc AS i_item_desc,
  store.s_store_id AS s_store_id,
  store.s_store_name AS s_store_name,
  SUM(store_sales.ss_net_profit) AS store_sales_profit,
  SUM(store_returns.sr_net_loss) AS store_returns_loss,
  SUM(catalog_sales.cs_net_profit) AS catalog_sales_profit
FROM store_sales AS store_sales
JOIN store_returns AS store_returns
  ON (
    store_sales.ss_customer_sk = store_returns.sr_customer_sk
    AND store_sales.ss_item_sk = store_returns.sr_item_sk
  )
  AND store_sales.ss_ticket_number = store_returns.sr_ticket_number
JOIN catalog_sales AS catalog_sales
  ON store_returns.sr_customer_sk = catalog_sales.cs_bill_customer_sk
  AND store_returns.sr_item_sk = catalog_sales.cs_item_sk
JOIN date_dim AS d1_r
  ON (
    d1_r.d_moy = 4 AND d1_r.d_year = 2001
  )
  AND d1_r.d_date_sk = store_sales.ss_sold_date_sk
JOIN date_dim AS d2_r
  ON (
    store_returns.sr_returned_date_sk = d2_r.d_date_sk
    AND d2_r.d_moy BETWEEN 4 AND 10
  )
  AND d2_r.d_year = 2001
JOIN date_dim AS d3_r
  ON (
    catalog_sales.cs_sold_date_sk = d3_r.d_date_sk AND d3_r.d_moy BETWEEN 4 AND 10
  )
  AND d3_r.d_year = 2001
JOIN store AS store
  ON store.s_store_sk = store_sales.ss_store_sk
JOIN item AS item
  ON item.i_item_sk = store_sales.ss_item_sk
WHERE
  TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
GROUP BY
  item.i_item_id,
  item.i_item_desc,
  store.s_store_id,
  store.s_store_name
ORDER BY
  i_item_id,
  i_item_desc,
  s_store_id,
  s_store_name
LIMIT 100
