-- tpcds/q75 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  prev_yr_r.d_year AS prev_year,
  curr_yr_r.d_year AS year,
  curr_yr_r.i_brand_id AS i_brand_id,
  curr_yr_r.i_class_id AS i_class_id,
  curr_yr_r.i_category_id AS i_category_id,
  curr_yr_r.i_manufact_id AS i_manufact_id,
  prev_yr_r.sales_cnt_r AS prev_yr_cnt,
  curr_yr_r.sales_cnt_r AS curr_yr_cnt,
  curr_yr_r.sales_cnt_r - prev_yr_r.sales_cnt_r AS sales_cnt_diff,
  curr_yr_r.sales_amt_r - prev_yr_r.sales_amt_r AS sales_amt_diff
FROM (
  SELECT
    sales_detail_r.d_year AS d_year,
    sales_detail_r.i_brand_id AS i_brand_id,
    sales_detail_r.i_class_id AS i_class_id,
    sales_detail_r.i_category_id AS i_category_id,
    sales_detail_r.i_manufact_id AS i_manufact_id,
    SUM(sales_detail_r.sales_cnt_r) AS sales_cnt_r,
    SUM(sales_detail_r.sales_amt_r) AS sales_amt_r
  FROM (
    SELECT
      date_dim.d_year AS d_year,
      item.i_brand_id AS i_brand_id,
      item.i_class_id AS i_class_id,
      item.i_category_id AS i_category_id,
      item.i_manufact_id AS i_manufact_id,
      catalog_sales.cs_quantity - COALESCE(catalog_returns.cr_return_quantity, 0) AS sales_cnt_r,
      catalog_sales.cs_ext_sales_price - COALESCE(catalog_returns.cr_return_amount, 0.0) AS sales_amt_r
    FROM catalog_sales AS catalog_sales
    JOIN item AS item
      ON item.i_item_sk = catalog_sales.cs_item_sk AND item.i_category = 'Books'
    JOIN date_dim AS date_dim
      ON date_dim.d_date_sk = catalog_sales.cs_sold_date_sk
    LEFT JOIN catalog_returns AS catalog_returns
      ON (
        catalog_sales.cs_order_number = catalog_returns.cr_order_number
        AND catalog_sales.cs_item_sk = catalog_returns.cr_item_sk
      )
    WHERE
      TRUE
    UNION
    SELECT
      date_dim.d_year AS d_year,
      item.i_brand_id AS i_brand_id,
      item.i_class_id AS i_class_id,
      item.i_category_id AS i_category_id,
      item.i_manufact_id AS i_manufact_id,
      store_sales.ss_quantity - COALESCE(store_returns.sr_return_quantity, 0) AS sales_cnt_r,
      store_sales.ss_ext_sales_price - COALESCE(store_returns.sr_return_amt, 0.0) AS sales_amt_r
    FROM store_sales AS store_sales
    JOIN item AS item
      ON item.i_item_sk = store_sales.ss_item_sk AND item.i_category = 'Books'
    JOIN date_dim AS date_dim
      ON date_dim.d_date_sk = store_sales.ss_sold_date_sk
    LEFT JOIN store_returns AS store_returns
      ON (
        store_sales.ss_ticket_number = store_returns.sr_ticket_number
        AND store_sales.ss_item_sk = store_returns.sr_item_sk
      )
    WHERE
      TRUE
    UNION
    SELECT
      date_dim.d_year AS d_year,
      item.i_brand_id AS i_brand_id,
      item.i_class_id AS i_class_id,
      item.i_category_id AS i_category_id,
      item.i_manufact_id AS i_manufact_id,
      web_sales.ws_quantity - COALESCE(web_returns.wr_return_quantity, 0) AS sales_cnt_r,
      web_sales.ws_ext_sales_price - COALESCE(web_returns.wr_return_amt, 0.0) AS sales_amt_r
    FROM web_sales AS web_sales
    JOIN item AS item
      ON item.i_item_sk = web_sales.ws_item_sk AND item.i_category = 'Books'
    JOIN date_dim AS date_dim
      ON date_dim.d_date_sk = web_sales.ws_sold_date_sk
    LEFT JOIN web_returns AS web_returns
      ON (
        web_sales.ws_order_number = web_returns.wr_order_number
        AND web_sales.ws_item_sk = web_returns.wr_item_sk
      )
    WHERE
      TRUE
  ) AS sales_detail_r
  GROUP BY
    sales_detail_r.d_year,
    sales_detail_r.i_brand_id,
    sales_detail_r.i_class_id,
    sales_detail_r.i_category_id,
    sales_detail_r.i_manufact_id
) AS curr_yr_r
JOIN (
  SELECT
    sales_detail_r.d_year AS d_year,
    sales_detail_r.i_brand_id AS i_brand_id,
    sales_detail_r.i_class_id AS i_class_id,
    sales_detail_r.i_category_id AS i_category_id,
    sales_detail_r.i_manufact_id AS i_manufact_id,
    SUM(sales_detail_r.sales_cnt_r) AS sales_cnt_r,
    SUM(sales_detail_r.sales_amt_r) AS sales_amt_r
  FROM (
    SELECT
      date_dim.d_year AS d_year,
      item.i_brand_id AS i_brand_id,
      item.i_class_id AS i_class_id,
      item.i_category_id AS i_category_id,
      item.i_manufact_id AS i_manufact_id,
      catalog_sales.cs_quantity - COALESCE(catalog_returns.cr_return_quantity, 0) AS sales_cnt_r,
      catalog_sales.cs_ext_sales_price - COALESCE(catalog_returns.cr_return_amount, 0.0) AS sales_amt_r
    FROM catalog_sales AS catalog_sales
    JOIN item AS item
      ON item.i_item_sk = catalog_sales.cs_item_sk AND item.i_category = 'Books'
    JOIN date_dim AS date_dim
      ON date_dim.d_date_sk = catalog_sales.cs_sold_date_sk
    LEFT JOIN catalog_returns AS catalog_returns
      ON (
        catalog_sales.cs_order_number = catalog_returns.cr_order_number
        AND catalog_sales.cs_item_sk = catalog_returns.cr_item_sk
      )
    WHERE
      TRUE
    UNION
    SELECT
      date_dim.d_year AS d_year,
      item.i_brand_id AS i_brand_id,
      item.i_class_id AS i_class_id,
      item.i_category_id AS i_category_id,
      item.i_manufact_id AS i_manufact_id,
      store_sales.ss_quantity - COALESCE(store_returns.sr_return_quantity, 0) AS sales_cnt_r,
      store_sales.ss_ext_sales_price - COALESCE(store_returns.sr_return_amt, 0.0) AS sales_amt_r
    FROM store_sales AS store_sales
    JOIN item AS item
      ON item.i_item_sk = store_sales.ss_item_sk AND item.i_category = 'Books'
    JOIN date_dim AS date_dim
      ON date_dim.d_date_sk = store_sales.ss_sold_date_sk
    LEFT JOIN store_returns AS store_returns
      ON (
        store_sales.ss_ticket_number = store_returns.sr_ticket_number
        AND store_sales.ss_item_sk = store_returns.sr_item_sk
      )
    WHERE
      TRUE
    UNION
    SELECT
      date_dim.d_year AS d_year,
      item.i_brand_id AS i_brand_id,
      item.i_class_id AS i_class_id,
      item.i_category_id AS i_category_id,
      item.i_manufact_id AS i_manufact_id,
      web_sales.ws_quantity - COALESCE(web_returns.wr_return_quantity, 0) AS sales_cnt_r,
      web_sales.ws_ext_sales_price - COALESCE(web_returns.wr_return_amt, 0.0) AS sales_amt_r
    FROM web_sales AS web_sales
    JOIN item AS item
      ON item.i_item_sk = web_sales.ws_item_sk AND item.i_category = 'Books'
    JOIN date_dim AS date_dim
      ON date_dim.d_date_sk = web_sales.ws_sold_date_sk
    LEFT JOIN web_returns AS web_returns
      ON (
        web_sales.ws_order_number = web_returns.wr_order_number
        AND web_sales.ws_item_sk = web_returns.wr_item_sk
      )
    WHERE
      TRUE
  ) AS sales_detail_r
  GROUP BY
    sales_detail_r.d_year,
    sales_detail_r.i_brand_id,
    sales_detail_r.i_class_id,
    sales_detail_r.i_category_id,
    sales_detail_r.i_manufact_id
) AS prev_yr_r
  ON (
    (
      (
        (
          curr_yr_r.i_brand_id = prev_yr_r.i_brand_id
          AND curr_yr_r.i_class_id = prev_yr_r.i_class_id
        )
        AND curr_yr_r.i_category_id = prev_yr_r.i_category_id
      )
      AND curr_yr_r.i_manufact_id = prev_yr_r.i_manufact_id
    )
    AND prev_yr_r.d_year = 2002 - 1
  )
  AND CAST(curr_yr_r.sales_cnt_r AS DECIMAL(17, 2)) / CAST(prev_yr_r.sales_cnt_r AS DECIMAL(17, 2)) < 0.9
WHERE
  TRUE AND TRUE AND TRUE AND TRUE AND curr_yr_r.d_year = 2002 AND TRUE AND TRUE
ORDER BY
  sales_cnt_diff
LIMIT 100
