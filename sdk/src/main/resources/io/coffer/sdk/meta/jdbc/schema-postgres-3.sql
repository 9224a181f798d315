-- Coffer metadata schema, version 3, PostgreSQL dialect.
-- A chunk's plaintext length beside its stored length, for the storage statistics (compression ratio): null for
-- chunks indexed before this version or by reindex (a pack index does not record it).

ALTER TABLE chunks ADD COLUMN plain_length BIGINT;
