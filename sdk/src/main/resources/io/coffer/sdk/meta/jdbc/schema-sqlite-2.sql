-- Coffer metadata schema, version 2, SQLite dialect.
-- The upload a current object version was completed from (null for any other write), so that a repeated
-- CompleteMultipartUpload of that upload answers with the object it produced.

ALTER TABLE objects ADD COLUMN upload_id TEXT;
