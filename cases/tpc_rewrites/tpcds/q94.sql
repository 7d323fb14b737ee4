-- tpcds/q94 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  COUNT(DISTINCT ws1_r.ws_order_number) AS `order count `,
  SUM(ws1_r.ws_ext_ship_cost) AS `total shipping cost `,
  SUM(ws1_r.ws_net_profit) AS `total net profit `
FROM web_sales AS ws1_r
JOIN date_dim AS date_dim
  ON date_dim.d_date BETWEEN '1999-02-01' AND (
    CAST('1999-02-01' AS DATE) + INTERVAL '60' DAYS
  )
  AND ws1_r.ws_ship_date_sk = date_dim.d_date_sk
JOIN customer_address AS customer_address
  ON ws1_r.ws_ship_addr_sk = customer_address.ca_address_sk
  AND customer_address.ca_state = 'IL'
JOIN web_site AS web_site
  ON ws1_r.ws_web_site_sk = web_site.web_site_sk AND web_site.web_company_name = 'pri'
WHERE
  TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND EXISTS(
    SELECT
      ws2_r.ws_sold_date_sk AS ws_sold_date_sk,
      ws2_r.ws_sold_time_sk AS ws_sold_time_sk,
      ws2_r.ws_ship_date_sk AS ws_ship_date_sk,
      ws2_r.ws_item_sk AS ws_item_sk,
      ws2_r.ws_bill_customer_sk AS ws_bill_customer_sk,
      ws2_r.ws_bill_cdemo_sk AS ws_bill_cdemo_sk,
      ws2_r.ws_bill_hdemo_sk AS ws_bill_hdemo_sk,
      ws2_r.ws_bill_addr_sk AS ws_bill_addr_sk,
      ws2_r.ws_ship_customer_sk AS ws_ship_customer_sk,
      ws2_r.ws_ship_cdemo_sk AS ws_ship_cdemo_sk,
      ws2_r.ws_ship_hdemo_sk AS ws_ship_hdemo_sk,
      ws2_r.ws_ship_addr_sk AS ws_ship_addr_sk,
      ws2_r.ws_web_page_sk AS ws_web_page_sk,
      ws2_r.ws_web_site_sk AS ws_web_site_sk,
      ws2_r.ws_ship_mode_sk AS ws_ship_mode_sk,
      ws2_r.ws_warehouse_sk AS ws_warehouse_sk,
      ws2_r.ws_promo_sk AS ws_promo_sk,
      ws2_r.ws_order_number AS ws_order_number,
      ws2_r.ws_quantity AS ws_quantity,
      ws2_r.ws_wholesale_cost AS ws_wholesale_cost,
      ws2_r.ws_list_price AS ws_list_price,
      ws2_r.ws_sales_price AS ws_sales_price,
      ws2_r.ws_ext_discount_amt AS ws_ext_discount_amt,
      ws2_r.ws_ext_sales_price AS ws_ext_sales_price,
      ws2_r.ws_ext_wholesale_cost AS ws_ext_wholesale_cost,
      ws2_r.ws_ext_list_price AS ws_ext_list_price,
      ws2_r.ws_ext_tax AS ws_ext_tax,
      ws2_r.ws_coupon_amt AS ws_coupon_amt,
      ws2_r.ws_ext_ship_cost AS ws_ext_ship_cost,
      ws2_r.ws_net_paid AS ws_net_paid,
      ws2_r.ws_net_paid_inc_tax AS ws_net_paid_inc_tax,
      ws2_r.ws_net_paid_inc_ship AS ws_net_paid_inc_ship,
      ws2_r.ws_net_paid_inc_ship_tax AS ws_net_paid_inc_ship_tax,
      ws2_r.ws_net_profit AS ws_net_profit
    FROM web_sales AS ws2_r
    WHERE
      ws1_r.ws_order_number = ws2_r.ws_order_number
      AND ws1_r.ws_warehouse_sk <> ws2_r.ws_warehouse_sk
  )
  AND NOT EXISTS(
    SELECT
      wr1_r.wr_returned_date_sk AS wr_returned_date_sk,
      wr1_r.wr_returned_time_sk AS wr_returned_time_sk,
      wr1_r.wr_item_sk AS wr_item_sk,
      wr1_r.wr_refunded_customer_sk AS wr_refunded_customer_sk,
      wr1_r.wr_refunded_cdemo_sk AS wr_refunded_cdemo_sk,
      wr1_r.wr_refunded_hdemo_sk AS wr_refunded_hdemo_sk,
      wr1_r.wr_refunded_addr_sk AS wr_refunded_addr_sk,
      wr1_r.wr_returning_customer_sk AS wr_returning_customer_sk,
      wr1_r.wr_returning_cdemo_sk AS wr_returning_cdemo_sk,
      wr1_r.wr_returning_hdemo_sk AS wr_returning_hdemo_sk,
      wr1_r.wr_returning_addr_sk AS wr_returning_addr_sk,
      wr1_r.wr_web_page_sk AS wr_web_page_sk,
      wr1_r.wr_reason_sk AS wr_reason_sk,
      wr1_r.wr_order_number AS wr_order_number,
      wr1_r.wr_return_quantity AS wr_return_quantity,
      wr1_r.wr_return_amt AS wr_return_amt,
      wr1_r.wr_return_tax AS wr_return_tax,
      wr1_r.wr_return_amt_inc_tax AS wr_return_amt_inc_tax,
      wr1_r.wr_fee AS wr_fee,
      wr1_r.wr_return_ship_cost AS wr_return_ship_cost,
      wr1_r.wr_refunded_cash AS wr_refunded_cash,
      wr1_r.wr_reversed_charge AS wr_reversed_charge,
      wr1_r.wr_account_credit AS wr_account_credit,
      wr1_r.wr_net_loss AS wr_net_loss
    FROM web_returns AS wr1_r
    WHERE
      ws1_r.ws_order_number = wr1_r.wr_order_number
  )
ORDER BY
  COUNT(DISTINCT ws1_r.ws_order_number)
LIMIT 100
