-- The orders unchanged. Not the same: an order whose amount is NULL makes both conditions NULL, so it is in
-- neither half.
SELECT * FROM orders
