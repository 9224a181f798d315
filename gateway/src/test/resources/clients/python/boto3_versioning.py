"""boto3 (default settings) using bucket versioning on a Coffer gateway; run by
io.coffer.gateway.clients.VersioningClientsTest.

Usage: python boto3_versioning.py '{"endpoint": ..., "bucket": ...}'
Credentials come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY. Prints one JSON object with what it observed;
the Java test makes the assertions.
"""
import json
import sys

import boto3
import botocore


def main():
    args = json.loads(sys.argv[1])
    bucket = args["bucket"]
    s3 = boto3.client("s3", endpoint_url=args["endpoint"], region_name="us-east-1")
    resource = boto3.resource("s3", endpoint_url=args["endpoint"], region_name="us-east-1")
    result = {"boto3": boto3.__version__}
    s3.create_bucket(Bucket=bucket)
    resource.BucketVersioning(bucket).enable()
    result["status"] = s3.get_bucket_versioning(Bucket=bucket).get("Status", "")

    v1 = s3.put_object(Bucket=bucket, Key="doc.txt", Body=b"one")["VersionId"]
    v2 = s3.put_object(Bucket=bucket, Key="doc.txt", Body=b"two")["VersionId"]
    s3.put_object(Bucket=bucket, Key="other.txt", Body=b"other")
    result["distinct_ids"] = v1 != v2
    result["old_body"] = s3.get_object(Bucket=bucket, Key="doc.txt", VersionId=v1)["Body"].read().decode()
    marker = s3.delete_object(Bucket=bucket, Key="doc.txt")
    result["marker"] = marker.get("DeleteMarker", False)
    try:
        s3.head_object(Bucket=bucket, Key="doc.txt")
        result["head_after_delete"] = 200
    except botocore.exceptions.ClientError as e:
        result["head_after_delete"] = e.response["ResponseMetadata"]["HTTPStatusCode"]

    # every version and marker, one per page, through boto3's paginator (key and version-id markers)
    seen = []
    for page in s3.get_paginator("list_object_versions").paginate(Bucket=bucket, PaginationConfig={"PageSize": 1}):
        for v in page.get("Versions", []):
            seen.append("%s@%s:%s" % (v["Key"], "latest" if v["IsLatest"] else "old", v["Size"]))
        for m in page.get("DeleteMarkers", []):
            seen.append("%s@%s:marker" % (m["Key"], "latest" if m["IsLatest"] else "old"))
    result["listed"] = seen

    # restore by deleting the marker, then empty the bucket the way scripts do for versioned buckets
    s3.delete_object(Bucket=bucket, Key="doc.txt", VersionId=marker["VersionId"])
    result["restored_body"] = s3.get_object(Bucket=bucket, Key="doc.txt")["Body"].read().decode()
    resource.Bucket(bucket).object_versions.delete()
    result["left"] = len(s3.list_object_versions(Bucket=bucket).get("Versions", []))
    s3.delete_bucket(Bucket=bucket)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
