-- Gross amounts in SQL: 1.1 is an exact decimal(2,1), so the product is a decimal (3.3 for 3).
SELECT oid, amount * 1.1 AS gross FROM orders
