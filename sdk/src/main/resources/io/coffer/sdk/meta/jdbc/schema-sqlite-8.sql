-- Coffer metadata schema, version 8 (Object Lock), SQLite dialect.
-- object_locks: the Object Lock of one object version, by its version id (the manifest id, unique in the store):
-- mode GOVERNANCE or COMPLIANCE with retain_until (milliseconds since the epoch), both null without a retention,
-- and legal_hold 0 or 1. A version without a lock has no row. The same lock is sealed on the backend (docs/FORMAT.md,
-- "Object lock records"), from which reindex restores the rows.

CREATE TABLE object_locks (
    version_id    TEXT     NOT NULL PRIMARY KEY,
    bucket        TEXT     NOT NULL,
    mode          TEXT,
    retain_until  BIGINT,
    legal_hold    INTEGER  NOT NULL
);

CREATE INDEX object_locks_by_bucket ON object_locks (bucket);
