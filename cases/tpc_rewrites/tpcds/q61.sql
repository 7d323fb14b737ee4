-- tpcds/q61 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  promotional_sales_r.promotions AS promotions,
  all_sales_r.total AS total,
  CAST(promotional_sales_r.promotions AS DECIMAL(15, 4)) / CAST(all_sales_r.total AS DECIMAL(15, 4)) * 100 AS `((CAST(promotions AS DECIMAL(15,4)) / CAST(total AS DECIMAL(15,4))) * 100)`
FROM (
  SELECT
    SUM(store_sales.ss_ext_sales_price) AS promotions
  FROM store_sales AS store_sales
  JOIN store AS store
    ON store_sales.ss_store_sk = store.s_store_sk AND store.s_gmt_offset = -5
  JOIN promotion AS promotion
    ON store_sales.ss_promo_sk = promotion.p_promo_sk
    AND (
      promotion.p_channel_dmail = 'Y'
      OR promotion.p_channel_email = 'Y'
      OR promotion.p_channel_tv = 'Y'
    )
  JOIN date_dim AS date_dim
    ON (
      store_sales.ss_sold_date_sk = date_dim.d_date_sk AND date_dim.d_year = 1998
    )
    AND date_dim.d_moy = 11
  JOIN customer AS customer
    ON store_sales.ss_customer_sk = customer.c_customer_sk
  JOIN customer_address AS customer_address
    ON customer_address.ca_address_sk = customer.c_current_addr_sk
    AND customer_address.ca_gmt_offset = -5
  JOIN item AS item
    ON store_sales.ss_item_sk = item.i_item_sk AND item.i_category = 'Jewelry'
  WHERE
    TRUE
    AND TRUE
    AND TRUE
    AND TRUE
    AND TRUE
    AND TRUE
    AND TRUE
    AND TRUE
    AND (
      TRUE
    )
    AND TRUE
    AND TRUE
    AND TRUE
) AS promotional_sales_r
CROSS JOIN (
  SELECT
    SUM(store_sales.ss_ext_sales_price) AS total
  FROM store_sales AS store_sales
  JOIN store AS store
    ON store_sales.ss_store_sk = store.s_store_sk AND store.s_gmt_offset = -5
  JOIN date_dim AS date_dim
    ON (
      store_sales.ss_sold_date_sk = date_dim.d_date_sk AND date_dim.d_year = 1998
    )
    AND date_dim.d_moy = 11
  JOIN customer AS customer
    ON store_sales.ss_customer_sk = customer.c_customer_sk
  JOIN customer_address AS customer_address
    ON customer_address.ca_address_sk = customer.c_current_addr_sk
    AND customer_address.ca_gmt_offset = -5
  JOIN item AS item
    ON store_sales.ss_item_sk = item.i_item_sk AND item.i_category = 'Jewelry'
  WHERE
    TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE
) AS all_sales_r
ORDER BY
  promotions,
  total
LIMIT 100
