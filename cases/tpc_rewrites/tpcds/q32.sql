-- tpcds/q32 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  SUM(catalog_sales.cs_ext_discount_amt) AS `excess discount amount`
FROM catalog_sales AS catalog_sales
JOIN item AS item
  ON item.i_manufact_id = 977 AND item.i_item_sk = catalog_sales.cs_item_sk
JOIN date_dim AS date_dim
  ON date_dim.d_date BETWEEN '2000-01-27' AND (
    CAST('2000-01-27' AS DATE) + INTERVAL '90' DAYS
  )
  AND date_dim.d_date_sk = catalog_sales.cs_sold_date_sk
WHERE
  TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND catalog_sales.cs_ext_discount_amt > (
    SELECT
      1.3 * AVG(catalog_sales.cs_ext_discount_amt) AS _col_0
    FROM catalog_sales AS catalog_sales
    JOIN date_dim AS date_dim
      ON date_dim.d_date BETWEEN '2000-01-27' AND (
        CAST('2000-01-27' AS DATE) + INTERVAL '90' DAYS
      )
      AND date_dim.d_date_sk = catalog_sales.cs_sold_date_sk
    WHERE
      catalog_sales.cs_item_sk = item.i_item_sk AND TRUE AND TRUE
  )
LIMIT 100
