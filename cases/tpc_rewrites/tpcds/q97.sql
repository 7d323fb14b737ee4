-- tpcds/q97 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  SUM(
    CASE
      WHEN ssci_r.customer_sk_r IS NOT NULL AND csci_r.customer_sk_r IS NULL
      THEN 1
      ELSE 0
    END
  ) AS store_only,
  SUM(
    CASE
      WHEN ssci_r.customer_sk_r IS NULL AND csci_r.customer_sk_r IS NOT NULL
      THEN 1
      ELSE 0
    END
  ) AS catalog_only,
  SUM(
    CASE
      WHEN ssci_r.customer_sk_r IS NOT NULL AND csci_r.customer_sk_r IS NOT NULL
      THEN 1
      ELSE 0
    END
  ) AS store_and_catalog
FROM (
  SELECT
    store_sales.ss_customer_sk AS customer_sk_r,
    store_sales.ss_item_sk AS item_sk_r
  FROM store_sales AS store_sales
  JOIN date_dim AS date_dim
    ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
    AND date_dim.d_month_seq BETWEEN 1200 AND 1200 + 11
  WHERE
    TRUE AND TRUE
  GROUP BY
    store_sales.ss_customer_sk,
    store_sales.ss_item_sk
) AS ssci_r
FULL OUTER JOIN (
  SELECT
    catalog_sales.cs_bill_customer_sk AS customer_sk_r,
    catalog_sales.cs_item_sk AS item_sk_r
  FROM catalog_sales AS catalog_sales
  JOIN date_dim AS date_dim
    ON catalog_sales.cs_sold_date_sk = date_dim.d_date_sk
    AND date_dim.d_month_seq BETWEEN 1200 AND 1200 + 11
  WHERE
    TRUE AND TRUE
  GROUP BY
    catalog_sales.cs_bill_customer_sk,
    catalog_sales.cs_item_sk
) AS csci_r
  ON (
    ssci_r.customer_sk_r = csci_r.customer_sk_r
    AND ssci_r.item_sk_r = csci_r.item_sk_r
  )
LIMIT 100
