-- Milliseconds through a double division and a cast: micros is rounded to a double first
-- (1000000000000000999 becomes 1000000000000001024), so the result is 1000000000000001 where DIV gives
-- 1000000000000000.
SELECT entry_id, CAST(micros / 1000 AS BIGINT) AS millis FROM ledger
