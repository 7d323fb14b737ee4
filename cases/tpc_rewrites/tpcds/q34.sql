-- tpcds/q34 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  customer.c_last_name AS c_last_name,
  customer.c_first_name AS c_first_name,
  customer.c_salutation AS c_salutation,
  customer.c_preferred_cust_flag AS c_preferred_cust_flag,
  dn_r.ss_ticket_number AS ss_ticket_number,
  dn_r.cnt AS cnt
FROM (
  SELECT
    store_sales.ss_ticket_number AS ss_ticket_number,
    store_sales.ss_customer_sk AS ss_customer_sk,
    COUNT(*) AS cnt
  FROM store_sales AS store_sales
  JOIN date_dim AS date_dim
    ON (
      store_sales.ss_sold_date_sk = date_dim.d_date_sk
      AND (
        date_dim.d_dom BETWEEN 1 AND 3 OR date_dim.d_dom BETWEEN 25 AND 28
      )
    )
    AND date_dim.d_year IN (1999, 1999 + 1, 1999 + 2)
  JOIN store AS store
    ON store_sales.ss_store_sk = store.s_store_sk
    AND store.s_county IN (
      'Williamson County',
      'Williamson County',
      'Williamson County',
      'Williamson County',
      'Williamson County',
      'Williamson County',
      'Williamson County',
      'Williamson County'
    )
  JOIN household_demographics AS household_demographics
    ON (
      (
        store_sales.ss_hdemo_sk = household_demographics.hd_demo_sk
        AND (
          household_demographics.hd_buy_potential = '>10000'
          OR household_demographics.hd_buy_potential = 'unknown'
        )
      )
      AND household_demographics.hd_vehicle_count > 0
    )
    AND (
      CASE
        WHEN household_demographics.hd_vehicle_count > 0
        THEN household_demographics.hd_dep_count / household_demographics.hd_vehicle_count
        ELSE NULL
      END
    ) > 1.2
  WHERE
    TRUE AND TRUE AND TRUE AND (
      TRUE
    ) AND (
      TRUE
    ) AND TRUE AND TRUE AND TRUE AND TRUE
  GROUP BY
    store_sales.ss_ticket_number,
    store_sales.ss_customer_sk
) AS dn_r
JOIN customer AS customer
  ON dn_r.ss_customer_sk = customer.c_customer_sk
WHERE
  TRUE AND dn_r.cnt BETWEEN 15 AND 20
ORDER BY
  c_last_name,
  c_first_name,
  c_salutation,
  c_preferred_cust_flag DESC
