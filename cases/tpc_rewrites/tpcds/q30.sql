-- tpcds/q30 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  customer.c_customer_id AS c_customer_id,
  customer.c_salutation AS c_salutation,
  customer.c_first_name AS c_first_name,
  customer.c_last_name AS c_last_name,
  customer.c_preferred_cust_flag AS c_preferred_cust_flag,
  customer.c_birth_day AS c_birth_day,
  customer.c_birth_month AS c_birth_month,
  customer.c_birth_year AS c_birth_year,
  customer.c_birth_country AS c_birth_country,
  customer.c_login AS c_login,
  customer.c_email_address AS c_email_address,
  customer.c_last_review_date AS c_last_review_date,
  ctr1_r.ctr_total_return AS ctr_total_return
FROM (
  SELECT
    web_returns.wr_returning_customer_sk AS ctr_customer_sk_r,
    customer_address.ca_state AS ctr_state_r,
    SUM(web_returns.wr_return_amt) AS ctr_total_return
  FROM web_returns AS web_returns
  JOIN date_dim AS date_dim
    ON web_returns.wr_returned_date_sk = date_dim.d_date_sk AND date_dim.d_year = 2002
  JOIN customer_address AS customer_address
    ON web_returns.wr_returning_addr_sk = customer_address.ca_address_sk
  WHERE
    TRUE AND TRUE AND TRUE
  GROUP BY
    web_returns.wr_returning_customer_sk,
    customer_address.ca_state
) AS ctr1_r
JOIN customer_address AS customer_address
  ON customer_address.ca_state = 'GA'
JOIN customer AS customer
  ON customer_address.ca_address_sk = customer.c_current_addr_sk
  AND ctr1_r.ctr_customer_sk_r = customer.c_customer_sk
WHERE
  ctr1_r.ctr_total_return > (
    SELECT
      AVG(ctr2_r.ctr_total_return) * 1.2 AS _col_0
    FROM (
      SELECT
        web_returns.wr_returning_customer_sk AS ctr_customer_sk_r,
        customer_address.ca_state AS ctr_state_r,
        SUM(web_returns.wr_return_amt) AS ctr_total_return
      FROM web_returns AS web_returns
      JOIN date_dim AS date_dim
        ON web_returns.wr_returned_date_sk = date_dim.d_date_sk AND date_dim.d_year = 2002
      JOIN customer_address AS customer_address
        ON web_returns.wr_returning_addr_sk = customer_address.ca_address_sk
      WHERE
        TRUE AND TRUE AND TRUE
      GROUP BY
        web_returns.wr_returning_customer_sk,
        customer_address.ca_state
    ) AS ctr2_r
    WHERE
      ctr1_r.ctr_state_r = ctr2_r.ctr_state_r
  )
  AND TRUE
  AND TRUE
  AND TRUE
ORDER BY
  c_customer_id,
  c_salutation,
  c_first_name,
  c_last_name,
  c_preferred_cust_flag,
  c_birth_day,
  c_birth_month,
  c_birth_year,
  c_birth_country,
  c_login,
  c_email_address,
  c_last_review_date,
  ctr_total_return
LIMIT 100
