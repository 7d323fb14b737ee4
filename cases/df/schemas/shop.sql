-- The shop's tables, read by the SQL cases of cases/df (`--schema cases/df/schemas/shop.sql`).
-- Columns are nullable unless declared NOT NULL; the primary keys are assumptions about the inputs.

CREATE TABLE customers (
  id INT NOT NULL PRIMARY KEY,
  name STRING,
  city STRING
);

CREATE TABLE orders (
  oid INT NOT NULL PRIMARY KEY,
  cid INT,
  amount INT,
  status STRING
);

-- Customer ids whose orders must be held back; an unknown id is recorded as NULL.
CREATE TABLE blocked (
  id INT
);
