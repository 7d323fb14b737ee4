-- tpcds/q59 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  store.s_store_name AS s_store_name1,
  store.s_store_id AS s_store_id1,
  wss_r.d_week_seq AS d_week_seq1,
  wss_r.sun_sales_r / x_r.sun_sales2_r AS `(sun_sales1 / sun_sales2)`,
  wss_r.mon_sales_r / x_r.mon_sales2_r AS `(mon_sales1 / mon_sales2)`,
  wss_r.tue_sales_r / x_r.tue_sales2_r AS `(tue_sales1 / tue_sales2)`,
  wss_r.wed_sales_r / x_r.wed_sales2_r AS `(wed_sales1 / wed_sales2)`,
  wss_r.thu_sales_r / x_r.thu_sales2_r AS `(thu_sales1 / thu_sales2)`,
  wss_r.fri_sales_r / x_r.fri_sales2_r AS `(fri_sales1 / fri_sales2)`,
  wss_r.sat_sales_r / x_r.sat_sales2_r AS `(sat_sales1 / sat_sales2)`
FROM (
  SELECT
    date_dim.d_week_seq AS d_week_seq,
    store_sales.ss_store_sk AS ss_store_sk,
    SUM(
      CASE
        WHEN (
          date_dim.d_day_name = 'Sunday'
        )
        THEN store_sales.ss_sales_price
        ELSE NULL
      END
    ) AS sun_sales_r,
    SUM(
      CASE
        WHEN (
          date_dim.d_day_name = 'Monday'
        )
        THEN store_sales.ss_sales_price
        ELSE NULL
      END
    ) AS mon_sales_r,
    SUM(
      CASE
        WHEN (
          date_dim.d_day_name = 'Tuesday'
        )
        THEN store_sales.ss_sales_price
        ELSE NULL
      END
    ) AS tue_sales_r,
    SUM(
      CASE
        WHEN (
          date_dim.d_day_name = 'Wednesday'
        )
        THEN store_sales.ss_sales_price
        ELSE NULL
      END
    ) AS wed_sales_r,
    SUM(
      CASE
        WHEN (
          date_dim.d_day_name = 'Thursday'
        )
        THEN store_sales.ss_sales_price
        ELSE NULL
      END
    ) AS thu_sales_r,
    SUM(
      CASE
        WHEN (
          date_dim.d_day_name = 'Friday'
        )
        THEN store_sales.ss_sales_price
        ELSE NULL
      END
    ) AS fri_sales_r,
    SUM(
      CASE
        WHEN (
          date_dim.d_day_name = 'Saturday'
        )
        THEN store_sales.ss_sales_price
        ELSE NULL
      END
    ) AS sat_sales_r
  FROM store_sales AS store_sales
  JOIN date_dim AS date_dim
    ON date_dim.d_date_sk = store_sales.ss_sold_date_sk
  WHERE
    TRUE
  GROUP BY
    date_dim.d_week_seq,
    store_sales.ss_store_sk
) AS wss_r
JOIN store AS store
  ON wss_r.ss_store_sk = store.s_store_sk
JOIN date_dim AS d_r
  ON d_r.d_week_seq = wss_r.d_week_seq AND d_r.d_month_seq BETWEEN 1212 AND 1212 + 11
JOIN (
  SELECT
    store.s_store_name AS s_store_name2_r,
    wss_r.d_week_seq AS d_week_seq2_r,
    store.s_store_id AS s_store_id2_r,
    wss_r.sun_sales_r AS sun_sales2_r,
    wss_r.mon_sales_r AS mon_sales2_r,
    wss_r.tue_sales_r AS tue_sales2_r,
    wss_r.wed_sales_r AS wed_sales2_r,
    wss_r.thu_sales_r AS thu_sales2_r,
    wss_r.fri_sales_r AS fri_sales2_r,
    wss_r.sat_sales_r AS sat_sales2_r
  FROM (
    SELECT
      date_dim.d_week_seq AS d_week_seq,
      store_sales.ss_store_sk AS ss_store_sk,
      SUM(
        CASE
          WHEN (
            date_dim.d_day_name = 'Sunday'
          )
          THEN store_sales.ss_sales_price
          ELSE NULL
        END
      ) AS sun_sales_r,
      SUM(
        CASE
          WHEN (
            date_dim.d_day_name = 'Monday'
          )
          THEN store_sales.ss_sales_price
          ELSE NULL
        END
      ) AS mon_sales_r,
      SUM(
        CASE
          WHEN (
            date_dim.d_day_name = 'Tuesday'
          )
          THEN store_sales.ss_sales_price
          ELSE NULL
        END
      ) AS tue_sales_r,
      SUM(
        CASE
          WHEN (
            date_dim.d_day_name = 'Wednesday'
          )
          THEN store_sales.ss_sales_price
          ELSE NULL
        END
      ) AS wed_sales_r,
      SUM(
        CASE
          WHEN (
            date_dim.d_day_name = 'Thursday'
          )
          THEN store_sales.ss_sales_price
          ELSE NULL
        END
      ) AS thu_sales_r,
      SUM(
        CASE
          WHEN (
            date_dim.d_day_name = 'Friday'
          )
          THEN store_sales.ss_sales_price
          ELSE NULL
        END
      ) AS fri_sales_r,
      SUM(
        CASE
          WHEN (
            date_dim.d_day_name = 'Saturday'
          )
          THEN store_sales.ss_sales_price
          ELSE NULL
        END
      ) AS sat_sales_r
    FROM store_sales AS store_sales
    JOIN date_dim AS date_dim
      ON date_dim.d_date_sk = store_sales.ss_sold_date_sk
    WHERE
      TRUE
    GROUP BY
      date_dim.d_week_seq,
      store_sales.ss_store_sk
  ) AS wss_r
  JOIN store AS store
    ON wss_r.ss_store_sk = store.s_store_sk
  JOIN date_dim AS d_r
    ON d_r.d_week_seq = wss_r.d_week_seq
    AND d_r.d_month_seq BETWEEN 1212 + 12 AND 1212 + 23
  WHERE
    TRUE AND TRUE AND TRUE
) AS x_r
  ON store.s_store_id = x_r.s_store_id2_r
  AND wss_r.d_week_seq = x_r.d_week_seq2_r - 52
WHERE
  (
    TRUE AND TRUE
  ) AND (
    TRUE AND TRUE AND TRUE
  )
ORDER BY
  s_store_name1,
  s_store_id1,
  d_week_seq1
LIMIT 100
