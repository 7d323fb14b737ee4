-- tpcds/q23a rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  SUM(y_r.sales_r) AS `sum(sales)`
FROM (
  (
    SELECT
      catalog_sales.cs_quantity * catalog_sales.cs_list_price AS sales_r
    FROM catalog_sales AS catalog_sales
    JOIN date_dim AS date_dim
      ON (
        date_dim.d_year = 2000 AND date_dim.d_moy = 2
      )
      AND catalog_sales.cs_sold_date_sk = date_dim.d_date_sk
    WHERE
      TRUE
      AND TRUE
      AND TRUE
      AND catalog_sales.cs_item_sk IN (
        SELECT
          frequent_ss_items_r.item_sk_r AS item_sk_r
        FROM (
          SELECT
            SUBSTRING(item.i_item_desc, 1, 30) AS itemdesc_r,
            item.i_item_sk AS item_sk_r,
            date_dim.d_date AS solddate_r,
            COUNT(*) AS cnt_r
          FROM store_sales AS store_sales
          JOIN date_dim AS date_dim
            ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
            AND date_dim.d_year IN (2000, 2000 + 1, 2000 + 2, 2000 + 3)
          JOIN item AS item
            ON store_sales.ss_item_sk = item.i_item_sk
          WHERE
            TRUE AND TRUE AND TRUE
          GROUP BY
            SUBSTRING(item.i_item_desc, 1, 30),
            item.i_item_sk,
            date_dim.d_date
          HAVING
            COUNT(*) > 4
        ) AS frequent_ss_items_r
      )
      AND catalog_sales.cs_bill_customer_sk IN (
        SELECT
          best_ss_customer_r.c_customer_sk AS c_customer_sk
        FROM (
          SELECT
            customer.c_customer_sk AS c_customer_sk,
            SUM(store_sales.ss_quantity * store_sales.ss_sales_price) AS ssales_r
          FROM store_sales AS store_sales
          JOIN customer AS customer
            ON store_sales.ss_customer_sk = customer.c_customer_sk
          WHERE
            TRUE
          GROUP BY
            customer.c_customer_sk
          HAVING
            SUM(store_sales.ss_quantity * store_sales.ss_sales_price) > (
              50 / 100.0
            ) * (
              SELECT
                max_store_sales_r.tpcds_cmax_r AS tpcds_cmax_r
              FROM (
                SELECT
                  MAX(x_r.csales_r) AS tpcds_cmax_r
                FROM (
                  SELECT
                    customer.c_customer_sk AS c_customer_sk,
                    SUM(store_sales.ss_quantity * store_sales.ss_sales_price) AS csales_r
                  FROM store_sales AS store_sales
                  JOIN customer AS customer
                    ON store_sales.ss_customer_sk = customer.c_customer_sk
                  JOIN date_dim AS date_dim
                    ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
                    AND date_dim.d_year IN (2000, 2000 + 1, 2000 + 2, 2000 + 3)
                  WHERE
                    TRUE AND TRUE AND TRUE
                  GROUP BY
                    customer.c_customer_sk
                ) AS x_r
              ) AS max_store_sales_r
            )
        ) AS best_ss_customer_r
      )
  )
  UNION ALL
  (
    SELECT
      web_sales.ws_quantity * web_sales.ws_list_price AS sales_r
    FROM web_sales AS web_sales
    JOIN date_dim AS date_dim
      ON (
        date_dim.d_year = 2000 AND date_dim.d_moy = 2
      )
      AND web_sales.ws_sold_date_sk = date_dim.d_date_sk
    WHERE
      TRUE
      AND TRUE
      AND TRUE
      AND web_sales.ws_item_sk IN (
        SELECT
          frequent_ss_items_r.item_sk_r AS item_sk_r
        FROM (
          SELECT
            SUBSTRING(item.i_item_desc, 1, 30) AS itemdesc_r,
            item.i_item_sk AS item_sk_r,
            date_dim.d_date AS solddate_r,
            COUNT(*) AS cnt_r
          FROM store_sales AS store_sales
          JOIN date_dim AS date_dim
            ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
            AND date_dim.d_year IN (2000, 2000 + 1, 2000 + 2, 2000 + 3)
          JOIN item AS item
            ON store_sales.ss_item_sk = item.i_item_sk
          WHERE
            TRUE AND TRUE AND TRUE
          GROUP BY
            SUBSTRING(item.i_item_desc, 1, 30),
            item.i_item_sk,
            date_dim.d_date
          HAVING
            COUNT(*) > 4
        ) AS frequent_ss_items_r
      )
      AND web_sales.ws_bill_customer_sk IN (
        SELECT
          best_ss_customer_r.c_customer_sk AS c_customer_sk
        FROM (
          SELECT
            customer.c_customer_sk AS c_customer_sk,
            SUM(store_sales.ss_quantity * store_sales.ss_sales_price) AS ssales_r
          FROM store_sales AS store_sales
          JOIN customer AS customer
            ON store_sales.ss_customer_sk = customer.c_customer_sk
          WHERE
            TRUE
          GROUP BY
            customer.c_customer_sk
          HAVING
            SUM(store_sales.ss_quantity * store_sales.ss_sales_price) > (
              50 / 100.0
            ) * (
              SELECT
                max_store_sales_r.tpcds_cmax_r AS tpcds_cmax_r
              FROM (
                SELECT
                  MAX(x_r.csales_r) AS tpcds_cmax_r
                FROM (
                  SELECT
                    customer.c_customer_sk AS c_customer_sk,
                    SUM(store_sales.ss_quantity * store_sales.ss_sales_price) AS csales_r
                  FROM store_sales AS store_sales
                  JOIN customer AS customer
                    ON store_sales.ss_customer_sk = customer.c_customer_sk
                  JOIN date_dim AS date_dim
                    ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
                    AND date_dim.d_year IN (2000, 2000 + 1, 2000 + 2, 2000 + 3)
                  WHERE
                    TRUE AND TRUE AND TRUE
                  GROUP BY
                    customer.c_customer_sk
                ) AS x_r
              ) AS max_store_sales_r
            )
        ) AS best_ss_customer_r
      )
  )
) AS y_r
LIMIT 100
