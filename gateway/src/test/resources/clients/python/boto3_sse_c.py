"""boto3 (default settings) using SSE-C (customer-provided keys) on a Coffer gateway; run by
io.coffer.gateway.clients.CustomerKeyClientsTest.

Usage: python boto3_sse_c.py '{"endpoint": ..., "bucket": ...}'
Credentials come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY. Prints one JSON object with what it observed;
the Java test makes the assertions.
"""
import hashlib
import json
import sys

import boto3
import botocore
from boto3.s3.transfer import TransferConfig


def error_code(call):
    try:
        call()
        return "none"
    except botocore.exceptions.ClientError as e:
        return "%s/%s" % (e.response["ResponseMetadata"]["HTTPStatusCode"], e.response["Error"]["Code"])


def main():
    args = json.loads(sys.argv[1])
    bucket = args["bucket"]
    s3 = boto3.client("s3", endpoint_url=args["endpoint"], region_name="us-east-1")
    key_a = b"A" * 32
    key_b = b"B" * 32
    sse_a = {"SSECustomerAlgorithm": "AES256", "SSECustomerKey": key_a}
    sse_b = {"SSECustomerAlgorithm": "AES256", "SSECustomerKey": key_b}
    result = {"boto3": boto3.__version__}
    s3.create_bucket(Bucket=bucket)

    body = bytes(range(256)) * 4000
    put = s3.put_object(Bucket=bucket, Key="small", Body=body, **sse_a)
    result["put_algorithm"] = put.get("SSECustomerAlgorithm", "")
    got = s3.get_object(Bucket=bucket, Key="small", **sse_a)
    result["get_equal"] = got["Body"].read() == body
    result["get_key_md5"] = got.get("SSECustomerKeyMD5", "")
    result["ranged"] = s3.get_object(Bucket=bucket, Key="small", Range="bytes=10-19", **sse_a)["Body"].read().hex()
    result["get_without_key"] = error_code(lambda: s3.get_object(Bucket=bucket, Key="small"))
    result["head_other_key"] = error_code(lambda: s3.head_object(Bucket=bucket, Key="small", **sse_b))

    # the managed transfer: a multipart upload whose every part carries the key
    big = hashlib.sha256(b"seed").digest() * (12 * 1024 * 1024 // 32)
    config = TransferConfig(multipart_threshold=5 * 1024 * 1024, multipart_chunksize=5 * 1024 * 1024)
    with open("big.bin", "wb") as f:
        f.write(big)
    s3.upload_file("big.bin", bucket, "big", ExtraArgs=dict(sse_a), Config=config)
    s3.download_file(bucket, "big", "big.out", ExtraArgs=dict(sse_a), Config=config)
    with open("big.out", "rb") as f:
        result["multipart_equal"] = f.read() == big
    result["multipart_parts"] = s3.head_object(Bucket=bucket, Key="big", PartNumber=1, **sse_a).get("PartsCount", 0)

    s3.copy_object(Bucket=bucket, Key="copy", CopySource={"Bucket": bucket, "Key": "small"},
                   CopySourceSSECustomerAlgorithm="AES256", CopySourceSSECustomerKey=key_a, **sse_b)
    result["copy_equal"] = s3.get_object(Bucket=bucket, Key="copy", **sse_b)["Body"].read() == body
    result["copy_old_key"] = error_code(lambda: s3.get_object(Bucket=bucket, Key="copy", **sse_a))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
