"""boto3 against a Coffer gateway; run by io.coffer.gateway.clients.Boto3Test.

Usage: python boto3_roundtrip.py '{"endpoint": ..., "bucket": ..., "addressing": "path"|"virtual",
                                    "source": FILE, "download": FILE, "part_size": BYTES}'
Credentials come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY. Prints one JSON object with what it observed;
the Java test makes the assertions.
"""
import json
import sys
import urllib.request

import boto3
from boto3.s3.transfer import TransferConfig
from botocore.config import Config


def main():
    args = json.loads(sys.argv[1])
    bucket = args["bucket"]
    s3 = boto3.client(
        "s3",
        endpoint_url=args["endpoint"],
        region_name="us-east-1",
        config=Config(s3={"addressing_style": args["addressing"]}, signature_version="s3v4",
                      retries={"max_attempts": 1}),
    )
    result = {"boto3": boto3.__version__}
    s3.create_bucket(Bucket=bucket)

    transfer = TransferConfig(multipart_threshold=args["part_size"], multipart_chunksize=args["part_size"],
                              max_concurrency=4, use_threads=True)
    s3.upload_file(args["source"], bucket, "big.bin", Config=transfer)
    head = s3.head_object(Bucket=bucket, Key="big.bin")
    result["head_etag"] = head["ETag"]
    result["head_length"] = head["ContentLength"]
    s3.download_file(bucket, "big.bin", args["download"], Config=transfer)

    payload = b"uploaded through a presigned PUT URL\n"
    put_url = s3.generate_presigned_url("put_object", Params={"Bucket": bucket, "Key": "presigned.txt"},
                                        ExpiresIn=300)
    with urllib.request.urlopen(urllib.request.Request(put_url, data=payload, method="PUT")) as resp:
        result["presigned_put_status"] = resp.status
        result["presigned_put_etag"] = resp.headers["ETag"]
    get_url = s3.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": "presigned.txt"},
                                        ExpiresIn=300)
    with urllib.request.urlopen(get_url) as resp:
        result["presigned_get_status"] = resp.status
        result["presigned_get_body"] = resp.read().decode("utf-8")
    result["presigned_put_url_host"] = urllib.request.urlparse(put_url).hostname
    result["presigned_head_etag"] = s3.head_object(Bucket=bucket, Key="presigned.txt")["ETag"]

    listed = s3.list_objects_v2(Bucket=bucket)
    result["keys"] = [o["Key"] for o in listed.get("Contents", [])]
    # empty the bucket the way scripts do for versioned and unversioned buckets alike: every version of every key
    versions = boto3.resource("s3", endpoint_url=args["endpoint"], region_name="us-east-1",
                              config=s3.meta.config).Bucket(bucket).object_versions
    result["version_ids"] = sorted(v.id for v in versions.all())
    deleted = versions.delete()
    result["versions_deleted"] = sorted(d["Key"] + "@" + d.get("VersionId", "") for r in deleted
                                        for d in r.get("Deleted", []))
    s3.delete_bucket(Bucket=bucket)
    result["buckets_after_delete"] = [b["Name"] for b in s3.list_buckets()["Buckets"]]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
