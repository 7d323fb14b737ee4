-- Milliseconds from microseconds with integer division.
SELECT entry_id, micros DIV 1000 AS millis FROM ledger
