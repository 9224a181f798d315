-- Coffer metadata schema, version 5, SQLite dialect.
-- A bucket's configuration documents (S3 bucket tagging, CORS), by name ("tagging", "cors"): the engine's encoding,
-- also sealed in the bucket's record on the backend, from which reindex restores them.

CREATE TABLE bucket_configs (
    bucket    TEXT  NOT NULL,
    name      TEXT  NOT NULL,
    document  BLOB  NOT NULL,
    PRIMARY KEY (bucket, name)
);
