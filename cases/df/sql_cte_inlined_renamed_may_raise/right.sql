SELECT cust.name, SUM(o2.amount) AS total
FROM customers cust
JOIN (SELECT cid, CAST(status AS INT) AS status_code, amount FROM orders WHERE amount > 10) o2
  ON cust.id = o2.cid
WHERE cust.id NOT IN (SELECT id FROM blocked) AND o2.status_code >= 0
GROUP BY cust.name
