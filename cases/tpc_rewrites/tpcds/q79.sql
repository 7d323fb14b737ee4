-- tpcds/q79 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  customer.c_last_name AS c_last_name,
  customer.c_first_name AS c_first_name,
  SUBSTRING(ms_r.s_city, 1, 30) AS `substr(s_city, 1, 30)`,
  ms_r.ss_ticket_number AS ss_ticket_number,
  ms_r.amt AS amt,
  ms_r.profit AS profit
FROM (
  SELECT
    store_sales.ss_ticket_number AS ss_ticket_number,
    store_sales.ss_customer_sk AS ss_customer_sk,
    store.s_city AS s_city,
    SUM(store_sales.ss_coupon_amt) AS amt,
    SUM(store_sales.ss_net_profit) AS profit
  FROM store_sales AS store_sales
  JOIN date_dim AS date_dim
    ON (
      store_sales.ss_sold_date_sk = date_dim.d_date_sk AND date_dim.d_dow = 1
    )
    AND date_dim.d_year IN (1999, 1999 + 1, 1999 + 2)
  JOIN store AS store
    ON store_sales.ss_store_sk = store.s_store_sk
    AND store.s_number_employees BETWEEN 200 AND 295
  JOIN household_demographics AS household_demographics
    ON store_sales.ss_hdemo_sk = household_demographics.hd_demo_sk
    AND (
      household_demographics.hd_dep_count = 6
      OR household_demographics.hd_vehicle_count > 2
    )
  WHERE
    TRUE AND TRUE AND TRUE AND (
      TRUE
    ) AND TRUE AND TRUE AND TRUE
  GROUP BY
    store_sales.ss_ticket_number,
    store_sales.ss_customer_sk,
    store_sales.ss_addr_sk,
    store.s_city
) AS ms_r
JOIN customer AS customer
  ON ms_r.ss_customer_sk = customer.c_customer_sk
WHERE
  TRUE
ORDER BY
  c_last_name,
  c_first_name,
  SUBSTRING(ms_r.s_city, 1, 30),
  profit
LIMIT 100
