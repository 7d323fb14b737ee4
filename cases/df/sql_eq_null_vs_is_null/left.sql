-- Orders without a customer, written `cid = NULL`: comparing with NULL gives NULL, so this is always empty.
SELECT oid FROM orders WHERE cid = NULL
