-- Amounts adjusted by + 1 - 1 (INT arithmetic, ANSI mode).
SELECT oid, amount + 1 - 1 AS amount FROM orders
