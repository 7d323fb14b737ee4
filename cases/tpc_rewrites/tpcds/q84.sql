-- tpcds/q84 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  customer.c_customer_id AS customer_id,
  CONCAT(customer.c_last_name, ', ', customer.c_first_name) AS customername
FROM customer AS customer
JOIN customer_address AS customer_address
  ON customer_address.ca_city = 'Edgewood'
  AND customer.c_current_addr_sk = customer_address.ca_address_sk
JOIN customer_demographics AS customer_demographics
  ON customer_demographics.cd_demo_sk = customer.c_current_cdemo_sk
JOIN household_demographics AS household_demographics
  ON household_demographics.hd_demo_sk = customer.c_current_hdemo_sk
JOIN income_band AS income_band
  ON (
    income_band.ib_lower_bound >= 38128
    AND income_band.ib_upper_bound <= 38128 + 50000
  )
  AND income_band.ib_income_band_sk = household_demographics.hd_income_band_sk
JOIN store_returns AS store_returns
  ON store_returns.sr_cdemo_sk = customer_demographics.cd_demo_sk
WHERE
  TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE
ORDER BY
  customer.c_customer_id
LIMIT 100
