-- Orders without a customer, written correctly with IS NULL.
SELECT oid FROM orders WHERE cid IS NULL
