-- Coffer metadata schema, version 1, SQLite dialect.
-- Keys are stored as the BLOB of their UTF-8 bytes so that SQLite's memcmp ordering is S3's byte order.
-- Timestamps are epoch milliseconds.

CREATE TABLE buckets (
    name      TEXT    NOT NULL PRIMARY KEY,
    owner     TEXT    NOT NULL,
    region    TEXT,
    created   BIGINT  NOT NULL
);

CREATE TABLE packs (
    name        TEXT    NOT NULL PRIMARY KEY,
    size        BIGINT  NOT NULL,
    created     BIGINT  NOT NULL,
    retired_at  BIGINT
);

CREATE TABLE chunks (
    id           BLOB     NOT NULL PRIMARY KEY,
    pack         TEXT     NOT NULL REFERENCES packs (name),
    pack_offset  BIGINT   NOT NULL,
    length       INTEGER  NOT NULL,
    refs         BIGINT   NOT NULL,
    released_at  BIGINT
);

CREATE INDEX chunks_by_pack ON chunks (pack);

CREATE TABLE objects (
    bucket         TEXT    NOT NULL REFERENCES buckets (name),
    key_utf8       BLOB    NOT NULL,
    version_id     TEXT    NOT NULL,
    size           BIGINT  NOT NULL,
    etag           TEXT    NOT NULL,
    last_modified  BIGINT  NOT NULL,
    attributes     BLOB,
    manifest       BLOB,
    chunk_refs     BLOB,
    PRIMARY KEY (bucket, key_utf8)
);

CREATE TABLE uploads (
    upload_id   TEXT    NOT NULL PRIMARY KEY,
    bucket      TEXT    NOT NULL REFERENCES buckets (name),
    key_utf8    BLOB    NOT NULL,
    owner       TEXT,
    initiated   BIGINT  NOT NULL,
    attributes  BLOB
);

CREATE INDEX uploads_by_key ON uploads (bucket, key_utf8, upload_id);

CREATE TABLE parts (
    upload_id      TEXT     NOT NULL REFERENCES uploads (upload_id),
    part_number    INTEGER  NOT NULL,
    size           BIGINT   NOT NULL,
    etag           TEXT     NOT NULL,
    last_modified  BIGINT   NOT NULL,
    attributes     BLOB,
    manifest       BLOB,
    chunk_refs     BLOB,
    PRIMARY KEY (upload_id, part_number)
);
