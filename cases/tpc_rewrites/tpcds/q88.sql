-- tpcds/q88 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  s1_r.h8_30_to_9 AS h8_30_to_9,
  s2_r.h9_to_9_30 AS h9_to_9_30,
  s3_r.h9_30_to_10 AS h9_30_to_10,
  s4_r.h10_to_10_30 AS h10_to_10_30,
  s5_r.h10_30_to_11 AS h10_30_to_11,
  s6_r.h11_to_11_30 AS h11_to_11_30,
  s7_r.h11_30_to_12 AS h11_30_to_12,
  s8_r.h12_to_12_30 AS h12_to_12_30
FROM (
  SELECT
    COUNT(*) AS h8_30_to_9
  FROM store_sales AS store_sales
  JOIN household_demographics AS household_demographics
    ON store_sales.ss_hdemo_sk = household_demographics.hd_demo_sk
    AND (
      (
        household_demographics.hd_dep_count = 4
        AND household_demographics.hd_vehicle_count <= 4 + 2
      )
      OR (
        household_demographics.hd_dep_count = 2
        AND household_demographics.hd_vehicle_count <= 2 + 2
      )
      OR (
        household_demographics.hd_dep_count = 0
        AND household_demographics.hd_vehicle_count <= 0 + 2
      )
    )
  JOIN time_dim AS time_dim
    ON (
      store_sales.ss_sold_time_sk = time_dim.t_time_sk AND time_dim.t_hour = 8
    )
    AND time_dim.t_minute >= 30
  JOIN store AS store
    ON store_sales.ss_store_sk = store.s_store_sk AND store.s_store_name = 'ese'
  WHERE
    TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND (
      TRUE
    ) AND TRUE
) AS s1_r
CROSS JOIN (
  SELECT
    COUNT(*) AS h9_to_9_30
  FROM store_sales AS store_sales
  JOIN household_demographics AS household_demographics
    ON store_sales.ss_hdemo_sk = household_demographics.hd_demo_sk
    AND (
      (
        household_demographics.hd_dep_count = 4
        AND household_demographics.hd_vehicle_count <= 4 + 2
      )
      OR (
        household_demographics.hd_dep_count = 2
        AND household_demographics.hd_vehicle_count <= 2 + 2
      )
      OR (
        household_demographics.hd_dep_count = 0
        AND household_demographics.hd_vehicle_count <= 0 + 2
      )
    )
  JOIN time_dim AS time_dim
    ON (
      store_sales.ss_sold_time_sk = time_dim.t_time_sk AND time_dim.t_hour = 9
    )
    AND time_dim.t_minute < 30
  JOIN store AS store
    ON store_sales.ss_store_sk = store.s_store_sk AND store.s_store_name = 'ese'
  WHERE
    TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND (
      TRUE
    ) AND TRUE
) AS s2_r
CROSS JOIN (
  SELECT
    COUNT(*) AS h9_30_to_10
  FROM store_sales AS store_sales
  JOIN household_demographics AS household_demographics
    ON store_sales.ss_hdemo_sk = household_demographics.hd_demo_sk
    AND (
      (
        household_demographics.hd_dep_count = 4
        AND household_demographics.hd_vehicle_count <= 4 + 2
      )
      OR (
        household_demographics.hd_dep_count = 2
        AND household_demographics.hd_vehicle_count <= 2 + 2
      )
      OR (
        household_demographics.hd_dep_count = 0
        AND household_demographics.hd_vehicle_count <= 0 + 2
      )
    )
  JOIN time_dim AS time_dim
    ON (
      store_sales.ss_sold_time_sk = time_dim.t_time_sk AND time_dim.t_hour = 9
    )
    AND time_dim.t_minute >= 30
  JOIN store AS store
    ON store_sales.ss_store_sk = store.s_store_sk AND store.s_store_name = 'ese'
  WHERE
    TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND (
      TRUE
    ) AND TRUE
) AS s3_r
CROSS JOIN (
  SELECT
    COUNT(*) AS h10_to_10_30
  FROM store_sales AS store_sales
  JOIN household_demographics AS household_demographics
    ON store_sales.ss_hdemo_sk = household_demographics.hd_demo_sk
    AND (
      (
        household_demographics.hd_dep_count = 4
        AND household_demographics.hd_vehicle_count <= 4 + 2
      )
      OR (
        household_demographics.hd_dep_count = 2
        AND household_demographics.hd_vehicle_count <= 2 + 2
      )
      OR (
        household_demographics.hd_dep_count = 0
        AND household_demographics.hd_vehicle_count <= 0 + 2
      )
    )
  JOIN time_dim AS time_dim
    ON (
      store_sales.ss_sold_time_sk = time_dim.t_time_sk AND time_dim.t_hour = 10
    )
    AND time_dim.t_minute < 30
  JOIN store AS store
    ON store_sales.ss_store_sk = store.s_store_sk AND store.s_store_name = 'ese'
  WHERE
    TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND (
      TRUE
    ) AND TRUE
) AS s4_r
CROSS JOIN (
  SELECT
    COUNT(*) AS h10_30_to_11
  FROM store_sales AS store_sales
  JOIN household_demographics AS household_demographics
    ON store_sales.ss_hdemo_sk = household_demographics.hd_demo_sk
    AND (
      (
        household_demographics.hd_dep_count = 4
        AND household_demographics.hd_vehicle_count <= 4 + 2
      )
      OR (
        household_demographics.hd_dep_count = 2
        AND household_demographics.hd_vehicle_count <= 2 + 2
      )
      OR (
        household_demographics.hd_dep_count = 0
        AND household_demographics.hd_vehicle_count <= 0 + 2
      )
    )
  JOIN time_dim AS time_dim
    ON (
      store_sales.ss_sold_time_sk = time_dim.t_time_sk AND time_dim.t_hour = 10
    )
    AND time_dim.t_minute >= 30
  JOIN store AS store
    ON store_sales.ss_store_sk = store.s_store_sk AND store.s_store_name = 'ese'
  WHERE
    TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND (
      TRUE
    ) AND TRUE
) AS s5_r
CROSS JOIN (
  SELECT
    COUNT(*) AS h11_to_11_30
  FROM store_sales AS store_sales
  JOIN household_demographics AS household_demographics
    ON store_sales.ss_hdemo_sk = household_demographics.hd_demo_sk
    AND (
      (
        household_demographics.hd_dep_count = 4
        AND household_demographics.hd_vehicle_count <= 4 + 2
      )
      OR (
        household_demographics.hd_dep_count = 2
        AND household_demographics.hd_vehicle_count <= 2 + 2
      )
      OR (
        household_demographics.hd_dep_count = 0
        AND household_demographics.hd_vehicle_count <= 0 + 2
      )
    )
  JOIN time_dim AS time_dim
    ON (
      store_sales.ss_sold_time_sk = time_dim.t_time_sk AND time_dim.t_hour = 11
    )
    AND time_dim.t_minute < 30
  JOIN store AS store
    ON store_sales.ss_store_sk = store.s_store_sk AND store.s_store_name = 'ese'
  WHERE
    TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND (
      TRUE
    ) AND TRUE
) AS s6_r
CROSS JOIN (
  SELECT
    COUNT(*) AS h11_30_to_12
  FROM store_sales AS store_sales
  JOIN household_demographics AS household_demographics
    ON store_sales.ss_hdemo_sk = household_demographics.hd_demo_sk
    AND (
      (
        household_demographics.hd_dep_count = 4
        AND household_demographics.hd_vehicle_count <= 4 + 2
      )
      OR (
        household_demographics.hd_dep_count = 2
        AND household_demographics.hd_vehicle_count <= 2 + 2
      )
      OR (
        household_demographics.hd_dep_count = 0
        AND household_demographics.hd_vehicle_count <= 0 + 2
      )
    )
  JOIN time_dim AS time_dim
    ON (
      store_sales.ss_sold_time_sk = time_dim.t_time_sk AND time_dim.t_hour = 11
    )
    AND time_dim.t_minute >= 30
  JOIN store AS store
    ON store_sales.ss_store_sk = store.s_store_sk AND store.s_store_name = 'ese'
  WHERE
    TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND (
      TRUE
    ) AND TRUE
) AS s7_r
CROSS JOIN (
  SELECT
    COUNT(*) AS h12_to_12_30
  FROM store_sales AS store_sales
  JOIN household_demographics AS household_demographics
    ON store_sales.ss_hdemo_sk = household_demographics.hd_demo_sk
    AND (
      (
        household_demographics.hd_dep_count = 4
        AND household_demographics.hd_vehicle_count <= 4 + 2
      )
      OR (
        household_demographics.hd_dep_count = 2
        AND household_demographics.hd_vehicle_count <= 2 + 2
      )
      OR (
        household_demographics.hd_dep_count = 0
        AND household_demographics.hd_vehicle_count <= 0 + 2
      )
    )
  JOIN time_dim AS time_dim
    ON (
      store_sales.ss_sold_time_sk = time_dim.t_time_sk AND time_dim.t_hour = 12
    )
    AND time_dim.t_minute < 30
  JOIN store AS store
    ON store_sales.ss_store_sk = store.s_store_sk AND store.s_store_name = 'ese'
  WHERE
    TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND (
      TRUE
    ) AND TRUE
) AS s8_r
