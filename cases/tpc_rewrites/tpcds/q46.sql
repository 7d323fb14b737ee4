-- tpcds/q46 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  customer.c_last_name AS c_last_name,
  customer.c_first_name AS c_first_name,
  current_addr_r.ca_city AS ca_city,
  dn_r.bought_city AS bought_city,
  dn_r.ss_ticket_number AS ss_ticket_number,
  dn_r.amt AS amt,
  dn_r.profit AS profit
FROM (
  SELECT
    store_sales.ss_ticket_number AS ss_ticket_number,
    store_sales.ss_customer_sk AS ss_customer_sk,
    customer_address.ca_city AS bought_city,
    SUM(store_sales.ss_coupon_amt) AS amt,
    SUM(store_sales.ss_net_profit) AS profit
  FROM store_sales AS store_sales
  JOIN date_dim AS date_dim
    ON (
      store_sales.ss_sold_date_sk = date_dim.d_date_sk AND date_dim.d_dow IN (6, 0)
    )
    AND date_dim.d_year IN (1999, 1999 + 1, 1999 + 2)
  JOIN store AS store
    ON store_sales.ss_store_sk = store.s_store_sk
    AND store.s_city IN ('Fairview', 'Midway', 'Fairview', 'Fairview', 'Fairview')
  JOIN household_demographics AS household_demographics
    ON store_sales.ss_hdemo_sk = household_demographics.hd_demo_sk
    AND (
      household_demographics.hd_dep_count = 4
      OR household_demographics.hd_vehicle_count = 3
    )
  JOIN customer_address AS customer_address
    ON store_sales.ss_addr_sk = customer_address.ca_address_sk
  WHERE
    TRUE AND TRUE AND TRUE AND TRUE AND (
      TRUE
    ) AND TRUE AND TRUE AND TRUE
  GROUP BY
    store_sales.ss_ticket_number,
    store_sales.ss_customer_sk,
    store_sales.ss_addr_sk,
    customer_address.ca_city
) AS dn_r
JOIN customer AS customer
  ON dn_r.ss_customer_sk = customer.c_customer_sk
JOIN customer_address AS current_addr_r
  ON customer.c_current_addr_sk = current_addr_r.ca_address_sk
  AND current_addr_r.ca_city <> dn_r.bought_city
WHERE
  TRUE AND TRUE AND TRUE
ORDER BY
  c_last_name,
  c_first_name,
  ca_city,
  bought_city,
  ss_ticket_number
LIMIT 100
