-- Coffer metadata schema, version 5, PostgreSQL dialect.
-- A bucket's configuration documents (S3 bucket tagging, CORS), by name ("tagging", "cors"): the engine's encoding,
-- also sealed in the bucket's record on the backend, from which reindex restores them.

CREATE TABLE bucket_configs (
    bucket    TEXT COLLATE "C"  NOT NULL,
    name      TEXT  NOT NULL,
    document  BYTEA  NOT NULL,
    PRIMARY KEY (bucket, name)
);
