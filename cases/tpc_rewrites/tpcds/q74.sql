-- tpcds/q74 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  t_s_secyear_r.customer_id AS customer_id,
  t_s_secyear_r.customer_first_name AS customer_first_name,
  t_s_secyear_r.customer_last_name AS customer_last_name
FROM (
  SELECT
    customer.c_customer_id AS customer_id,
    customer.c_first_name AS customer_first_name,
    customer.c_last_name AS customer_last_name,
    date_dim.d_year AS year_r,
    SUM(store_sales.ss_net_paid) AS year_total_r,
    's' AS sale_type_r
  FROM customer AS customer
  JOIN store_sales AS store_sales
    ON customer.c_customer_sk = store_sales.ss_customer_sk
  JOIN date_dim AS date_dim
    ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
    AND date_dim.d_year IN (2001, 2001 + 1)
  WHERE
    TRUE AND TRUE AND TRUE
  GROUP BY
    customer.c_customer_id,
    customer.c_first_name,
    customer.c_last_name,
    date_dim.d_year
  UNION ALL
  SELECT
    customer.c_customer_id AS customer_id,
    customer.c_first_name AS customer_first_name,
    customer.c_last_name AS customer_last_name,
    date_dim.d_year AS year_r,
    SUM(web_sales.ws_net_paid) AS year_total_r,
    'w' AS sale_type_r
  FROM customer AS customer
  JOIN web_sales AS web_sales
    ON customer.c_customer_sk = web_sales.ws_bill_customer_sk
  JOIN date_dim AS date_dim
    ON web_sales.ws_sold_date_sk = date_dim.d_date_sk
    AND date_dim.d_year IN (2001, 2001 + 1)
  WHERE
    TRUE AND TRUE AND TRUE
  GROUP BY
    customer.c_customer_id,
    customer.c_first_name,
    customer.c_last_name,
    date_dim.d_year
) AS t_s_firstyear_r
JOIN (
  SELECT
    customer.c_customer_id AS customer_id,
    customer.c_first_name AS customer_first_name,
    customer.c_last_name AS customer_last_name,
    date_dim.d_year AS year_r,
    SUM(store_sales.ss_net_paid) AS year_total_r,
    's' AS sale_type_r
  FROM customer AS customer
  JOIN store_sales AS store_sales
    ON customer.c_customer_sk = store_sales.ss_customer_sk
  JOIN date_dim AS date_dim
    ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
    AND date_dim.d_year IN (2001, 2001 + 1)
  WHERE
    TRUE AND TRUE AND TRUE
  GROUP BY
    customer.c_customer_id,
    customer.c_first_name,
    customer.c_last_name,
    date_dim.d_year
  UNION ALL
  SELECT
    customer.c_customer_id AS customer_id,
    customer.c_first_name AS customer_first_name,
    customer.c_last_name AS customer_last_name,
    date_dim.d_year AS year_r,
    SUM(web_sales.ws_net_paid) AS year_total_r,
    'w' AS sale_type_r
  FROM customer AS customer
  JOIN web_sales AS web_sales
    ON customer.c_customer_sk = web_sales.ws_bill_customer_sk
  JOIN date_dim AS date_dim
    ON web_sales.ws_sold_date_sk = date_dim.d_date_sk
    AND date_dim.d_year IN (2001, 2001 + 1)
  WHERE
    TRUE AND TRUE AND TRUE
  GROUP BY
    customer.c_customer_id,
    customer.c_first_name,
    customer.c_last_name,
    date_dim.d_year
) AS t_s_secyear_r
  ON (
    t_s_secyear_r.customer_id = t_s_firstyear_r.customer_id
    AND t_s_secyear_r.sale_type_r = 's'
  )
  AND t_s_secyear_r.year_r = 2001 + 1
JOIN (
  SELECT
    customer.c_customer_id AS customer_id,
    customer.c_first_name AS customer_first_name,
    customer.c_last_name AS customer_last_name,
    date_dim.d_year AS year_r,
    SUM(store_sales.ss_net_paid) AS year_total_r,
    's' AS sale_type_r
  FROM customer AS customer
  JOIN store_sales AS store_sales
    ON customer.c_customer_sk = store_sales.ss_customer_sk
  JOIN date_dim AS date_dim
    ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
    AND date_dim.d_year IN (2001, 2001 + 1)
  WHERE
    TRUE AND TRUE AND TRUE
  GROUP BY
    customer.c_customer_id,
    customer.c_first_name,
    customer.c_last_name,
    date_dim.d_year
  UNION ALL
  SELECT
    customer.c_customer_id AS customer_id,
    customer.c_first_name AS customer_first_name,
    customer.c_last_name AS customer_last_name,
    date_dim.d_year AS year_r,
    SUM(web_sales.ws_net_paid) AS year_total_r,
    'w' AS sale_type_r
  FROM customer AS customer
  JOIN web_sales AS web_sales
    ON customer.c_customer_sk = web_sales.ws_bill_customer_sk
  JOIN date_dim AS date_dim
    ON web_sales.ws_sold_date_sk = date_dim.d_date_sk
    AND date_dim.d_year IN (2001, 2001 + 1)
  WHERE
    TRUE AND TRUE AND TRUE
  GROUP BY
    customer.c_customer_id,
    customer.c_first_name,
    customer.c_last_name,
    date_dim.d_year
) AS t_w_firstyear_r
  ON (
    (
      t_s_firstyear_r.customer_id = t_w_firstyear_r.customer_id
      AND t_w_firstyear_r.sale_type_r = 'w'
    )
    AND t_w_firstyear_r.year_r = 2001
  )
  AND t_w_firstyear_r.year_total_r > 0
JOIN (
  SELECT
    customer.c_customer_id AS customer_id,
    customer.c_first_name AS customer_first_name,
    customer.c_last_name AS customer_last_name,
    date_dim.d_year AS year_r,
    SUM(store_sales.ss_net_paid) AS year_total_r,
    's' AS sale_type_r
  FROM customer AS customer
  JOIN store_sales AS store_sales
    ON customer.c_customer_sk = store_sales.ss_customer_sk
  JOIN date_dim AS date_dim
    ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
    AND date_dim.d_year IN (2001, 2001 + 1)
  WHERE
    TRUE AND TRUE AND TRUE
  GROUP BY
    customer.c_customer_id,
    customer.c_first_name,
    customer.c_last_name,
    date_dim.d_year
  UNION ALL
  SELECT
    customer.c_customer_id AS customer_id,
    customer.c_first_name AS customer_first_name,
    customer.c_last_name AS customer_last_name,
    date_dim.d_year AS year_r,
    SUM(web_sales.ws_net_paid) AS year_total_r,
    'w' AS sale_type_r
  FROM customer AS customer
  JOIN web_sales AS web_sales
    ON customer.c_customer_sk = web_sales.ws_bill_customer_sk
  JOIN date_dim AS date_dim
    ON web_sales.ws_sold_date_sk = date_dim.d_date_sk
    AND date_dim.d_year IN (2001, 2001 + 1)
  WHERE
    TRUE AND TRUE AND TRUE
  GROUP BY
    customer.c_customer_id,
    customer.c_first_name,
    customer.c_last_name,
    date_dim.d_year
) AS t_w_secyear_r
  ON (
    (
      t_s_firstyear_r.customer_id = t_w_secyear_r.customer_id
      AND t_w_secyear_r.sale_type_r = 'w'
    )
    AND t_w_secyear_r.year_r = 2001 + 1
  )
  AND CASE
    WHEN t_w_firstyear_r.year_total_r > 0
    THEN t_w_secyear_r.year_total_r / t_w_firstyear_r.year_total_r
    ELSE NULL
  END > CASE
    WHEN t_s_firstyear_r.year_total_r > 0
    THEN t_s_secyear_r.year_total_r / t_s_firstyear_r.year_total_r
    ELSE NULL
  END
WHERE
  TRUE
  AND TRUE
  AND TRUE
  AND t_s_firstyear_r.sale_type_r = 's'
  AND TRUE
  AND TRUE
  AND TRUE
  AND t_s_firstyear_r.year_r = 2001
  AND TRUE
  AND TRUE
  AND TRUE
  AND t_s_firstyear_r.year_total_r > 0
  AND TRUE
  AND TRUE
ORDER BY
  customer_id,
  customer_id,
  customer_id
LIMIT 100
