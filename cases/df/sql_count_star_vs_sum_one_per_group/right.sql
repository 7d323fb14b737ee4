-- Orders per status with SUM(1): a sum of an int literal is a bigint, and every group has a row, so the
-- empty-input NULL of the global aggregate cannot happen.
SELECT status, SUM(1) AS n FROM orders GROUP BY status
