-- tpcds/q3 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  dt_r.d_year AS d_year,
  item.i_brand_id AS brand_id,
  item.i_brand AS brand,
  SUM(store_sales.ss_ext_sales_price) AS sum_agg
FROM date_dim AS dt_r
JOIN store_sales AS store_sales
  ON dt_r.d_date_sk = store_sales.ss_sold_date_sk
JOIN item AS item
  ON store_sales.ss_item_sk = item.i_item_sk AND item.i_manufact_id = 128
WHERE
  TRUE AND TRUE AND TRUE AND dt_r.d_moy = 11
GROUP BY
  dt_r.d_year,
  item.i_brand,
  item.i_brand_id
ORDER BY
  d_year,
  sum_agg DESC,
  brand_id
LIMIT 100
