-- The orders split by a condition and put back together: WHERE p UNION ALL WHERE NOT p.
SELECT * FROM orders WHERE amount > 100
UNION ALL
SELECT * FROM orders WHERE NOT (amount > 100)
