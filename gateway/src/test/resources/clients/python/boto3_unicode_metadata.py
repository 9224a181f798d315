"""boto3 on its default settings storing non-ASCII user metadata; run by io.coffer.gateway.clients.NonAsciiMetadataTest.

Usage: python boto3_unicode_metadata.py '{"endpoint": ..., "bucket": ...}'
Credentials come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY. Prints one JSON object with what boto3 read back;
the Java test makes the assertions.
"""
import json
import sys

import boto3
from botocore.exceptions import ParamValidationError


def main():
    args = json.loads(sys.argv[1])
    bucket = args["bucket"]
    s3 = boto3.client("s3", endpoint_url=args["endpoint"], region_name="us-east-1")
    s3.create_bucket(Bucket=bucket)
    result = {"boto3": boto3.__version__}

    # botocore refuses a non-ASCII value given as Metadata
    try:
        s3.put_object(Bucket=bucket, Key="refused", Body=b"x", Metadata={"meta1": "Hello World\xe9"})
        result["metadata_param"] = "accepted"
    except ParamValidationError:
        result["metadata_param"] = "ParamValidationError"

    # so ceph/s3-tests (test_object_set_get_unicode_metadata) sets the header itself: botocore sends its UTF-8
    def set_headers(**kwargs):
        kwargs["params"]["headers"]["x-amz-meta-meta1"] = "Hello World\xe9"
        kwargs["params"]["headers"]["x-amz-meta-cjk"] = "\u4e2d\u6587"

    s3.meta.events.register("before-call.s3.PutObject", set_headers)
    s3.put_object(Bucket=bucket, Key="raw", Body=b"bar")
    s3.meta.events.unregister("before-call.s3.PutObject", set_headers)
    result["raw_get"] = s3.get_object(Bucket=bucket, Key="raw")["Metadata"]
    result["raw_head"] = s3.head_object(Bucket=bucket, Key="raw")["Metadata"]

    # the portable way: the client sends RFC 2047 encoded-words, which are ASCII
    s3.put_object(Bucket=bucket, Key="encoded", Body=b"bar", Metadata={
        "meta1": "=?UTF-8?Q?Hello_World=C3=A9?=", "cjk": "=?UTF-8?B?5Lit5paH?="})
    result["encoded_get"] = s3.get_object(Bucket=bucket, Key="encoded")["Metadata"]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
