-- tpcds/q33 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  tmp1_r.i_manufact_id AS i_manufact_id,
  SUM(tmp1_r.total_sales) AS total_sales
FROM (
  SELECT
    ss_r.i_manufact_id AS i_manufact_id,
    ss_r.total_sales AS total_sales
  FROM (
    SELECT
      item.i_manufact_id AS i_manufact_id,
      SUM(store_sales.ss_ext_sales_price) AS total_sales
    FROM store_sales AS store_sales
    JOIN date_dim AS date_dim
      ON (
        store_sales.ss_sold_date_sk = date_dim.d_date_sk AND date_dim.d_year = 1998
      )
      AND date_dim.d_moy = 5
    JOIN customer_address AS customer_address
      ON store_sales.ss_addr_sk = customer_address.ca_address_sk
      AND customer_address.ca_gmt_offset = -5
    JOIN item AS item
      ON store_sales.ss_item_sk = item.i_item_sk
    WHERE
      item.i_manufact_id IN (
        SELECT
          item.i_manufact_id AS i_manufact_id
        FROM item AS item
        WHERE
          item.i_category IN ('Electronics')
      )
      AND TRUE
      AND TRUE
      AND TRUE
      AND TRUE
      AND TRUE
      AND TRUE
    GROUP BY
      item.i_manufact_id
  ) AS ss_r
  UNION ALL
  SELECT
    cs_r.i_manufact_id AS i_manufact_id,
    cs_r.total_sales AS total_sales
  FROM (
    SELECT
      item.i_manufact_id AS i_manufact_id,
      SUM(catalog_sales.cs_ext_sales_price) AS total_sales
    FROM catalog_sales AS catalog_sales
    JOIN date_dim AS date_dim
      ON (
        catalog_sales.cs_sold_date_sk = date_dim.d_date_sk AND date_dim.d_year = 1998
      )
      AND date_dim.d_moy = 5
    JOIN customer_address AS customer_address
      ON catalog_sales.cs_bill_addr_sk = customer_address.ca_address_sk
      AND customer_address.ca_gmt_offset = -5
    JOIN item AS item
      ON catalog_sales.cs_item_sk = item.i_item_sk
    WHERE
      item.i_manufact_id IN (
        SELECT
          item.i_manufact_id AS i_manufact_id
        FROM item AS item
        WHERE
          item.i_category IN ('Electronics')
      )
      AND TRUE
      AND TRUE
      AND TRUE
      AND TRUE
      AND TRUE
      AND TRUE
    GROUP BY
      item.i_manufact_id
  ) AS cs_r
  UNION ALL
  SELECT
    ws_r.i_manufact_id AS i_manufact_id,
    ws_r.total_sales AS total_sales
  FROM (
    SELECT
      item.i_manufact_id AS i_manufact_id,
      SUM(web_sales.ws_ext_sales_price) AS total_sales
    FROM web_sales AS web_sales
    JOIN date_dim AS date_dim
      ON (
        web_sales.ws_sold_date_sk = date_dim.d_date_sk AND date_dim.d_year = 1998
      )
      AND date_dim.d_moy = 5
    JOIN customer_address AS customer_address
      ON web_sales.ws_bill_addr_sk = customer_address.ca_address_sk
      AND customer_address.ca_gmt_offset = -5
    JOIN item AS item
      ON web_sales.ws_item_sk = item.i_item_sk
    WHERE
      item.i_manufact_id IN (
        SELECT
          item.i_manufact_id AS i_manufact_id
        FROM item AS item
        WHERE
          item.i_category IN ('Electronics')
      )
      AND TRUE
      AND TRUE
      AND TRUE
      AND TRUE
      AND TRUE
      AND TRUE
    GROUP BY
      item.i_manufact_id
  ) AS ws_r
) AS tmp1_r
GROUP BY
  tmp1_r.i_manufact_id
ORDER BY
  total_sales
LIMIT 100
