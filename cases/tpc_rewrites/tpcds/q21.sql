-- tpcds/q21 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  x_r.w_warehouse_name AS w_warehouse_name,
  x_r.i_item_id AS i_item_id,
  x_r.inv_before AS inv_before,
  x_r.inv_after AS inv_after
FROM (
  SELECT
    warehouse.w_warehouse_name AS w_warehouse_name,
    item.i_item_id AS i_item_id,
    SUM(
      CASE
        WHEN (
          CAST(date_dim.d_date AS DATE) < CAST('2000-03-11' AS DATE)
        )
        THEN inventory.inv_quantity_on_hand
        ELSE 0
      END
    ) AS inv_before,
    SUM(
      CASE
        WHEN (
          CAST(date_dim.d_date AS DATE) >= CAST('2000-03-11' AS DATE)
        )
        THEN inventory.inv_quantity_on_hand
        ELSE 0
      END
    ) AS inv_after
  FROM inventory AS inventory
  JOIN warehouse AS warehouse
    ON inventory.inv_warehouse_sk = warehouse.w_warehouse_sk
  JOIN item AS item
    ON item.i_current_price BETWEEN 0.99 AND 1.49
    AND item.i_item_sk = inventory.inv_item_sk
  JOIN date_dim AS date_dim
    ON inventory.inv_date_sk = date_dim.d_date_sk
    AND date_dim.d_date BETWEEN (
      CAST('2000-03-11' AS DATE) - INTERVAL '30' DAYS
    ) AND (
      CAST('2000-03-11' AS DATE) + INTERVAL '30' DAYS
    )
  WHERE
    TRUE AND TRUE AND TRUE AND TRUE AND TRUE
  GROUP BY
    warehouse.w_warehouse_name,
    item.i_item_id
) AS x_r
WHERE
  (
    CASE WHEN x_r.inv_before > 0 THEN x_r.inv_after / x_r.inv_before ELSE NULL END
  ) BETWEEN 2.0 / 3.0 AND 3.0 / 2.0
ORDER BY
  x_r.w_warehouse_name,
  x_r.i_item_id
LIMIT 100
