-- tpcds/q64 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  cs1_r.product_name AS product_name,
  cs1_r.store_name AS store_name,
  cs1_r.store_zip AS store_zip,
  cs1_r.b_street_number AS b_street_number,
  cs1_r.b_streen_name AS b_streen_name,
  cs1_r.b_city AS b_city,
  cs1_r.b_zip AS b_zip,
  cs1_r.c_street_number AS c_street_number,
  cs1_r.c_street_name AS c_street_name,
  cs1_r.c_city AS c_city,
  cs1_r.c_zip AS c_zip,
  cs1_r.syear AS syear,
  cs1_r.cnt AS cnt,
  cs1_r.s1 AS s1,
  cs1_r.s2 AS s2,
  cs1_r.s3 AS s3,
  cs2_r.s1 AS s1,
  cs2_r.s2 AS s2,
  cs2_r.s3 AS s3,
  cs2_r.syear AS syear,
  cs2_r.cnt AS cnt
FROM (
  SELECT
    item.i_product_name AS product_name,
    item.i_item_sk AS item_sk_r,
    store.s_store_name AS store_name,
    store.s_zip AS store_zip,
    ad1_r.ca_street_number AS b_street_number,
    ad1_r.ca_street_name AS b_streen_name,
    ad1_r.ca_city AS b_city,
    ad1_r.ca_zip AS b_zip,
    ad2_r.ca_street_number AS c_street_number,
    ad2_r.ca_street_name AS c_street_name,
    ad2_r.ca_city AS c_city,
    ad2_r.ca_zip AS c_zip,
    d1_r.d_year AS syear,
    d2_r.d_year AS fsyear_r,
    d3_r.d_year AS s2year_r,
    COUNT(*) AS cnt,
    SUM(store_sales.ss_wholesale_cost) AS s1,
    SUM(store_sales.ss_list_price) AS s2,
    SUM(store_sales.ss_coupon_amt) AS s3
  FROM store_sales AS store_sales
  JOIN store_returns AS store_returns
    ON store_sales.ss_item_sk = store_returns.sr_item_sk
    AND store_sales.ss_ticket_number = store_returns.sr_ticket_number
  JOIN (
    SELECT
      catalog_sales.cs_item_sk AS cs_item_sk,
      SUM(catalog_sales.cs_ext_list_price) AS sale_r,
      SUM(
        catalog_returns.cr_refunded_cash + catalog_returns.cr_reversed_charge + catalog_returns.cr_store_credit
      ) AS refund_r
    FROM catalog_sales AS catalog_sales
    JOIN catalog_returns AS catalog_returns
      ON catalog_sales.cs_item_sk = catalog_returns.cr_item_sk
      AND catalog_sales.cs_order_number = catalog_returns.cr_order_number
    WHERE
      TRUE AND TRUE
    GROUP BY
      catalog_sales.cs_item_sk
    HAVING
      SUM(catalog_sales.cs_ext_list_price) > 2 * SUM(
        catalog_returns.cr_refunded_cash + catalog_returns.cr_reversed_charge + catalog_returns.cr_store_credit
      )
  ) AS cs_ui_r
    ON store_sales.ss_item_sk = cs_ui_r.cs_item_sk
  JOIN date_dim AS d1_r
    ON store_sales.ss_sold_date_sk = d1_r.d_date_sk
  CROSS JOIN date_dim AS d2_r
  CROSS JOIN date_dim AS d3_r
  JOIN store AS store
    ON store_sales.ss_store_sk = store.s_store_sk
  JOIN customer AS customer
    ON (
      store_sales.ss_customer_sk = customer.c_customer_sk
      AND customer.c_first_sales_date_sk = d2_r.d_date_sk
    )
    AND customer.c_first_shipto_date_sk = d3_r.d_date_sk
  JOIN customer_demographics AS cd1_r
    ON store_sales.ss_cdemo_sk = cd1_r.cd_demo_sk
  JOIN customer_demographics AS cd2_r
    ON customer.c_current_cdemo_sk = cd2_r.cd_demo_sk
    AND cd1_r.cd_marital_status <> cd2_r.cd_marital_status
  JOIN promotion AS promotion
    ON store_sales.ss_promo_sk = promotion.p_promo_sk
  JOIN household_demographics AS hd1_r
    ON store_sales.ss_hdemo_sk = hd1_r.hd_demo_sk
  JOIN household_demographics AS hd2_r
    ON customer.c_current_hdemo_sk = hd2_r.hd_demo_sk
  JOIN customer_address AS ad1_r
    ON store_sales.ss_addr_sk = ad1_r.ca_address_sk
  JOIN customer_address AS ad2_r
    ON customer.c_current_addr_sk = ad2_r.ca_address_sk
  JOIN income_band AS ib1_r
    ON hd1_r.hd_income_band_sk = ib1_r.ib_income_band_sk
  JOIN income_band AS ib2_r
    ON hd2_r.hd_income_band_sk = ib2_r.ib_income_band_sk
  JOIN item AS item
    ON (
      (
        store_sales.ss_item_sk = item.i_item_sk
        AND item.i_color IN ('purple', 'burlywood', 'indian', 'spring', 'floral', 'medium')
      )
      AND item.i_current_price BETWEEN 64 AND 64 + 10
    )
    AND item.i_current_price BETWEEN 64 + 1 AND 64 + 15
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
  GROUP BY
    item.i_product_name,
    item.i_item_sk,
    store.s_store_name,
    store.s_zip,
    ad1_r.ca_street_number,
    ad1_r.ca_street_name,
    ad1_r.ca_city,
    ad1_r.ca_zip,
    ad2_r.ca_street_number,
    ad2_r.ca_street_name,
    ad2_r.ca_city,
    ad2_r.ca_zip,
    d1_r.d_year,
    d2_r.d_year,
    d3_r.d_year
) AS cs1_r
JOIN (
  SELECT
    item.i_product_name AS product_name,
    item.i_item_sk AS item_sk_r,
    store.s_store_name AS store_name,
    store.s_zip AS store_zip,
    ad1_r.ca_street_number AS b_street_number,
    ad1_r.ca_street_name AS b_streen_name,
    ad1_r.ca_city AS b_city,
    ad1_r.ca_zip AS b_zip,
    ad2_r.ca_street_number AS c_street_number,
    ad2_r.ca_street_name AS c_street_name,
    ad2_r.ca_city AS c_city,
    ad2_r.ca_zip AS c_zip,
    d1_r.d_year AS syear,
    d2_r.d_year AS fsyear_r,
    d3_r.d_year AS s2year_r,
    COUNT(*) AS cnt,
    SUM(store_sales.ss_wholesale_cost) AS s1,
    SUM(store_sales.ss_list_price) AS s2,
    SUM(store_sales.ss_coupon_amt) AS s3
  FROM store_sales AS store_sales
  JOIN store_returns AS store_returns
    ON store_sales.ss_item_sk = store_returns.sr_item_sk
    AND store_sales.ss_ticket_number = store_returns.sr_ticket_number
  JOIN (
    SELECT
      catalog_sales.cs_item_sk AS cs_item_sk,
      SUM(catalog_sales.cs_ext_list_price) AS sale_r,
      SUM(
        catalog_returns.cr_refunded_cash + catalog_returns.cr_reversed_charge + catalog_returns.cr_store_credit
      ) AS refund_r
    FROM catalog_sales AS catalog_sales
    JOIN catalog_returns AS catalog_returns
      ON catalog_sales.cs_item_sk = catalog_returns.cr_item_sk
      AND catalog_sales.cs_order_number = catalog_returns.cr_order_number
    WHERE
      TRUE AND TRUE
    GROUP BY
      catalog_sales.cs_item_sk
    HAVING
      SUM(catalog_sales.cs_ext_list_price) > 2 * SUM(
        catalog_returns.cr_refunded_cash + catalog_returns.cr_reversed_charge + catalog_returns.cr_store_credit
      )
  ) AS cs_ui_r
    ON store_sales.ss_item_sk = cs_ui_r.cs_item_sk
  JOIN date_dim AS d1_r
    ON store_sales.ss_sold_date_sk = d1_r.d_date_sk
  CROSS JOIN date_dim AS d2_r
  CROSS JOIN date_dim AS d3_r
  JOIN store AS store
    ON store_sales.ss_store_sk = store.s_store_sk
  JOIN customer AS customer
    ON (
      store_sales.ss_customer_sk = customer.c_customer_sk
      AND customer.c_first_sales_date_sk = d2_r.d_date_sk
    )
    AND customer.c_first_shipto_date_sk = d3_r.d_date_sk
  JOIN customer_demographics AS cd1_r
    ON store_sales.ss_cdemo_sk = cd1_r.cd_demo_sk
  JOIN customer_demographics AS cd2_r
    ON customer.c_current_cdemo_sk = cd2_r.cd_demo_sk
    AND cd1_r.cd_marital_status <> cd2_r.cd_marital_status
  JOIN promotion AS promotion
    ON store_sales.ss_promo_sk = promotion.p_promo_sk
  JOIN household_demographics AS hd1_r
    ON store_sales.ss_hdemo_sk = hd1_r.hd_demo_sk
  JOIN household_demographics AS hd2_r
    ON customer.c_current_hdemo_sk = hd2_r.hd_demo_sk
  JOIN customer_address AS ad1_r
    ON store_sales.ss_addr_sk = ad1_r.ca_address_sk
  JOIN customer_address AS ad2_r
    ON customer.c_current_addr_sk = ad2_r.ca_address_sk
  JOIN income_band AS ib1_r
    ON hd1_r.hd_income_band_sk = ib1_r.ib_income_band_sk
  JOIN income_band AS ib2_r
    ON hd2_r.hd_income_band_sk = ib2_r.ib_income_band_sk
  JOIN item AS item
    ON (
      (
        store_sales.ss_item_sk = item.i_item_sk
        AND item.i_color IN ('purple', 'burlywood', 'indian', 'spring', 'floral', 'medium')
      )
      AND item.i_current_price BETWEEN 64 AND 64 + 10
    )
    AND item.i_current_price BETWEEN 64 + 1 AND 64 + 15
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
  GROUP BY
    item.i_product_name,
    item.i_item_sk,
    store.s_store_name,
    store.s_zip,
    ad1_r.ca_street_number,
    ad1_r.ca_street_name,
    ad1_r.ca_city,
    ad1_r.ca_zip,
    ad2_r.ca_street_number,
    ad2_r.ca_street_name,
    ad2_r.ca_city,
    ad2_r.ca_zip,
    d1_r.d_year,
    d2_r.d_year,
    d3_r.d_year
) AS cs2_r
  ON (
    (
      (
        cs1_r.item_sk_r = cs2_r.item_sk_r AND cs2_r.syear = 1999 + 1
      )
      AND cs2_r.cnt <= cs1_r.cnt
    )
    AND cs1_r.store_name = cs2_r.store_name
  )
  AND cs1_r.store_zip = cs2_r.store_zip
WHERE
  TRUE AND cs1_r.syear = 1999 AND TRUE AND TRUE AND TRUE AND TRUE
ORDER BY
  cs1_r.product_name,
  cs1_r.store_name,
  cs2_r.cnt
