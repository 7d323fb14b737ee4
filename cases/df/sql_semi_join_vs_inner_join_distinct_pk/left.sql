-- Orders placed by a known customer, as a LEFT SEMI JOIN (each order at most once).
SELECT * FROM orders o LEFT SEMI JOIN customers c ON o.cid = c.id
