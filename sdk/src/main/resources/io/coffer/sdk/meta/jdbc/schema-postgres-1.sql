-- Coffer metadata schema, version 1, PostgreSQL dialect (standard SQL; also meant for CockroachDB and YugabyteDB).
-- Keys are stored as the BYTEA of their UTF-8 bytes so that ordering is S3's byte order.
-- Timestamps are epoch milliseconds. Names that are listed in order use the "C" collation (byte order).

CREATE TABLE buckets (
    name      TEXT COLLATE "C"   NOT NULL PRIMARY KEY,
    owner     TEXT    NOT NULL,
    region    TEXT,
    created   BIGINT  NOT NULL
);

CREATE TABLE packs (
    name        TEXT COLLATE "C"   NOT NULL PRIMARY KEY,
    size        BIGINT  NOT NULL,
    created     BIGINT  NOT NULL,
    retired_at  BIGINT
);

CREATE TABLE chunks (
    id           BYTEA    NOT NULL PRIMARY KEY,
    pack         TEXT COLLATE "C"    NOT NULL REFERENCES packs (name),
    pack_offset  BIGINT   NOT NULL,
    length       INTEGER  NOT NULL,
    refs         BIGINT   NOT NULL,
    released_at  BIGINT
);

CREATE INDEX chunks_by_pack ON chunks (pack);

CREATE TABLE objects (
    bucket         TEXT COLLATE "C"   NOT NULL REFERENCES buckets (name),
    key_utf8       BYTEA   NOT NULL,
    version_id     TEXT    NOT NULL,
    size           BIGINT  NOT NULL,
    etag           TEXT    NOT NULL,
    last_modified  BIGINT  NOT NULL,
    attributes     BYTEA,
    manifest       BYTEA,
    chunk_refs     BYTEA,
    PRIMARY KEY (bucket, key_utf8)
);

CREATE TABLE uploads (
    upload_id   TEXT COLLATE "C"   NOT NULL PRIMARY KEY,
    bucket      TEXT COLLATE "C"   NOT NULL REFERENCES buckets (name),
    key_utf8    BYTEA   NOT NULL,
    owner       TEXT,
    initiated   BIGINT  NOT NULL,
    attributes  BYTEA
);

CREATE INDEX uploads_by_key ON uploads (bucket, key_utf8, upload_id);

CREATE TABLE parts (
    upload_id      TEXT COLLATE "C"    NOT NULL REFERENCES uploads (upload_id),
    part_number    INTEGER  NOT NULL,
    size           BIGINT   NOT NULL,
    etag           TEXT     NOT NULL,
    last_modified  BIGINT   NOT NULL,
    attributes     BYTEA,
    manifest       BYTEA,
    chunk_refs     BYTEA,
    PRIMARY KEY (upload_id, part_number)
);
