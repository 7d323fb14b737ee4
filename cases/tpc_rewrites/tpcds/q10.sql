-- tpcds/q10 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  customer_demographics.cd_gender AS cd_gender,
  customer_demographics.cd_marital_status AS cd_marital_status,
  customer_demographics.cd_education_status AS cd_education_status,
  COUNT(*) AS cnt1,
  customer_demographics.cd_purchase_estimate AS cd_purchase_estimate,
  COUNT(*) AS cnt2,
  customer_demographics.cd_credit_rating AS cd_credit_rating,
  COUNT(*) AS cnt3,
  customer_demographics.cd_dep_count AS cd_dep_count,
  COUNT(*) AS cnt4,
  customer_demographics.cd_dep_employed_count AS cd_dep_employed_count,
  COUNT(*) AS cnt5,
  customer_demographics.cd_dep_college_count AS cd_dep_college_count,
  COUNT(*) AS cnt6
FROM customer AS c_r
CROSS JOIN customer_address AS ca_r
CROSS JOIN customer_demographics AS customer_demographics
WHERE
  c_r.c_current_addr_sk = ca_r.ca_address_sk
  AND ca_r.ca_county IN (
    'Rush County',
    'Toole County',
    'Jefferson County',
    'Dona Ana County',
    'La Porte County'
  )
  AND customer_demographics.cd_demo_sk = c_r.c_current_cdemo_sk
  AND EXISTS(
    SELECT
      store_sales.ss_sold_date_sk AS ss_sold_date_sk,
      store_sales.ss_sold_time_sk AS ss_sold_time_sk,
      store_sales.ss_item_sk AS ss_item_sk,
      store_sales.ss_customer_sk AS ss_customer_sk,
      store_sales.ss_cdemo_sk AS ss_cdemo_sk,
      store_sales.ss_hdemo_sk AS ss_hdemo_sk,
      store_sales.ss_addr_sk AS ss_addr_sk,
      store_sales.ss_store_sk AS ss_store_sk,
      store_sales.ss_promo_sk AS ss_promo_sk,
      store_sales.ss_ticket_number AS ss_ticket_number,
      store_sales.ss_quantity AS ss_quantity,
      store_sales.ss_wholesale_cost AS ss_wholesale_cost,
      store_sales.ss_list_price AS ss_list_price,
      store_sales.ss_sales_price AS ss_sales_price,
      store_sales.ss_ext_discount_amt AS ss_ext_discount_amt,
      store_sales.ss_ext_sales_price AS ss_ext_sales_price,
      store_sales.ss_ext_wholesale_cost AS ss_ext_wholesale_cost,
      store_sales.ss_ext_list_price AS ss_ext_list_price,
      store_sales.ss_ext_tax AS ss_ext_tax,
      store_sales.ss_coupon_amt AS ss_coupon_amt,
      store_sales.ss_net_paid AS ss_net_paid,
      store_sales.ss_net_paid_inc_tax AS ss_net_paid_inc_tax,
      store_sales.ss_net_profit AS ss_net_profit,
      date_dim.d_date_sk AS d_date_sk,
      date_dim.d_date_id AS d_date_id,
      date_dim.d_date AS d_date,
      date_dim.d_month_seq AS d_month_seq,
      date_dim.d_week_seq AS d_week_seq,
      date_dim.d_quarter_seq AS d_quarter_seq,
      date_dim.d_year AS d_year,
      date_dim.d_dow AS d_dow,
      date_dim.d_moy AS d_moy,
      date_dim.d_dom AS d_dom,
      date_dim.d_qoy AS d_qoy,
      date_dim.d_fy_year AS d_fy_year,
      date_dim.d_fy_quarter_seq AS d_fy_quarter_seq,
      date_dim.d_fy_week_seq AS d_fy_week_seq,
      date_dim.d_day_name AS d_day_name,
      date_dim.d_quarter_name AS d_quarter_name,
      date_dim.d_holiday AS d_holiday,
      date_dim.d_weekend AS d_weekend,
      date_dim.d_following_holiday AS d_following_holiday,
      date_dim.d_first_dom AS d_first_dom,
      date_dim.d_last_dom AS d_last_dom,
      date_dim.d_same_day_ly AS d_same_day_ly,
      date_dim.d_same_day_lq AS d_same_day_lq,
      date_dim.d_current_day AS d_current_day,
      date_dim.d_current_week AS d_current_week,
      date_dim.d_current_month AS d_current_month,
      date_dim.d_current_quarter AS d_current_quarter,
      date_dim.d_current_year AS d_current_year
    FROM store_sales AS store_sales
    CROSS JOIN date_dim AS date_dim
    WHERE
      c_r.c_customer_sk = store_sales.ss_customer_sk
      AND store_sales.ss_sold_date_sk = date_dim.d_date_sk
      AND date_dim.d_year = 2002
      AND date_dim.d_moy BETWEEN 1 AND 1 + 3
  )
  AND (
    EXISTS(
      SELECT
        web_sales.ws_sold_date_sk AS ws_sold_date_sk,
        web_sales.ws_sold_time_sk AS ws_sold_time_sk,
        web_sales.ws_ship_date_sk AS ws_ship_date_sk,
        web_sales.ws_item_sk AS ws_item_sk,
        web_sales.ws_bill_customer_sk AS ws_bill_customer_sk,
        web_sales.ws_bill_cdemo_sk AS ws_bill_cdemo_sk,
        web_sales.ws_bill_hdemo_sk AS ws_bill_hdemo_sk,
        web_sales.ws_bill_addr_sk AS ws_bill_addr_sk,
        web_sales.ws_ship_customer_sk AS ws_ship_customer_sk,
        web_sales.ws_ship_cdemo_sk AS ws_ship_cdemo_sk,
        web_sales.ws_ship_hdemo_sk AS ws_ship_hdemo_sk,
        web_sales.ws_ship_addr_sk AS ws_ship_addr_sk,
        web_sales.ws_web_page_sk AS ws_web_page_sk,
        web_sales.ws_web_site_sk AS ws_web_site_sk,
        web_sales.ws_ship_mode_sk AS ws_ship_mode_sk,
        web_sales.ws_warehouse_sk AS ws_warehouse_sk,
        web_sales.ws_promo_sk AS ws_promo_sk,
        web_sales.ws_order_number AS ws_order_number,
        web_sales.ws_quantity AS ws_quantity,
        web_sales.ws_wholesale_cost AS ws_wholesale_cost,
        web_sales.ws_list_price AS ws_list_price,
        web_sales.ws_sales_price AS ws_sales_price,
        web_sales.ws_ext_discount_amt AS ws_ext_discount_amt,
        web_sales.ws_ext_sales_price AS ws_ext_sales_price,
        web_sales.ws_ext_wholesale_cost AS ws_ext_wholesale_cost,
        web_sales.ws_ext_list_price AS ws_ext_list_price,
        web_sales.ws_ext_tax AS ws_ext_tax,
        web_sales.ws_coupon_amt AS ws_coupon_amt,
        web_sales.ws_ext_ship_cost AS ws_ext_ship_cost,
        web_sales.ws_net_paid AS ws_net_paid,
        web_sales.ws_net_paid_inc_tax AS ws_net_paid_inc_tax,
        web_sales.ws_net_paid_inc_ship AS ws_net_paid_inc_ship,
        web_sales.ws_net_paid_inc_ship_tax AS ws_net_paid_inc_ship_tax,
        web_sales.ws_net_profit AS ws_net_profit,
        date_dim.d_date_sk AS d_date_sk,
        date_dim.d_date_id AS d_date_id,
        date_dim.d_date AS d_date,
        date_dim.d_month_seq AS d_month_seq,
        date_dim.d_week_seq AS d_week_seq,
        date_dim.d_quarter_seq AS d_quarter_seq,
        date_dim.d_year AS d_year,
        date_dim.d_dow AS d_dow,
        date_dim.d_moy AS d_moy,
        date_dim.d_dom AS d_dom,
        date_dim.d_qoy AS d_qoy,
        date_dim.d_fy_year AS d_fy_year,
        date_dim.d_fy_quarter_seq AS d_fy_quarter_seq,
        date_dim.d_fy_week_seq AS d_fy_week_seq,
        date_dim.d_day_name AS d_day_name,
        date_dim.d_quarter_name AS d_quarter_name,
        date_dim.d_holiday AS d_holiday,
        date_dim.d_weekend AS d_weekend,
        date_dim.d_following_holiday AS d_following_holiday,
        date_dim.d_first_dom AS d_first_dom,
        date_dim.d_last_dom AS d_last_dom,
        date_dim.d_same_day_ly AS d_same_day_ly,
        date_dim.d_same_day_lq AS d_same_day_lq,
        date_dim.d_current_day AS d_current_day,
        date_dim.d_current_week AS d_current_week,
        date_dim.d_current_month AS d_current_month,
        date_dim.d_current_quarter AS d_current_quarter,
        date_dim.d_current_year AS d_current_year
      FROM web_sales AS web_sales
      CROSS JOIN date_dim AS date_dim
      WHERE
        c_r.c_customer_sk = web_sales.ws_bill_customer_sk
        AND web_sales.ws_sold_date_sk = date_dim.d_date_sk
        AND date_dim.d_year = 2002
        AND date_dim.d_moy BETWEEN 1 AND 1 + 3
    )
    OR EXISTS(
      SELECT
        catalog_sales.cs_sold_date_sk AS cs_sold_date_sk,
        catalog_sales.cs_sold_time_sk AS cs_sold_time_sk,
        catalog_sales.cs_ship_date_sk AS cs_ship_date_sk,
        catalog_sales.cs_bill_customer_sk AS cs_bill_customer_sk,
        catalog_sales.cs_bill_cdemo_sk AS cs_bill_cdemo_sk,
        catalog_sales.cs_bill_hdemo_sk AS cs_bill_hdemo_sk,
        catalog_sales.cs_bill_addr_sk AS cs_bill_addr_sk,
        catalog_sales.cs_ship_customer_sk AS cs_ship_customer_sk,
        catalog_sales.cs_ship_cdemo_sk AS cs_ship_cdemo_sk,
        catalog_sales.cs_ship_hdemo_sk AS cs_ship_hdemo_sk,
        catalog_sales.cs_ship_addr_sk AS cs_ship_addr_sk,
        catalog_sales.cs_call_center_sk AS cs_call_center_sk,
        catalog_sales.cs_catalog_page_sk AS cs_catalog_page_sk,
        catalog_sales.cs_ship_mode_sk AS cs_ship_mode_sk,
        catalog_sales.cs_warehouse_sk AS cs_warehouse_sk,
        catalog_sales.cs_item_sk AS cs_item_sk,
        catalog_sales.cs_promo_sk AS cs_promo_sk,
        catalog_sales.cs_order_number AS cs_order_number,
        catalog_sales.cs_quantity AS cs_quantity,
        catalog_sales.cs_wholesale_cost AS cs_wholesale_cost,
        catalog_sales.cs_list_price AS cs_list_price,
        catalog_sales.cs_sales_price AS cs_sales_price,
        catalog_sales.cs_ext_discount_amt AS cs_ext_discount_amt,
        catalog_sales.cs_ext_sales_price AS cs_ext_sales_price,
        catalog_sales.cs_ext_wholesale_cost AS cs_ext_wholesale_cost,
        catalog_sales.cs_ext_list_price AS cs_ext_list_price,
        catalog_sales.cs_ext_tax AS cs_ext_tax,
        catalog_sales.cs_coupon_amt AS cs_coupon_amt,
        catalog_sales.cs_ext_ship_cost AS cs_ext_ship_cost,
        catalog_sales.cs_net_paid AS cs_net_paid,
        catalog_sales.cs_net_paid_inc_tax AS cs_net_paid_inc_tax,
        catalog_sales.cs_net_paid_inc_ship AS cs_net_paid_inc_ship,
        catalog_sales.cs_net_paid_inc_ship_tax AS cs_net_paid_inc_ship_tax,
        catalog_sales.cs_net_profit AS cs_net_profit,
        date_dim.d_date_sk AS d_date_sk,
        date_dim.d_date_id AS d_date_id,
        date_dim.d_date AS d_date,
        date_dim.d_month_seq AS d_month_seq,
        date_dim.d_week_seq AS d_week_seq,
        date_dim.d_quarter_seq AS d_quarter_seq,
        date_dim.d_year AS d_year,
        date_dim.d_dow AS d_dow,
        date_dim.d_moy AS d_moy,
        date_dim.d_dom AS d_dom,
        date_dim.d_qoy AS d_qoy,
        date_dim.d_fy_year AS d_fy_year,
        date_dim.d_fy_quarter_seq AS d_fy_quarter_seq,
        date_dim.d_fy_week_seq AS d_fy_week_seq,
        date_dim.d_day_name AS d_day_name,
        date_dim.d_quarter_name AS d_quarter_name,
        date_dim.d_holiday AS d_holiday,
        date_dim.d_weekend AS d_weekend,
        date_dim.d_following_holiday AS d_following_holiday,
        date_dim.d_first_dom AS d_first_dom,
        date_dim.d_last_dom AS d_last_dom,
        date_dim.d_same_day_ly AS d_same_day_ly,
        date_dim.d_same_day_lq AS d_same_day_lq,
        date_dim.d_current_day AS d_current_day,
        date_dim.d_current_week AS d_current_week,
        date_dim.d_current_month AS d_current_month,
        date_dim.d_current_quarter AS d_current_quarter,
        date_dim.d_current_year AS d_current_year
      FROM catalog_sales AS catalog_sales
      CROSS JOIN date_dim AS date_dim
      WHERE
        c_r.c_customer_sk = catalog_sales.cs_ship_customer_sk
        AND catalog_sales.cs_sold_date_sk = date_dim.d_date_sk
        AND date_dim.d_year = 2002
        AND date_dim.d_moy BETWEEN 1 AND 1 + 3
    )
  )
GROUP BY
  customer_demographics.cd_gender,
  customer_demographics.cd_marital_status,
  customer_demographics.cd_education_status,
  customer_demographics.cd_purchase_estimate,
  customer_demographics.cd_credit_rating,
  customer_demographics.cd_dep_count,
  customer_demographics.cd_dep_employed_count,
  customer_demographics.cd_dep_college_count
ORDER BY
  cd_gender,
  cd_marital_status,
  cd_education_status,
  cd_purchase_estimate,
  cd_credit_rating,
  cd_dep_count,
  cd_dep_employed_count,
  cd_dep_college_count
LIMIT 100
