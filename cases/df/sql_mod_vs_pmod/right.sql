-- The same with pmod. Not the same: % takes the dividend's sign (-1 % 7 is -1), pmod is never negative (6).
SELECT oid, pmod(amount, 7) AS bucket FROM orders
