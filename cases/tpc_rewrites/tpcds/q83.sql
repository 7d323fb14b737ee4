-- tpcds/q83 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  sr_items_r.item_id AS item_id,
  sr_items_r.sr_item_qty AS sr_item_qty,
  sr_items_r.sr_item_qty / (
    sr_items_r.sr_item_qty + cr_items_r.cr_item_qty + wr_items_r.wr_item_qty
  ) / 3.0 * 100 AS sr_dev,
  cr_items_r.cr_item_qty AS cr_item_qty,
  cr_items_r.cr_item_qty / (
    sr_items_r.sr_item_qty + cr_items_r.cr_item_qty + wr_items_r.wr_item_qty
  ) / 3.0 * 100 AS cr_dev,
  wr_items_r.wr_item_qty AS wr_item_qty,
  wr_items_r.wr_item_qty / (
    sr_items_r.sr_item_qty + cr_items_r.cr_item_qty + wr_items_r.wr_item_qty
  ) / 3.0 * 100 AS wr_dev,
  (
    sr_items_r.sr_item_qty + cr_items_r.cr_item_qty + wr_items_r.wr_item_qty
  ) / 3.0 AS average
FROM (
  SELECT
    item.i_item_id AS item_id,
    SUM(store_returns.sr_return_quantity) AS sr_item_qty
  FROM store_returns AS store_returns
  JOIN item AS item
    ON store_returns.sr_item_sk = item.i_item_sk
  JOIN date_dim AS date_dim
    ON store_returns.sr_returned_date_sk = date_dim.d_date_sk
  WHERE
    TRUE
    AND date_dim.d_date IN (
      SELECT
        date_dim.d_date AS d_date
      FROM date_dim AS date_dim
      WHERE
        date_dim.d_week_seq IN (
          SELECT
            date_dim.d_week_seq AS d_week_seq
          FROM date_dim AS date_dim
          WHERE
            date_dim.d_date IN ('2000-06-30', '2000-09-27', '2000-11-17')
        )
    )
    AND TRUE
  GROUP BY
    item.i_item_id
) AS sr_items_r
JOIN (
  SELECT
    item.i_item_id AS item_id,
    SUM(catalog_returns.cr_return_quantity) AS cr_item_qty
  FROM catalog_returns AS catalog_returns
  JOIN item AS item
    ON catalog_returns.cr_item_sk = item.i_item_sk
  JOIN date_dim AS date_dim
    ON catalog_returns.cr_returned_date_sk = date_dim.d_date_sk
  WHERE
    TRUE
    AND date_dim.d_date IN (
      SELECT
        date_dim.d_date AS d_date
      FROM date_dim AS date_dim
      WHERE
        date_dim.d_week_seq IN (
          SELECT
            date_dim.d_week_seq AS d_week_seq
          FROM date_dim AS date_dim
          WHERE
            date_dim.d_date IN ('2000-06-30', '2000-09-27', '2000-11-17')
        )
    )
    AND TRUE
  GROUP BY
    item.i_item_id
) AS cr_items_r
  ON sr_items_r.item_id = cr_items_r.item_id
JOIN (
  SELECT
    item.i_item_id AS item_id,
    SUM(web_returns.wr_return_quantity) AS wr_item_qty
  FROM web_returns AS web_returns
  JOIN item AS item
    ON web_returns.wr_item_sk = item.i_item_sk
  JOIN date_dim AS date_dim
    ON web_returns.wr_returned_date_sk = date_dim.d_date_sk
  WHERE
    TRUE
    AND date_dim.d_date IN (
      SELECT
        date_dim.d_date AS d_date
      FROM date_dim AS date_dim
      WHERE
        date_dim.d_week_seq IN (
          SELECT
            date_dim.d_week_seq AS d_week_seq
          FROM date_dim AS date_dim
          WHERE
            date_dim.d_date IN ('2000-06-30', '2000-09-27', '2000-11-17')
        )
    )
    AND TRUE
  GROUP BY
    item.i_item_id
) AS wr_items_r
  ON sr_items_r.item_id = wr_items_r.item_id
WHERE
  TRUE AND TRUE
ORDER BY
  sr_items_r.item_id,
  sr_item_qty
LIMIT 100
