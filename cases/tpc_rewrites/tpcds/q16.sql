-- tpcds/q16 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  COUNT(DISTINCT cs1_r.cs_order_number) AS `order count `,
  SUM(cs1_r.cs_ext_ship_cost) AS `total shipping cost `,
  SUM(cs1_r.cs_net_profit) AS `total net profit `
FROM catalog_sales AS cs1_r
JOIN date_dim AS date_dim
  ON date_dim.d_date BETWEEN '2002-02-01' AND (
    CAST('2002-02-01' AS DATE) + INTERVAL '60' DAYS
  )
  AND cs1_r.cs_ship_date_sk = date_dim.d_date_sk
JOIN customer_address AS customer_address
  ON cs1_r.cs_ship_addr_sk = customer_address.ca_address_sk
  AND customer_address.ca_state = 'GA'
JOIN call_center AS call_center
  ON cs1_r.cs_call_center_sk = call_center.cc_call_center_sk
  AND call_center.cc_county IN (
    'Williamson County',
    'Williamson County',
    'Williamson County',
    'Williamson County',
    'Williamson County'
  )
WHERE
  TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND TRUE
  AND EXISTS(
    SELECT
      cs2_r.cs_sold_date_sk AS cs_sold_date_sk,
      cs2_r.cs_sold_time_sk AS cs_sold_time_sk,
      cs2_r.cs_ship_date_sk AS cs_ship_date_sk,
      cs2_r.cs_bill_customer_sk AS cs_bill_customer_sk,
      cs2_r.cs_bill_cdemo_sk AS cs_bill_cdemo_sk,
      cs2_r.cs_bill_hdemo_sk AS cs_bill_hdemo_sk,
      cs2_r.cs_bill_addr_sk AS cs_bill_addr_sk,
      cs2_r.cs_ship_customer_sk AS cs_ship_customer_sk,
      cs2_r.cs_ship_cdemo_sk AS cs_ship_cdemo_sk,
      cs2_r.cs_ship_hdemo_sk AS cs_ship_hdemo_sk,
      cs2_r.cs_ship_addr_sk AS cs_ship_addr_sk,
      cs2_r.cs_call_center_sk AS cs_call_center_sk,
      cs2_r.cs_catalog_page_sk AS cs_catalog_page_sk,
      cs2_r.cs_ship_mode_sk AS cs_ship_mode_sk,
      cs2_r.cs_warehouse_sk AS cs_warehouse_sk,
      cs2_r.cs_item_sk AS cs_item_sk,
      cs2_r.cs_promo_sk AS cs_promo_sk,
      cs2_r.cs_order_number AS cs_order_number,
      cs2_r.cs_quantity AS cs_quantity,
      cs2_r.cs_wholesale_cost AS cs_wholesale_cost,
      cs2_r.cs_list_price AS cs_list_price,
      cs2_r.cs_sales_price AS cs_sales_price,
      cs2_r.cs_ext_discount_amt AS cs_ext_discount_amt,
      cs2_r.cs_ext_sales_price AS cs_ext_sales_price,
      cs2_r.cs_ext_wholesale_cost AS cs_ext_wholesale_cost,
      cs2_r.cs_ext_list_price AS cs_ext_list_price,
      cs2_r.cs_ext_tax AS cs_ext_tax,
      cs2_r.cs_coupon_amt AS cs_coupon_amt,
      cs2_r.cs_ext_ship_cost AS cs_ext_ship_cost,
      cs2_r.cs_net_paid AS cs_net_paid,
      cs2_r.cs_net_paid_inc_tax AS cs_net_paid_inc_tax,
      cs2_r.cs_net_paid_inc_ship AS cs_net_paid_inc_ship,
      cs2_r.cs_net_paid_inc_ship_tax AS cs_net_paid_inc_ship_tax,
      cs2_r.cs_net_profit AS cs_net_profit
    FROM catalog_sales AS cs2_r
    WHERE
      cs1_r.cs_order_number = cs2_r.cs_order_number
      AND cs1_r.cs_warehouse_sk <> cs2_r.cs_warehouse_sk
  )
  AND NOT EXISTS(
    SELECT
      cr1_r.cr_returned_date_sk AS cr_returned_date_sk,
      cr1_r.cr_returned_time_sk AS cr_returned_time_sk,
      cr1_r.cr_item_sk AS cr_item_sk,
      cr1_r.cr_refunded_customer_sk AS cr_refunded_customer_sk,
      cr1_r.cr_refunded_cdemo_sk AS cr_refunded_cdemo_sk,
      cr1_r.cr_refunded_hdemo_sk AS cr_refunded_hdemo_sk,
      cr1_r.cr_refunded_addr_sk AS cr_refunded_addr_sk,
      cr1_r.cr_returning_customer_sk AS cr_returning_customer_sk,
      cr1_r.cr_returning_cdemo_sk AS cr_returning_cdemo_sk,
      cr1_r.cr_returning_hdemo_sk AS cr_returning_hdemo_sk,
      cr1_r.cr_returning_addr_sk AS cr_returning_addr_sk,
      cr1_r.cr_call_center_sk AS cr_call_center_sk,
      cr1_r.cr_catalog_page_sk AS cr_catalog_page_sk,
      cr1_r.cr_ship_mode_sk AS cr_ship_mode_sk,
      cr1_r.cr_warehouse_sk AS cr_warehouse_sk,
      cr1_r.cr_reason_sk AS cr_reason_sk,
      cr1_r.cr_order_number AS cr_order_number,
      cr1_r.cr_return_quantity AS cr_return_quantity,
      cr1_r.cr_return_amount AS cr_return_amount,
      cr1_r.cr_return_tax AS cr_return_tax,
      cr1_r.cr_return_amt_inc_tax AS cr_return_amt_inc_tax,
      cr1_r.cr_fee AS cr_fee,
      cr1_r.cr_return_ship_cost AS cr_return_ship_cost,
      cr1_r.cr_refunded_cash AS cr_refunded_cash,
      cr1_r.cr_reversed_charge AS cr_reversed_charge,
      cr1_r.cr_store_credit AS cr_store_credit,
      cr1_r.cr_net_loss AS cr_net_loss
    FROM catalog_returns AS cr1_r
    WHERE
      cs1_r.cs_order_number = cr1_r.cr_order_number
  )
ORDER BY
  COUNT(DISTINCT cs1_r.cs_order_number)
LIMIT 100
