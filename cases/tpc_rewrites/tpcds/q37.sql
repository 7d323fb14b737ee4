-- tpcds/q37 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  item.i_item_id AS i_item_id,
  item.i_item_desc AS i_item_desc,
  item.i_current_price AS i_current_price
FROM item AS item
JOIN inventory AS inventory
  ON inventory.inv_item_sk = item.i_item_sk
  AND inventory.inv_quantity_on_hand BETWEEN 100 AND 500
JOIN date_dim AS date_dim
  ON date_dim.d_date_sk = inventory.inv_date_sk
  AND date_dim.d_date BETWEEN CAST('2000-02-01' AS DATE) AND (
    CAST('2000-02-01' AS DATE) + INTERVAL '60' DAYS
  )
JOIN catalog_sales AS catalog_sales
  ON catalog_sales.cs_item_sk = item.i_item_sk
WHERE
  item.i_current_price BETWEEN 68 AND 68 + 30
  AND TRUE
  AND TRUE
  AND TRUE
  AND item.i_manufact_id IN (677, 940, 694, 808)
  AND TRUE
  AND TRUE
GROUP BY
  item.i_item_id,
  item.i_item_desc,
  item.i_current_price
ORDER BY
  i_item_id
LIMIT 100
