-- Coffer metadata schema, version 4, PostgreSQL dialect.
-- The block map of a store that keeps blobs in numbered blocks (the PoR store, BlockMapStore): each blob's length
-- and block indices (big-endian 32-bit integers), the freed indices, the smallest never-used index and the opaque
-- state that changes in the same transaction (the PoR client state). Names as UTF-8 bytes (byte order).

CREATE TABLE block_map (
    name_utf8  BYTEA     NOT NULL PRIMARY KEY,
    length     BIGINT   NOT NULL,
    blocks     BYTEA     NOT NULL,
    created    BIGINT   NOT NULL
);

CREATE TABLE block_free (
    idx  INTEGER  NOT NULL PRIMARY KEY
);

CREATE TABLE block_state (
    id           INTEGER  NOT NULL PRIMARY KEY,
    next_unused  INTEGER  NOT NULL,
    state        BYTEA     NOT NULL
);
