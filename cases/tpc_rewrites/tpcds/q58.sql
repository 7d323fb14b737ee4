-- tpcds/q58 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  ss_items_r.item_id AS item_id,
  ss_items_r.ss_item_rev AS ss_item_rev,
  ss_items_r.ss_item_rev / (
    ss_items_r.ss_item_rev + cs_items_r.cs_item_rev + ws_items_r.ws_item_rev
  ) / 3 * 100 AS ss_dev,
  cs_items_r.cs_item_rev AS cs_item_rev,
  cs_items_r.cs_item_rev / (
    ss_items_r.ss_item_rev + cs_items_r.cs_item_rev + ws_items_r.ws_item_rev
  ) / 3 * 100 AS cs_dev,
  ws_items_r.ws_item_rev AS ws_item_rev,
  ws_items_r.ws_item_rev / (
    ss_items_r.ss_item_rev + cs_items_r.cs_item_rev + ws_items_r.ws_item_rev
  ) / 3 * 100 AS ws_dev,
  (
    ss_items_r.ss_item_rev + cs_items_r.cs_item_rev + ws_items_r.ws_item_rev
  ) / 3 AS average
FROM (
  SELECT
    item.i_item_id AS item_id,
    SUM(store_sales.ss_ext_sales_price) AS ss_item_rev
  FROM store_sales AS store_sales
  JOIN item AS item
    ON store_sales.ss_item_sk = item.i_item_sk
  JOIN date_dim AS date_dim
    ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
  WHERE
    TRUE
    AND date_dim.d_date IN (
      SELECT
        date_dim.d_date AS d_date
      FROM date_dim AS date_dim
      WHERE
        date_dim.d_week_seq = (
          SELECT
            date_dim.d_week_seq AS d_week_seq
          FROM date_dim AS date_dim
          WHERE
            date_dim.d_date = '2000-01-03'
        )
    )
    AND TRUE
  GROUP BY
    item.i_item_id
) AS ss_items_r
JOIN (
  SELECT
    item.i_item_id AS item_id,
    SUM(catalog_sales.cs_ext_sales_price) AS cs_item_rev
  FROM catalog_sales AS catalog_sales
  JOIN item AS item
    ON catalog_sales.cs_item_sk = item.i_item_sk
  JOIN date_dim AS date_dim
    ON catalog_sales.cs_sold_date_sk = date_dim.d_date_sk
  WHERE
    TRUE
    AND date_dim.d_date IN (
      SELECT
        date_dim.d_date AS d_date
      FROM date_dim AS date_dim
      WHERE
        date_dim.d_week_seq = (
          SELECT
            date_dim.d_week_seq AS d_week_seq
          FROM date_dim AS date_dim
          WHERE
            date_dim.d_date = '2000-01-03'
        )
    )
    AND TRUE
  GROUP BY
    item.i_item_id
) AS cs_items_r
  ON (
    ss_items_r.item_id = cs_items_r.item_id
    AND ss_items_r.ss_item_rev BETWEEN 0.9 * cs_items_r.cs_item_rev AND 1.1 * cs_items_r.cs_item_rev
  )
  AND cs_items_r.cs_item_rev BETWEEN 0.9 * ss_items_r.ss_item_rev AND 1.1 * ss_items_r.ss_item_rev
JOIN (
  SELECT
    item.i_item_id AS item_id,
    SUM(web_sales.ws_ext_sales_price) AS ws_item_rev
  FROM web_sales AS web_sales
  JOIN item AS item
    ON web_sales.ws_item_sk = item.i_item_sk
  JOIN date_dim AS date_dim
    ON web_sales.ws_sold_date_sk = date_dim.d_date_sk
  WHERE
    TRUE
    AND date_dim.d_date IN (
      SELECT
        date_dim.d_date AS d_date
      FROM date_dim AS date_dim
      WHERE
        date_dim.d_week_seq = (
          SELECT
            date_dim.d_week_seq AS d_week_seq
          FROM date_dim AS date_dim
          WHERE
            date_dim.d_date = '2000-01-03'
        )
    )
    AND TRUE
  GROUP BY
    item.i_item_id
) AS ws_items_r
  ON (
    (
      (
        ss_items_r.item_id = ws_items_r.item_id
        AND ss_items_r.ss_item_rev BETWEEN 0.9 * ws_items_r.ws_item_rev AND 1.1 * ws_items_r.ws_item_rev
      )
      AND cs_items_r.cs_item_rev BETWEEN 0.9 * ws_items_r.ws_item_rev AND 1.1 * ws_items_r.ws_item_rev
    )
    AND ws_items_r.ws_item_rev BETWEEN 0.9 * ss_items_r.ss_item_rev AND 1.1 * ss_items_r.ss_item_rev
  )
  AND ws_items_r.ws_item_rev BETWEEN 0.9 * cs_items_r.cs_item_rev AND 1.1 * cs_items_r.cs_item_rev
WHERE
  TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE
ORDER BY
  item_id,
  ss_item_rev
LIMIT 100
