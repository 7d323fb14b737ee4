-- tpcds/q14b rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  this_year_r.channel AS channel,
  this_year_r.i_brand_id AS i_brand_id,
  this_year_r.i_class_id AS i_class_id,
  this_year_r.i_category_id AS i_category_id,
  this_year_r.sales AS sales,
  this_year_r.number_sales AS number_sales,
  last_year_r.channel AS channel,
  last_year_r.i_brand_id AS i_brand_id,
  last_year_r.i_class_id AS i_class_id,
  last_year_r.i_category_id AS i_category_id,
  last_year_r.sales AS sales,
  last_year_r.number_sales AS number_sales
FROM (
  SELECT
    'store' AS channel,
    item.i_brand_id AS i_brand_id,
    item.i_class_id AS i_class_id,
    item.i_category_id AS i_category_id,
    SUM(store_sales.ss_quantity * store_sales.ss_list_price) AS sales,
    COUNT(*) AS number_sales
  FROM store_sales AS store_sales
  JOIN item AS item
    ON store_sales.ss_item_sk = item.i_item_sk
  JOIN date_dim AS date_dim
    ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
  WHERE
    store_sales.ss_item_sk IN (
      SELECT
        item.i_item_sk AS ss_item_sk
      FROM item AS item
      JOIN (
        SELECT
          iss_r.i_brand_id AS brand_id,
          iss_r.i_class_id AS class_id,
          iss_r.i_category_id AS category_id
        FROM store_sales AS store_sales
        JOIN item AS iss_r
          ON store_sales.ss_item_sk = iss_r.i_item_sk
        JOIN date_dim AS d1_r
          ON store_sales.ss_sold_date_sk = d1_r.d_date_sk
          AND d1_r.d_year BETWEEN 1999 AND 1999 + 2
        WHERE
          TRUE AND TRUE AND TRUE
        INTERSECT
        SELECT
          ics_r.i_brand_id AS i_brand_id,
          ics_r.i_class_id AS i_class_id,
          ics_r.i_category_id AS i_category_id
        FROM catalog_sales AS catalog_sales
        JOIN item AS ics_r
          ON catalog_sales.cs_item_sk = ics_r.i_item_sk
        JOIN date_dim AS d2_r
          ON catalog_sales.cs_sold_date_sk = d2_r.d_date_sk
          AND d2_r.d_year BETWEEN 1999 AND 1999 + 2
        WHERE
          TRUE AND TRUE AND TRUE
        INTERSECT
        SELECT
          iws_r.i_brand_id AS i_brand_id,
          iws_r.i_class_id AS i_class_id,
          iws_r.i_category_id AS i_category_id
        FROM web_sales AS web_sales
        JOIN item AS iws_r
          ON web_sales.ws_item_sk = iws_r.i_item_sk
        JOIN date_dim AS d3_r
          ON web_sales.ws_sold_date_sk = d3_r.d_date_sk
          AND d3_r.d_year BETWEEN 1999 AND 1999 + 2
        WHERE
          TRUE AND TRUE AND TRUE
      ) AS x_r
        ON (
          item.i_brand_id = x_r.brand_id AND item.i_class_id = x_r.class_id
        )
        AND item.i_category_id = x_r.category_id
      WHERE
        TRUE AND TRUE AND TRUE
    )
    AND TRUE
    AND TRUE
    AND date_dim.d_week_seq = (
      SELECT
        date_dim.d_week_seq AS d_week_seq
      FROM date_dim AS date_dim
      WHERE
        date_dim.d_year = 1999 + 1 AND date_dim.d_moy = 12 AND date_dim.d_dom = 11
    )
  GROUP BY
    item.i_brand_id,
    item.i_class_id,
    item.i_category_id
  HAVING
    SUM(store_sales.ss_quantity * store_sales.ss_list_price) > (
      SELECT
        avg_sales_r.average_sales AS average_sales
      FROM (
        SELECT
          AVG(x_r.quantity * x_r.list_price) AS average_sales
        FROM (
          SELECT
            store_sales.ss_quantity AS quantity,
            store_sales.ss_list_price AS list_price
          FROM store_sales AS store_sales
          JOIN date_dim AS date_dim
            ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
            AND date_dim.d_year BETWEEN 1999 AND 1999 + 2
          WHERE
            TRUE AND TRUE
          UNION ALL
          SELECT
            catalog_sales.cs_quantity AS quantity,
            catalog_sales.cs_list_price AS list_price
          FROM catalog_sales AS catalog_sales
          JOIN date_dim AS date_dim
            ON catalog_sales.cs_sold_date_sk = date_dim.d_date_sk
            AND date_dim.d_year BETWEEN 1999 AND 1999 + 2
          WHERE
            TRUE AND TRUE
          UNION ALL
          SELECT
            web_sales.ws_quantity AS quantity,
            web_sales.ws_list_price AS list_price
          FROM web_sales AS web_sales
          JOIN date_dim AS date_dim
            ON web_sales.ws_sold_date_sk = date_dim.d_date_sk
            AND date_dim.d_year BETWEEN 1999 AND 1999 + 2
          WHERE
            TRUE AND TRUE
        ) AS x_r
      ) AS avg_sales_r
    )
) AS this_year_r
JOIN (
  SELECT
    'store' AS channel,
    item.i_brand_id AS i_brand_id,
    item.i_class_id AS i_class_id,
    item.i_category_id AS i_category_id,
    SUM(store_sales.ss_quantity * store_sales.ss_list_price) AS sales,
    COUNT(*) AS number_sales
  FROM store_sales AS store_sales
  JOIN item AS item
    ON store_sales.ss_item_sk = item.i_item_sk
  JOIN date_dim AS date_dim
    ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
  WHERE
    store_sales.ss_item_sk IN (
      SELECT
        item.i_item_sk AS ss_item_sk
      FROM item AS item
      JOIN (
        SELECT
          iss_r.i_brand_id AS brand_id,
          iss_r.i_class_id AS class_id,
          iss_r.i_category_id AS category_id
        FROM store_sales AS store_sales
        JOIN item AS iss_r
          ON store_sales.ss_item_sk = iss_r.i_item_sk
        JOIN date_dim AS d1_r
          ON store_sales.ss_sold_date_sk = d1_r.d_date_sk
          AND d1_r.d_year BETWEEN 1999 AND 1999 + 2
        WHERE
          TRUE AND TRUE AND TRUE
        INTERSECT
        SELECT
          ics_r.i_brand_id AS i_brand_id,
          ics_r.i_class_id AS i_class_id,
          ics_r.i_category_id AS i_category_id
        FROM catalog_sales AS catalog_sales
        JOIN item AS ics_r
          ON catalog_sales.cs_item_sk = ics_r.i_item_sk
        JOIN date_dim AS d2_r
          ON catalog_sales.cs_sold_date_sk = d2_r.d_date_sk
          AND d2_r.d_year BETWEEN 1999 AND 1999 + 2
        WHERE
          TRUE AND TRUE AND TRUE
        INTERSECT
        SELECT
          iws_r.i_brand_id AS i_brand_id,
          iws_r.i_class_id AS i_class_id,
          iws_r.i_category_id AS i_category_id
        FROM web_sales AS web_sales
        JOIN item AS iws_r
          ON web_sales.ws_item_sk = iws_r.i_item_sk
        JOIN date_dim AS d3_r
          ON web_sales.ws_sold_date_sk = d3_r.d_date_sk
          AND d3_r.d_year BETWEEN 1999 AND 1999 + 2
        WHERE
          TRUE AND TRUE AND TRUE
      ) AS x_r
        ON (
          item.i_brand_id = x_r.brand_id AND item.i_class_id = x_r.class_id
        )
        AND item.i_category_id = x_r.category_id
      WHERE
        TRUE AND TRUE AND TRUE
    )
    AND TRUE
    AND TRUE
    AND date_dim.d_week_seq = (
      SELECT
        date_dim.d_week_seq AS d_week_seq
      FROM date_dim AS date_dim
      WHERE
        date_dim.d_year = 1999 AND date_dim.d_moy = 12 AND date_dim.d_dom = 11
    )
  GROUP BY
    item.i_brand_id,
    item.i_class_id,
    item.i_category_id
  HAVING
    SUM(store_sales.ss_quantity * store_sales.ss_list_price) > (
      SELECT
        avg_sales_r.average_sales AS average_sales
      FROM (
        SELECT
          AVG(x_r.quantity * x_r.list_price) AS average_sales
        FROM (
          SELECT
            store_sales.ss_quantity AS quantity,
            store_sales.ss_list_price AS list_price
          FROM store_sales AS store_sales
          JOIN date_dim AS date_dim
            ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
            AND date_dim.d_year BETWEEN 1999 AND 1999 + 2
          WHERE
            TRUE AND TRUE
          UNION ALL
          SELECT
            catalog_sales.cs_quantity AS quantity,
            catalog_sales.cs_list_price AS list_price
          FROM catalog_sales AS catalog_sales
          JOIN date_dim AS date_dim
            ON catalog_sales.cs_sold_date_sk = date_dim.d_date_sk
            AND date_dim.d_year BETWEEN 1999 AND 1999 + 2
          WHERE
            TRUE AND TRUE
          UNION ALL
          SELECT
            web_sales.ws_quantity AS quantity,
            web_sales.ws_list_price AS list_price
          FROM web_sales AS web_sales
          JOIN date_dim AS date_dim
            ON web_sales.ws_sold_date_sk = date_dim.d_date_sk
            AND date_dim.d_year BETWEEN 1999 AND 1999 + 2
          WHERE
            TRUE AND TRUE
        ) AS x_r
      ) AS avg_sales_r
    )
) AS last_year_r
  ON (
    this_year_r.i_brand_id = last_year_r.i_brand_id
    AND this_year_r.i_class_id = last_year_r.i_class_id
  )
  AND this_year_r.i_category_id = last_year_r.i_category_id
WHERE
  TRUE AND TRUE AND TRUE
ORDER BY
  this_year_r.channel,
  this_year_r.i_brand_id,
  this_year_r.i_class_id,
  this_year_r.i_category_id
LIMIT 100
