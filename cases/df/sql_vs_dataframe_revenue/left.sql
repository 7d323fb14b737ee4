-- Revenue of paid orders per city.
SELECT c.city, SUM(o.amount) AS revenue
FROM orders o JOIN customers c ON o.cid = c.id
WHERE o.status = 'paid'
GROUP BY c.city
