-- Orders per status with COUNT(*).
SELECT status, COUNT(*) AS n FROM orders GROUP BY status
