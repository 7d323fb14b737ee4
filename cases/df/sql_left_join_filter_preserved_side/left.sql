-- Oslo customers with their orders, filtered after the left join.
SELECT *
FROM customers c LEFT JOIN orders o ON c.id = o.cid
WHERE c.city = 'Oslo'
