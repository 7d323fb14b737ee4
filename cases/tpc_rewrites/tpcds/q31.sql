-- tpcds/q31 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  ss1_r.ca_county AS ca_county,
  ss1_r.d_year AS d_year,
  ws2_r.web_sales / ws1_r.web_sales AS web_q1_q2_increase,
  ss2_r.store_sales / ss1_r.store_sales AS store_q1_q2_increase,
  ws3_r.web_sales / ws2_r.web_sales AS web_q2_q3_increase,
  ss3_r.store_sales / ss2_r.store_sales AS store_q2_q3_increase
FROM (
  SELECT
    customer_address.ca_county AS ca_county,
    date_dim.d_qoy AS d_qoy,
    date_dim.d_year AS d_year,
    SUM(store_sales.ss_ext_sales_price) AS store_sales
  FROM store_sales AS store_sales
  JOIN date_dim AS date_dim
    ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
  JOIN customer_address AS customer_address
    ON store_sales.ss_addr_sk = customer_address.ca_address_sk
  WHERE
    TRUE AND TRUE
  GROUP BY
    customer_address.ca_county,
    date_dim.d_qoy,
    date_dim.d_year
) AS ss1_r
JOIN (
  SELECT
    customer_address.ca_county AS ca_county,
    date_dim.d_qoy AS d_qoy,
    date_dim.d_year AS d_year,
    SUM(store_sales.ss_ext_sales_price) AS store_sales
  FROM store_sales AS store_sales
  JOIN date_dim AS date_dim
    ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
  JOIN customer_address AS customer_address
    ON store_sales.ss_addr_sk = customer_address.ca_address_sk
  WHERE
    TRUE AND TRUE
  GROUP BY
    customer_address.ca_county,
    date_dim.d_qoy,
    date_dim.d_year
) AS ss2_r
  ON (
    ss1_r.ca_county = ss2_r.ca_county AND ss2_r.d_qoy = 2
  )
  AND ss2_r.d_year = 2000
JOIN (
  SELECT
    customer_address.ca_county AS ca_county,
    date_dim.d_qoy AS d_qoy,
    date_dim.d_year AS d_year,
    SUM(store_sales.ss_ext_sales_price) AS store_sales
  FROM store_sales AS store_sales
  JOIN date_dim AS date_dim
    ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
  JOIN customer_address AS customer_address
    ON store_sales.ss_addr_sk = customer_address.ca_address_sk
  WHERE
    TRUE AND TRUE
  GROUP BY
    customer_address.ca_county,
    date_dim.d_qoy,
    date_dim.d_year
) AS ss3_r
  ON (
    ss2_r.ca_county = ss3_r.ca_county AND ss3_r.d_qoy = 3
  )
  AND ss3_r.d_year = 2000
JOIN (
  SELECT
    customer_address.ca_county AS ca_county,
    date_dim.d_qoy AS d_qoy,
    date_dim.d_year AS d_year,
    SUM(web_sales.ws_ext_sales_price) AS web_sales
  FROM web_sales AS web_sales
  JOIN date_dim AS date_dim
    ON web_sales.ws_sold_date_sk = date_dim.d_date_sk
  JOIN customer_address AS customer_address
    ON web_sales.ws_bill_addr_sk = customer_address.ca_address_sk
  WHERE
    TRUE AND TRUE
  GROUP BY
    customer_address.ca_county,
    date_dim.d_qoy,
    date_dim.d_year
) AS ws1_r
  ON (
    ss1_r.ca_county = ws1_r.ca_county AND ws1_r.d_qoy = 1
  )
  AND ws1_r.d_year = 2000
JOIN (
  SELECT
    customer_address.ca_county AS ca_county,
    date_dim.d_qoy AS d_qoy,
    date_dim.d_year AS d_year,
    SUM(web_sales.ws_ext_sales_price) AS web_sales
  FROM web_sales AS web_sales
  JOIN date_dim AS date_dim
    ON web_sales.ws_sold_date_sk = date_dim.d_date_sk
  JOIN customer_address AS customer_address
    ON web_sales.ws_bill_addr_sk = customer_address.ca_address_sk
  WHERE
    TRUE AND TRUE
  GROUP BY
    customer_address.ca_county,
    date_dim.d_qoy,
    date_dim.d_year
) AS ws2_r
  ON (
    (
      ws1_r.ca_county = ws2_r.ca_county AND ws2_r.d_qoy = 2
    )
    AND ws2_r.d_year = 2000
  )
  AND CASE WHEN ws1_r.web_sales > 0 THEN ws2_r.web_sales / ws1_r.web_sales ELSE NULL END > CASE
    WHEN ss1_r.store_sales > 0
    THEN ss2_r.store_sales / ss1_r.store_sales
    ELSE NULL
  END
JOIN (
  SELECT
    customer_address.ca_county AS ca_county,
    date_dim.d_qoy AS d_qoy,
    date_dim.d_year AS d_year,
    SUM(web_sales.ws_ext_sales_price) AS web_sales
  FROM web_sales AS web_sales
  JOIN date_dim AS date_dim
    ON web_sales.ws_sold_date_sk = date_dim.d_date_sk
  JOIN customer_address AS customer_address
    ON web_sales.ws_bill_addr_sk = customer_address.ca_address_sk
  WHERE
    TRUE AND TRUE
  GROUP BY
    customer_address.ca_county,
    date_dim.d_qoy,
    date_dim.d_year
) AS ws3_r
  ON (
    (
      ws1_r.ca_county = ws3_r.ca_county AND ws3_r.d_qoy = 3
    )
    AND ws3_r.d_year = 2000
  )
  AND CASE WHEN ws2_r.web_sales > 0 THEN ws3_r.web_sales / ws2_r.web_sales ELSE NULL END > CASE
    WHEN ss2_r.store_sales > 0
    THEN ss3_r.store_sales / ss2_r.store_sales
    ELSE NULL
  END
WHERE
  ss1_r.d_qoy = 1
  AND ss1_r.d_year = 2000
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
ORDER BY
  ss1_r.ca_county
