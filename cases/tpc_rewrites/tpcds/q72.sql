-- tpcds/q72 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  item.i_item_desc AS i_item_desc,
  warehouse.w_warehouse_name AS w_warehouse_name,
  d1_r.d_week_seq AS d_week_seq,
  COUNT(CASE WHEN promotion.p_promo_sk IS NULL THEN 1 ELSE 0 END) AS no_promo,
  COUNT(CASE WHEN promotion.p_promo_sk IS NOT NULL THEN 1 ELSE 0 END) AS promo,
  COUNT(*) AS total_cnt
FROM catalog_sales AS catalog_sales
JOIN inventory AS inventory
  ON (
    catalog_sales.cs_item_sk = inventory.inv_item_sk
  )
  AND inventory.inv_quantity_on_hand < catalog_sales.cs_quantity
JOIN warehouse AS warehouse
  ON (
    warehouse.w_warehouse_sk = inventory.inv_warehouse_sk
  )
JOIN item AS item
  ON (
    item.i_item_sk = catalog_sales.cs_item_sk
  )
JOIN customer_demographics AS customer_demographics
  ON (
    catalog_sales.cs_bill_cdemo_sk = customer_demographics.cd_demo_sk
  )
  AND customer_demographics.cd_marital_status = 'D'
JOIN household_demographics AS household_demographics
  ON (
    (
      catalog_sales.cs_bill_hdemo_sk = household_demographics.hd_demo_sk
    )
    AND household_demographics.hd_buy_potential = '>10000'
  )
  AND household_demographics.hd_buy_potential = '>10000'
JOIN date_dim AS d1_r
  ON (
    (
      catalog_sales.cs_sold_date_sk = d1_r.d_date_sk
    ) AND d1_r.d_year = 1999
  )
  AND d1_r.d_year = 1999
JOIN date_dim AS d2_r
  ON (
    inventory.inv_date_sk = d2_r.d_date_sk
  )
  AND d1_r.d_week_seq = d2_r.d_week_seq
JOIN date_dim AS d3_r
  ON (
    catalog_sales.cs_ship_date_sk = d3_r.d_date_sk
  )
  AND d3_r.d_date > (
    CAST(d1_r.d_date AS DATE) + INTERVAL '5' DAYS
  )
LEFT OUTER JOIN promotion AS promotion
  ON (
    catalog_sales.cs_promo_sk = promotion.p_promo_sk
  )
LEFT OUTER JOIN catalog_returns AS catalog_returns
  ON (
    catalog_returns.cr_item_sk = catalog_sales.cs_item_sk
    AND catalog_returns.cr_order_number = catalog_sales.cs_order_number
  )
WHERE
  TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE
GROUP BY
  item.i_item_desc,
  warehouse.w_warehouse_name,
  d1_r.d_week_seq
ORDER BY
  total_cnt DESC,
  i_item_desc,
  w_warehouse_name,
  d_week_seq
LIMIT 100
