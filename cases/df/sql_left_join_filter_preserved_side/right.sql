-- The filter on the customers' city moved into a subquery on the preserved side: it reads only customer
-- columns, which the left join never changes or pads.
SELECT *
FROM (SELECT * FROM customers WHERE city = 'Oslo') c LEFT JOIN orders o ON c.id = o.cid
