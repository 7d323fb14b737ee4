-- tpcds/q54 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  CAST((
    my_revenue_r.revenue_r / 50
  ) AS INT) AS segment,
  COUNT(*) AS num_customers,
  CAST((
    my_revenue_r.revenue_r / 50
  ) AS INT) * 50 AS segment_base
FROM (
  SELECT
    my_customers_r.c_customer_sk AS c_customer_sk,
    SUM(store_sales.ss_ext_sales_price) AS revenue_r
  FROM (
    SELECT DISTINCT
      customer.c_customer_sk AS c_customer_sk,
      customer.c_current_addr_sk AS c_current_addr_sk
    FROM (
      SELECT
        catalog_sales.cs_sold_date_sk AS sold_date_sk_r,
        catalog_sales.cs_bill_customer_sk AS customer_sk_r,
        catalog_sales.cs_item_sk AS item_sk_r
      FROM catalog_sales AS catalog_sales
      UNION ALL
      SELECT
        web_sales.ws_sold_date_sk AS sold_date_sk_r,
        web_sales.ws_bill_customer_sk AS customer_sk_r,
        web_sales.ws_item_sk AS item_sk_r
      FROM web_sales AS web_sales
    ) AS cs_or_ws_sales_r
    JOIN item AS item
      ON (
        cs_or_ws_sales_r.item_sk_r = item.i_item_sk AND item.i_category = 'Women'
      )
      AND item.i_class = 'maternity'
    JOIN date_dim AS date_dim
      ON (
        cs_or_ws_sales_r.sold_date_sk_r = date_dim.d_date_sk AND date_dim.d_moy = 12
      )
      AND date_dim.d_year = 1998
    JOIN customer AS customer
      ON customer.c_customer_sk = cs_or_ws_sales_r.customer_sk_r
    WHERE
      TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE
  ) AS my_customers_r
  JOIN store_sales AS store_sales
    ON my_customers_r.c_customer_sk = store_sales.ss_customer_sk
  JOIN customer_address AS customer_address
    ON my_customers_r.c_current_addr_sk = customer_address.ca_address_sk
  JOIN store AS store
    ON customer_address.ca_county = store.s_county
    AND customer_address.ca_state = store.s_state
  JOIN date_dim AS date_dim
    ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
  WHERE
    TRUE
    AND TRUE
    AND TRUE
    AND TRUE
    AND TRUE
    AND date_dim.d_month_seq BETWEEN (
      SELECT DISTINCT
        date_dim.d_month_seq + 1 AS _col_0
      FROM date_dim AS date_dim
      WHERE
        date_dim.d_year = 1998 AND date_dim.d_moy = 12
    ) AND (
      SELECT DISTINCT
        date_dim.d_month_seq + 3 AS _col_0
      FROM date_dim AS date_dim
      WHERE
        date_dim.d_year = 1998 AND date_dim.d_moy = 12
    )
  GROUP BY
    my_customers_r.c_customer_sk
) AS my_revenue_r
GROUP BY
  CAST((
    my_revenue_r.revenue_r / 50
  ) AS INT)
ORDER BY
  segment,
  num_customers
LIMIT 100
