-- tpcds/q28 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  b1_r.b1_lp AS B1_LP,
  b1_r.b1_cnt AS B1_CNT,
  b1_r.b1_cntd AS B1_CNTD,
  b2_r.b2_lp AS B2_LP,
  b2_r.b2_cnt AS B2_CNT,
  b2_r.b2_cntd AS B2_CNTD,
  b3_r.b3_lp AS B3_LP,
  b3_r.b3_cnt AS B3_CNT,
  b3_r.b3_cntd AS B3_CNTD,
  b4_r.b4_lp AS B4_LP,
  b4_r.b4_cnt AS B4_CNT,
  b4_r.b4_cntd AS B4_CNTD,
  b5_r.b5_lp AS B5_LP,
  b5_r.b5_cnt AS B5_CNT,
  b5_r.b5_cntd AS B5_CNTD,
  b6_r.b6_lp AS B6_LP,
  b6_r.b6_cnt AS B6_CNT,
  b6_r.b6_cntd AS B6_CNTD
FROM (
  SELECT
    AVG(store_sales.ss_list_price) AS b1_lp,
    COUNT(store_sales.ss_list_price) AS b1_cnt,
    COUNT(DISTINCT store_sales.ss_list_price) AS b1_cntd
  FROM store_sales AS store_sales
  WHERE
    store_sales.ss_quantity BETWEEN 0 AND 5
    AND (
      store_sales.ss_list_price BETWEEN 8 AND 8 + 10
      OR store_sales.ss_coupon_amt BETWEEN 459 AND 459 + 1000
      OR store_sales.ss_wholesale_cost BETWEEN 57 AND 57 + 20
    )
) AS b1_r
CROSS JOIN (
  SELECT
    AVG(store_sales.ss_list_price) AS b2_lp,
    COUNT(store_sales.ss_list_price) AS b2_cnt,
    COUNT(DISTINCT store_sales.ss_list_price) AS b2_cntd
  FROM store_sales AS store_sales
  WHERE
    store_sales.ss_quantity BETWEEN 6 AND 10
    AND (
      store_sales.ss_list_price BETWEEN 90 AND 90 + 10
      OR store_sales.ss_coupon_amt BETWEEN 2323 AND 2323 + 1000
      OR store_sales.ss_wholesale_cost BETWEEN 31 AND 31 + 20
    )
) AS b2_r
CROSS JOIN (
  SELECT
    AVG(store_sales.ss_list_price) AS b3_lp,
    COUNT(store_sales.ss_list_price) AS b3_cnt,
    COUNT(DISTINCT store_sales.ss_list_price) AS b3_cntd
  FROM store_sales AS store_sales
  WHERE
    store_sales.ss_quantity BETWEEN 11 AND 15
    AND (
      store_sales.ss_list_price BETWEEN 142 AND 142 + 10
      OR store_sales.ss_coupon_amt BETWEEN 12214 AND 12214 + 1000
      OR store_sales.ss_wholesale_cost BETWEEN 79 AND 79 + 20
    )
) AS b3_r
CROSS JOIN (
  SELECT
    AVG(store_sales.ss_list_price) AS b4_lp,
    COUNT(store_sales.ss_list_price) AS b4_cnt,
    COUNT(DISTINCT store_sales.ss_list_price) AS b4_cntd
  FROM store_sales AS store_sales
  WHERE
    store_sales.ss_quantity BETWEEN 16 AND 20
    AND (
      store_sales.ss_list_price BETWEEN 135 AND 135 + 10
      OR store_sales.ss_coupon_amt BETWEEN 6071 AND 6071 + 1000
      OR store_sales.ss_wholesale_cost BETWEEN 38 AND 38 + 20
    )
) AS b4_r
CROSS JOIN (
  SELECT
    AVG(store_sales.ss_list_price) AS b5_lp,
    COUNT(store_sales.ss_list_price) AS b5_cnt,
    COUNT(DISTINCT store_sales.ss_list_price) AS b5_cntd
  FROM store_sales AS store_sales
  WHERE
    store_sales.ss_quantity BETWEEN 21 AND 25
    AND (
      store_sales.ss_list_price BETWEEN 122 AND 122 + 10
      OR store_sales.ss_coupon_amt BETWEEN 836 AND 836 + 1000
      OR store_sales.ss_wholesale_cost BETWEEN 17 AND 17 + 20
    )
) AS b5_r
CROSS JOIN (
  SELECT
    AVG(store_sales.ss_list_price) AS b6_lp,
    COUNT(store_sales.ss_list_price) AS b6_cnt,
    COUNT(DISTINCT store_sales.ss_list_price) AS b6_cntd
  FROM store_sales AS store_sales
  WHERE
    store_sales.ss_quantity BETWEEN 26 AND 30
    AND (
      store_sales.ss_list_price BETWEEN 154 AND 154 + 10
      OR store_sales.ss_coupon_amt BETWEEN 7326 AND 7326 + 1000
      OR store_sales.ss_wholesale_cost BETWEEN 7 AND 7 + 20
    )
) AS b6_r
LIMIT 100
