"""boto3 (default settings) using SSE-KMS (keys of the gateway's keyring) on a Coffer gateway; run by
io.coffer.gateway.clients.KmsClientsTest.

Usage: python boto3_sse_kms.py '{"endpoint": ..., "bucket": ..., "key_id": ...}'
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
    key_id = args["key_id"]
    s3 = boto3.client("s3", endpoint_url=args["endpoint"], region_name="us-east-1")
    sse = {"ServerSideEncryption": "aws:kms", "SSEKMSKeyId": key_id}
    result = {"boto3": boto3.__version__}
    s3.create_bucket(Bucket=bucket)

    body = bytes(range(256)) * 4000
    put = s3.put_object(Bucket=bucket, Key="small", Body=body, **sse)
    result["put_sse"] = put.get("ServerSideEncryption", "")
    result["put_key_id"] = put.get("SSEKMSKeyId", "")
    got = s3.get_object(Bucket=bucket, Key="small")
    result["get_equal"] = got["Body"].read() == body
    result["get_key_id"] = got.get("SSEKMSKeyId", "")
    result["ranged"] = s3.get_object(Bucket=bucket, Key="small", Range="bytes=10-19")["Body"].read().hex()
    result["unknown_key"] = error_code(lambda: s3.put_object(Bucket=bucket, Key="bad", Body=b"x",
                                                             ServerSideEncryption="aws:kms", SSEKMSKeyId="nope"))

    # the managed transfer: a multipart upload whose parts carry no key headers
    big = hashlib.sha256(b"seed").digest() * (12 * 1024 * 1024 // 32)
    config = TransferConfig(multipart_threshold=5 * 1024 * 1024, multipart_chunksize=5 * 1024 * 1024)
    with open("big.bin", "wb") as f:
        f.write(big)
    s3.upload_file("big.bin", bucket, "big", ExtraArgs=dict(sse), Config=config)
    s3.download_file(bucket, "big", "big.out", Config=config)
    with open("big.out", "rb") as f:
        result["multipart_equal"] = f.read() == big
    head = s3.head_object(Bucket=bucket, Key="big", PartNumber=1)
    result["multipart_parts"] = head.get("PartsCount", 0)
    result["multipart_key_id"] = head.get("SSEKMSKeyId", "")

    # default encryption with aws:kms: a plain put is stored under the bucket's key
    s3.put_bucket_encryption(Bucket=bucket, ServerSideEncryptionConfiguration={"Rules": [
        {"ApplyServerSideEncryptionByDefault": {"SSEAlgorithm": "aws:kms", "KMSMasterKeyID": key_id}}]})
    rule = s3.get_bucket_encryption(Bucket=bucket)["ServerSideEncryptionConfiguration"]["Rules"][0]
    result["default_key_id"] = rule["ApplyServerSideEncryptionByDefault"].get("KMSMasterKeyID", "")
    result["default_put_sse"] = s3.put_object(Bucket=bucket, Key="defaulted", Body=b"d").get("ServerSideEncryption")
    s3.copy_object(Bucket=bucket, Key="copy", CopySource={"Bucket": bucket, "Key": "small"},
                   ServerSideEncryption="AES256")
    copy = s3.get_object(Bucket=bucket, Key="copy")
    result["copy_equal"] = copy["Body"].read() == body
    result["copy_sse"] = copy.get("ServerSideEncryption", "")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
