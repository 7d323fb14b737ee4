-- tpcds/q65 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  store.s_store_name AS s_store_name,
  item.i_item_desc AS i_item_desc,
  sc_r.revenue AS revenue,
  item.i_current_price AS i_current_price,
  item.i_wholesale_cost AS i_wholesale_cost,
  item.i_brand AS i_brand
FROM store AS store
CROSS JOIN item AS item
CROSS JOIN (
  SELECT
    sa_r.ss_store_sk AS ss_store_sk,
    AVG(sa_r.revenue) AS ave_r
  FROM (
    SELECT
      store_sales.ss_store_sk AS ss_store_sk,
      store_sales.ss_item_sk AS ss_item_sk,
      SUM(store_sales.ss_sales_price) AS revenue
    FROM store_sales AS store_sales
    JOIN date_dim AS date_dim
      ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
      AND date_dim.d_month_seq BETWEEN 1176 AND 1176 + 11
    WHERE
      TRUE AND TRUE
    GROUP BY
      store_sales.ss_store_sk,
      store_sales.ss_item_sk
  ) AS sa_r
  GROUP BY
    sa_r.ss_store_sk
) AS sb_r
JOIN (
  SELECT
    store_sales.ss_store_sk AS ss_store_sk,
    store_sales.ss_item_sk AS ss_item_sk,
    SUM(store_sales.ss_sales_price) AS revenue
  FROM store_sales AS store_sales
  JOIN date_dim AS date_dim
    ON store_sales.ss_sold_date_sk = date_dim.d_date_sk
    AND date_dim.d_month_seq BETWEEN 1176 AND 1176 + 11
  WHERE
    TRUE AND TRUE
  GROUP BY
    store_sales.ss_store_sk,
    store_sales.ss_item_sk
) AS sc_r
  ON (
    (
      sb_r.ss_store_sk = sc_r.ss_store_sk AND sc_r.revenue <= 0.1 * sb_r.ave_r
    )
    AND store.s_store_sk = sc_r.ss_store_sk
  )
  AND item.i_item_sk = sc_r.ss_item_sk
WHERE
  TRUE AND TRUE AND TRUE AND TRUE
ORDER BY
  s_store_name,
  i_item_desc
LIMIT 100
