-- tpcds/q71 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  item.i_brand_id AS brand_id,
  item.i_brand AS brand,
  time_dim.t_hour AS t_hour,
  time_dim.t_minute AS t_minute,
  SUM(tmp_r.ext_price) AS ext_price
FROM item AS item
JOIN (
  SELECT
    web_sales.ws_ext_sales_price AS ext_price,
    web_sales.ws_sold_date_sk AS sold_date_sk_r,
    web_sales.ws_item_sk AS sold_item_sk_r,
    web_sales.ws_sold_time_sk AS time_sk_r
  FROM web_sales AS web_sales
  JOIN date_dim AS date_dim
    ON (
      date_dim.d_date_sk = web_sales.ws_sold_date_sk AND date_dim.d_moy = 11
    )
    AND date_dim.d_year = 1999
  WHERE
    TRUE AND TRUE AND TRUE
  UNION ALL
  SELECT
    catalog_sales.cs_ext_sales_price AS ext_price,
    catalog_sales.cs_sold_date_sk AS sold_date_sk_r,
    catalog_sales.cs_item_sk AS sold_item_sk_r,
    catalog_sales.cs_sold_time_sk AS time_sk_r
  FROM catalog_sales AS catalog_sales
  JOIN date_dim AS date_dim
    ON (
      date_dim.d_date_sk = catalog_sales.cs_sold_date_sk AND date_dim.d_moy = 11
    )
    AND date_dim.d_year = 1999
  WHERE
    TRUE AND TRUE AND TRUE
  UNION ALL
  SELECT
    store_sales.ss_ext_sales_price AS ext_price,
    store_sales.ss_sold_date_sk AS sold_date_sk_r,
    store_sales.ss_item_sk AS sold_item_sk_r,
    store_sales.ss_sold_time_sk AS time_sk_r
  FROM store_sales AS store_sales
  JOIN date_dim AS date_dim
    ON (
      date_dim.d_date_sk = store_sales.ss_sold_date_sk AND date_dim.d_moy = 11
    )
    AND date_dim.d_year = 1999
  WHERE
    TRUE AND TRUE AND TRUE
) AS tmp_r
  ON tmp_r.sold_item_sk_r = item.i_item_sk
JOIN time_dim AS time_dim
  ON tmp_r.time_sk_r = time_dim.t_time_sk
  AND (
    time_dim.t_meal_time = 'breakfast' OR time_dim.t_meal_time = 'dinner'
  )
WHERE
  TRUE AND item.i_manager_id = 1 AND TRUE AND (
    TRUE
  )
GROUP BY
  item.i_brand,
  item.i_brand_id,
  time_dim.t_hour,
  time_dim.t_minute
ORDER BY
  ext_price DESC,
  brand_id
