-- tpcds/q90 rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)
SELECT
  CAST(at_r.amc_r AS DECIMAL(15, 4)) / CAST(pt_r.pmc_r AS DECIMAL(15, 4)) AS am_pm_ratio
FROM (
  SELECT
    COUNT(*) AS amc_r
  FROM web_sales AS web_sales
  JOIN household_demographics AS household_demographics
    ON web_sales.ws_ship_hdemo_sk = household_demographics.hd_demo_sk
    AND household_demographics.hd_dep_count = 6
  JOIN time_dim AS time_dim
    ON web_sales.ws_sold_time_sk = time_dim.t_time_sk
    AND time_dim.t_hour BETWEEN 8 AND 8 + 1
  JOIN web_page AS web_page
    ON web_sales.ws_web_page_sk = web_page.wp_web_page_sk
    AND web_page.wp_char_count BETWEEN 5000 AND 5200
  WHERE
    TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE
) AS at_r
CROSS JOIN (
  SELECT
    COUNT(*) AS pmc_r
  FROM web_sales AS web_sales
  JOIN household_demographics AS household_demographics
    ON web_sales.ws_ship_hdemo_sk = household_demographics.hd_demo_sk
    AND household_demographics.hd_dep_count = 6
  JOIN time_dim AS time_dim
    ON web_sales.ws_sold_time_sk = time_dim.t_time_sk
    AND time_dim.t_hour BETWEEN 19 AND 19 + 1
  JOIN web_page AS web_page
    ON web_sales.ws_web_page_sk = web_page.wp_web_page_sk
    AND web_page.wp_char_count BETWEEN 5000 AND 5200
  WHERE
    TRUE AND TRUE AND TRUE AND TRUE AND TRUE AND TRUE
) AS pt_r
ORDER BY
  am_pm_ratio
LIMIT 100
