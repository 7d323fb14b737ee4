-- tpcds/q24b rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  ssales_r.c_last_name AS c_last_name,
  ssales_r.c_first_name AS c_first_name,
  ssales_r.s_store_name AS s_store_name,
  SUM(ssales_r.netpaid_r) AS paid
FROM (
  SELECT
    customer.c_last_name AS c_last_name,
    customer.c_first_name AS c_first_name,
    store.s_store_name AS s_store_name,
    customer_address.ca_state AS ca_state,
    store.s_state AS s_state,
    item.i_color AS i_color,
    item.i_current_price AS i_current_price,
    item.i_manager_id AS i_manager_id,
    item.i_units AS i_units,
    item.i_size AS i_size,
    SUM(store_sales.ss_net_paid) AS netpaid_r
  FROM store_sales AS store_sales
  JOIN store_returns AS store_returns
    ON store_sales.ss_ticket_number = store_returns.sr_ticket_number
    AND store_sales.ss_item_sk = store_returns.sr_item_sk
  JOIN store AS store
    ON store_sales.ss_store_sk = store.s_store_sk AND store.s_market_id = 8
  JOIN item AS item
    ON store_sales.ss_item_sk = item.i_item_sk
  JOIN customer AS customer
    ON store_sales.ss_customer_sk = customer.c_customer_sk
  JOIN customer_address AS customer_address
    ON customer.c_birth_country = UPPER(customer_address.ca_country)
    AND store.s_zip = customer_address.ca_zip
  WHERE
    TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE
  GROUP BY
    customer.c_last_name,
    customer.c_first_name,
    store.s_store_name,
    customer_address.ca_state,
    store.s_state,
    item.i_color,
    item.i_current_price,
    item.i_manager_id,
    item.i_units,
    item.i_size
) AS ssales_r
WHERE
  ssales_r.i_color = 'chiffon'
GROUP BY
  ssales_r.c_last_name,
  ssales_r.c_first_name,
  ssales_r.s_store_name
HAVING
  SUM(ssales_r.netpaid_r) > (
    SELECT
      0.05 * AVG(ssales_r.netpaid_r) AS _col_0
    FROM (
      SELECT
        customer.c_last_name AS c_last_name,
        customer.c_first_name AS c_first_name,
        store.s_store_name AS s_store_name,
        customer_address.ca_state AS ca_state,
        store.s_state AS s_state,
        item.i_color AS i_color,
        item.i_current_price AS i_current_price,
        item.i_manager_id AS i_manager_id,
        item.i_units AS i_units,
        item.i_size AS i_size,
        SUM(store_sales.ss_net_paid) AS netpaid_r
      FROM store_sales AS store_sales
      JOIN store_returns AS store_returns
        ON store_sales.ss_ticket_number = store_returns.sr_ticket_number
        AND store_sales.ss_item_sk = store_returns.sr_item_sk
      JOIN store AS store
        ON store_sales.ss_store_sk = store.s_store_sk AND store.s_market_id = 8
      JOIN item AS item
        ON store_sales.ss_item_sk = item.i_item_sk
      JOIN customer AS customer
        ON store_sales.ss_customer_sk = customer.c_customer_sk
      JOIN customer_address AS customer_address
        ON customer.c_birth_country = UPPER(customer_address.ca_country)
        AND store.s_zip = customer_address.ca_zip
      WHERE
        TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE
      GROUP BY
        customer.c_last_name,
        customer.c_first_name,
        store.s_store_name,
        customer_address.ca_state,
        store.s_state,
        item.i_color,
        item.i_current_price,
        item.i_manager_id,
        item.i_units,
        item.i_size
    ) AS ssales_r
  )
