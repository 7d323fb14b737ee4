-- tpcds/q2 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  wswscs_r.d_week_seq AS d_week_seq1,
  ROUND(wswscs_r.sun_sales_r / z_r.sun_sales2_r, 2) AS `round((sun_sales1 / sun_sales2), 2)`,
  ROUND(wswscs_r.mon_sales_r / z_r.mon_sales2_r, 2) AS `round((mon_sales1 / mon_sales2), 2)`,
  ROUND(wswscs_r.tue_sales_r / z_r.tue_sales2_r, 2) AS `round((tue_sales1 / tue_sales2), 2)`,
  ROUND(wswscs_r.wed_sales_r / z_r.wed_sales2_r, 2) AS `round((wed_sales1 / wed_sales2), 2)`,
  ROUND(wswscs_r.thu_sales_r / z_r.thu_sales2_r, 2) AS `round((thu_sales1 / thu_sales2), 2)`,
  ROUND(wswscs_r.fri_sales_r / z_r.fri_sales2_r, 2) AS `round((fri_sales1 / fri_sales2), 2)`,
  ROUND(wswscs_r.sat_sales_r / z_r.sat_sales2_r, 2) AS `round((sat_sales1 / sat_sales2), 2)`
FROM (
  SELECT
    date_dim.d_week_seq AS d_week_seq,
    SUM(
      CASE
        WHEN (
          date_dim.d_day_name = 'Sunday'
        )
        THEN wscs_r.sales_price_r
        ELSE NULL
      END
    ) AS sun_sales_r,
    SUM(
      CASE
        WHEN (
          date_dim.d_day_name = 'Monday'
        )
        THEN wscs_r.sales_price_r
        ELSE NULL
      END
    ) AS mon_sales_r,
    SUM(
      CASE
        WHEN (
          date_dim.d_day_name = 'Tuesday'
        )
        THEN wscs_r.sales_price_r
        ELSE NULL
      END
    ) AS tue_sales_r,
    SUM(
      CASE
        WHEN (
          date_dim.d_day_name = 'Wednesday'
        )
        THEN wscs_r.sales_price_r
        ELSE NULL
      END
    ) AS wed_sales_r,
    SUM(
      CASE
        WHEN (
          date_dim.d_day_name = 'Thursday'
        )
        THEN wscs_r.sales_price_r
        ELSE NULL
      END
    ) AS thu_sales_r,
    SUM(
      CASE
        WHEN (
          date_dim.d_day_name = 'Friday'
        )
        THEN wscs_r.sales_price_r
        ELSE NULL
      END
    ) AS fri_sales_r,
    SUM(
      CASE
        WHEN (
          date_dim.d_day_name = 'Saturday'
        )
        THEN wscs_r.sales_price_r
        ELSE NULL
      END
    ) AS sat_sales_r
  FROM (
    SELECT
      web_sales.ws_sold_date_sk AS sold_date_sk_r,
      web_sales.ws_ext_sales_price AS sales_price_r
    FROM web_sales AS web_sales
    UNION ALL
    (
      SELECT
        catalog_sales.cs_sold_date_sk AS sold_date_sk_r,
        catalog_sales.cs_ext_sales_price AS sales_price_r
      FROM catalog_sales AS catalog_sales
    )
  ) AS wscs_r
  JOIN date_dim AS date_dim
    ON date_dim.d_date_sk = wscs_r.sold_date_sk_r
  WHERE
    TRUE
  GROUP BY
    date_dim.d_week_seq
) AS wswscs_r
JOIN date_dim AS date_dim
  ON date_dim.d_week_seq = wswscs_r.d_week_seq AND date_dim.d_year = 2001
JOIN (
  SELECT
    wswscs_r.d_week_seq AS d_week_seq2_r,
    wswscs_r.sun_sales_r AS sun_sales2_r,
    wswscs_r.mon_sales_r AS mon_sales2_r,
    wswscs_r.tue_sales_r AS tue_sales2_r,
    wswscs_r.wed_sales_r AS wed_sales2_r,
    wswscs_r.thu_sales_r AS thu_sales2_r,
    wswscs_r.fri_sales_r AS fri_sales2_r,
    wswscs_r.sat_sales_r AS sat_sales2_r
  FROM (
    SELECT
      date_dim.d_week_seq AS d_week_seq,
      SUM(
        CASE
          WHEN (
            date_dim.d_day_name = 'Sunday'
          )
          THEN wscs_r.sales_price_r
          ELSE NULL
        END
      ) AS sun_sales_r,
      SUM(
        CASE
          WHEN (
            date_dim.d_day_name = 'Monday'
          )
          THEN wscs_r.sales_price_r
          ELSE NULL
        END
      ) AS mon_sales_r,
      SUM(
        CASE
          WHEN (
            date_dim.d_day_name = 'Tuesday'
          )
          THEN wscs_r.sales_price_r
          ELSE NULL
        END
      ) AS tue_sales_r,
      SUM(
        CASE
          WHEN (
            date_dim.d_day_name = 'Wednesday'
          )
          THEN wscs_r.sales_price_r
          ELSE NULL
        END
      ) AS wed_sales_r,
      SUM(
        CASE
          WHEN (
            date_dim.d_day_name = 'Thursday'
          )
          THEN wscs_r.sales_price_r
          ELSE NULL
        END
      ) AS thu_sales_r,
      SUM(
        CASE
          WHEN (
            date_dim.d_day_name = 'Friday'
          )
          THEN wscs_r.sales_price_r
          ELSE NULL
        END
      ) AS fri_sales_r,
      SUM(
        CASE
          WHEN (
            date_dim.d_day_name = 'Saturday'
          )
          THEN wscs_r.sales_price_r
          ELSE NULL
        END
      ) AS sat_sales_r
    FROM (
      SELECT
        web_sales.ws_sold_date_sk AS sold_date_sk_r,
        web_sales.ws_ext_sales_price AS sales_price_r
      FROM web_sales AS web_sales
      UNION ALL
      (
        SELECT
          catalog_sales.cs_sold_date_sk AS sold_date_sk_r,
          catalog_sales.cs_ext_sales_price AS sales_price_r
        FROM catalog_sales AS catalog_sales
      )
    ) AS wscs_r
    JOIN date_dim AS date_dim
      ON date_dim.d_date_sk = wscs_r.sold_date_sk_r
    WHERE
      TRUE
    GROUP BY
      date_dim.d_week_seq
  ) AS wswscs_r
  JOIN date_dim AS date_dim
    ON date_dim.d_week_seq = wswscs_r.d_week_seq AND date_dim.d_year = 2001 + 1
  WHERE
    TRUE AND TRUE
) AS z_r
  ON wswscs_r.d_week_seq = z_r.d_week_seq2_r - 53
WHERE
  TRUE AND (
    TRUE AND TRUE
  )
ORDER BY
  d_week_seq1
