-- Coffer metadata schema, version 6, SQLite dialect.
-- Maintenance leases: one row per job that only one gateway at a time may run ("gc"). The holder names the gateway
-- process; expires is epoch milliseconds, after which another holder may take the lease.

CREATE TABLE leases (
    name     TEXT    NOT NULL PRIMARY KEY,
    holder   TEXT    NOT NULL,
    expires  BIGINT  NOT NULL
);
