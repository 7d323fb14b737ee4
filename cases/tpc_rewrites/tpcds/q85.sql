-- tpcds/q85 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  SUBSTRING(reason.r_reason_desc, 1, 20) AS `substr(r_reason_desc, 1, 20)`,
  AVG(web_sales.ws_quantity) AS `avg(ws_quantity)`,
  AVG(web_returns.wr_refunded_cash) AS `avg(wr_refunded_cash)`,
  AVG(web_returns.wr_fee) AS `avg(wr_fee)`
FROM web_sales AS web_sales
JOIN web_returns AS web_returns
  ON web_sales.ws_item_sk = web_returns.wr_item_sk
  AND web_sales.ws_order_number = web_returns.wr_order_number
JOIN web_page AS web_page
  ON web_sales.ws_web_page_sk = web_page.wp_web_page_sk
JOIN customer_demographics AS cd1_r
  ON cd1_r.cd_demo_sk = web_returns.wr_refunded_cdemo_sk
JOIN customer_demographics AS cd2_r
  ON cd2_r.cd_demo_sk = web_returns.wr_returning_cdemo_sk
  AND (
    (
      cd1_r.cd_marital_status = 'M'
      AND cd1_r.cd_marital_status = cd2_r.cd_marital_status
      AND cd1_r.cd_education_status = 'Advanced Degree'
      AND cd1_r.cd_education_status = cd2_r.cd_education_status
      AND web_sales.ws_sales_price BETWEEN 100.00 AND 150.00
    )
    OR (
      cd1_r.cd_marital_status = 'S'
      AND cd1_r.cd_marital_status = cd2_r.cd_marital_status
      AND cd1_r.cd_education_status = 'College'
      AND cd1_r.cd_education_status = cd2_r.cd_education_status
      AND web_sales.ws_sales_price BETWEEN 50.00 AND 100.00
    )
    OR (
      cd1_r.cd_marital_status = 'W'
      AND cd1_r.cd_marital_status = cd2_r.cd_marital_status
      AND cd1_r.cd_education_status = '2 yr Degree'
      AND cd1_r.cd_education_status = cd2_r.cd_education_status
      AND web_sales.ws_sales_price BETWEEN 150.00 AND 200.00
    )
  )
JOIN customer_address AS customer_address
  ON customer_address.ca_address_sk = web_returns.wr_refunded_addr_sk
  AND (
    (
      customer_address.ca_country = 'United States'
      AND customer_address.ca_state IN ('IN', 'OH', 'NJ')
      AND web_sales.ws_net_profit BETWEEN 100 AND 200
    )
    OR (
      customer_address.ca_country = 'United States'
      AND customer_address.ca_state IN ('WI', 'CT', 'KY')
      AND web_sales.ws_net_profit BETWEEN 150 AND 300
    )
    OR (
      customer_address.ca_country = 'United States'
      AND customer_address.ca_state IN ('LA', 'IA', 'AR')
      AND web_sales.ws_net_profit BETWEEN 50 AND 250
    )
  )
JOIN date_dim AS date_dim
  ON web_sales.ws_sold_date_sk = date_dim.d_date_sk AND date_dim.d_year = 2000
JOIN reason AS reason
  ON reason.r_reason_sk = web_returns.wr_reason_sk
WHERE
  TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND (
    TRUE
  )
  AND (
    TRUE
  )
GROUP BY
  reason.r_reason_desc
ORDER BY
  `substr(r_reason_desc, 1, 20)`,
  `avg(ws_quantity)`,
  `avg(wr_refunded_cash)`,
  `avg(wr_fee)`
LIMIT 100
