-- tpcds/q96 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  COUNT(*) AS `count(1)`
FROM store_sales AS store_sales
JOIN household_demographics AS household_demographics
  ON store_sales.ss_hdemo_sk = household_demographics.hd_demo_sk
  AND household_demographics.hd_dep_count = 7
JOIN time_dim AS time_dim
  ON (
    store_sales.ss_sold_time_sk = time_dim.t_time_sk AND time_dim.t_hour = 20
  )
  AND time_dim.t_minute >= 30
JOIN store AS store
  ON store_sales.ss_store_sk = store.s_store_sk AND store.s_store_name = 'ese'
WHERE
  TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE
ORDER BY
  COUNT(*)
LIMIT 100
