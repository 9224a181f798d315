-- Coffer metadata schema, version 7 (bucket versioning), SQLite dialect.
-- objects keeps the current version of each key that is not deleted. null_version: the version S3 calls "null"
-- (written while the bucket was unversioned or suspended; every row before this version is one).
-- object_versions keeps every other version: noncurrent versions and delete markers (a current delete marker is
-- the key's first row here while objects has no row for the key). version_order sorts a key's versions newest
-- first: a version moved here takes one less than the smallest of its key. Each row holds one reference on every
-- chunk in chunk_refs, as an objects row does.

ALTER TABLE objects ADD COLUMN null_version INTEGER NOT NULL DEFAULT 1;

CREATE TABLE object_versions (
    bucket         TEXT     NOT NULL REFERENCES buckets (name),
    key_utf8       BLOB     NOT NULL,
    version_order  BIGINT   NOT NULL,
    version_id     TEXT     NOT NULL,
    null_version   INTEGER  NOT NULL,
    delete_marker  INTEGER  NOT NULL,
    size           BIGINT   NOT NULL,
    etag           TEXT     NOT NULL,
    last_modified  BIGINT   NOT NULL,
    attributes     BLOB,
    manifest       BLOB,
    chunk_refs     BLOB,
    PRIMARY KEY (bucket, key_utf8, version_order)
);

CREATE UNIQUE INDEX object_versions_by_id ON object_versions (version_id);
