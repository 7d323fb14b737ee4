-- tpcds/q1 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  customer.c_customer_id AS c_customer_id
FROM (
  SELECT
    store_returns.sr_customer_sk AS ctr_customer_sk_r,
    store_returns.sr_store_sk AS ctr_store_sk_r,
    SUM(store_returns.sr_return_amt) AS ctr_total_return_r
  FROM store_returns AS store_returns
  JOIN date_dim AS date_dim
    ON store_returns.sr_returned_date_sk = date_dim.d_date_sk AND date_dim.d_year = 2000
  WHERE
    TRUE AND TRUE
  GROUP BY
    store_returns.sr_customer_sk,
    store_returns.sr_store_sk
) AS ctr1_r
JOIN store AS store
  ON store.s_store_sk = ctr1_r.ctr_store_sk_r AND store.s_state = 'TN'
JOIN customer AS customer
  ON ctr1_r.ctr_customer_sk_r = customer.c_customer_sk
WHERE
  ctr1_r.ctr_total_return_r > (
    SELECT
      AVG(ctr2_r.ctr_total_return_r) * 1.2 AS _col_0
    FROM (
      SELECT
        store_returns.sr_customer_sk AS ctr_customer_sk_r,
        store_returns.sr_store_sk AS ctr_store_sk_r,
        SUM(store_returns.sr_return_amt) AS ctr_total_return_r
      FROM store_returns AS store_returns
      JOIN date_dim AS date_dim
        ON store_returns.sr_returned_date_sk = date_dim.d_date_sk AND date_dim.d_year = 2000
      WHERE
        TRUE AND TRUE
      GROUP BY
        store_returns.sr_customer_sk,
        store_returns.sr_store_sk
    ) AS ctr2_r
    WHERE
      ctr1_r.ctr_store_sk_r = ctr2_r.ctr_store_sk_r
  )
  AND TRUE
  AND TRUE
  AND TRUE
ORDER BY
  c_customer_id
LIMIT 100
