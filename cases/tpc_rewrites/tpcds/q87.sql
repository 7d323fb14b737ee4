-- tpcds/q87 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  COUNT(*) AS `count(1)`
FROM (
  (
    SELECT DISTINCT
      customer.c_last_name AS c_last_name,
      customer.c_first_name AS c_first_name,
      date_dim.d_date AS d_date
    FROM store_sales AS store_sales
    JOIN date_dim AS date_dim
      ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
      AND date_dim.d_month_seq BETWEEN 1200 AND 1200 + 11
    JOIN customer AS customer
      ON store_sales.ss_customer_sk = customer.c_customer_sk
    WHERE
      TRUE AND TRUE AND TRUE
  )
  EXCEPT
  (
    SELECT DISTINCT
      customer.c_last_name AS c_last_name,
      customer.c_first_name AS c_first_name,
      date_dim.d_date AS d_date
    FROM catalog_sales AS catalog_sales
    JOIN date_dim AS date_dim
      ON catalog_sales.cs_sold_date_sk = date_dim.d_date_sk
      AND date_dim.d_month_seq BETWEEN 1200 AND 1200 + 11
    JOIN customer AS customer
      ON catalog_sales.cs_bill_customer_sk = customer.c_customer_sk
    WHERE
      TRUE AND TRUE AND TRUE
  )
  EXCEPT
  (
    SELECT DISTINCT
      customer.c_last_name AS c_last_name,
      customer.c_first_name AS c_first_name,
      date_dim.d_date AS d_date
    FROM web_sales AS web_sales
    JOIN date_dim AS date_dim
      ON web_sales.ws_sold_date_sk = date_dim.d_date_sk
      AND date_dim.d_month_seq BETWEEN 1200 AND 1200 + 11
    JOIN customer AS customer
      ON web_sales.ws_bill_customer_sk = customer.c_customer_sk
    WHERE
      TRUE AND TRUE AND TRUE
  )
) AS cool_cust_r
