-- tpcds/q42 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  dt_r.d_year AS d_year,
  item.i_category_id AS i_category_id,
  item.i_category AS i_category,
  SUM(store_sales.ss_ext_sales_price) AS `sum(ss_ext_sales_price)`
FROM date_dim AS dt_r
JOIN store_sales AS store_sales
  ON dt_r.d_date_sk = store_sales.ss_sold_date_sk
JOIN item AS item
  ON store_sales.ss_item_sk = item.i_item_sk AND item.i_manager_id = 1
WHERE
  TRUE AND TRUE AND TRUE AND dt_r.d_moy = 11 AND dt_r.d_year = 2000
GROUP BY
  dt_r.d_year,
  item.i_category_id,
  item.i_category
ORDER BY
  `sum(ss_ext_sales_price)` DESC,
  d_year,
  i_category_id,
  i_category
LIMIT 100
