-- The amounts unchanged. Not the same: amount + 1 overflows INT at 2147483647 and ANSI mode raises.
SELECT oid, amount FROM orders
