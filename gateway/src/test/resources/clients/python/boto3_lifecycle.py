"""boto3 (default settings) setting, reading and deleting a bucket's lifecycle rules on a Coffer gateway; run by
io.coffer.gateway.clients.LifecycleClientsTest.

Usage: python boto3_lifecycle.py '{"endpoint": ..., "bucket": ...}'
Credentials come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY. Prints one JSON object with what it observed;
the Java test makes the assertions.
"""
import json
import sys

import boto3
import botocore


def error_code(call):
    try:
        call()
    except botocore.exceptions.ClientError as e:
        return e.response["Error"]["Code"]
    return ""


def main():
    args = json.loads(sys.argv[1])
    bucket = args["bucket"]
    s3 = boto3.client("s3", endpoint_url=args["endpoint"], region_name="us-east-1")
    result = {"boto3": boto3.__version__}
    s3.create_bucket(Bucket=bucket)
    result["before"] = error_code(lambda: s3.get_bucket_lifecycle_configuration(Bucket=bucket))

    s3.put_bucket_lifecycle_configuration(Bucket=bucket, LifecycleConfiguration={"Rules": [
        {"ID": "logs", "Status": "Enabled",
         "Filter": {"And": {"Prefix": "logs/", "Tags": [{"Key": "tier", "Value": "tmp"}],
                            "ObjectSizeGreaterThan": 100}},
         "Expiration": {"Days": 30},
         "NoncurrentVersionExpiration": {"NoncurrentDays": 7, "NewerNoncurrentVersions": 3}},
        {"ID": "uploads", "Status": "Enabled", "Filter": {"Prefix": ""},
         "AbortIncompleteMultipartUpload": {"DaysAfterInitiation": 2}},
        {"ID": "markers", "Status": "Disabled", "Filter": {},
         "Expiration": {"ExpiredObjectDeleteMarker": True}},
    ]})
    rules = s3.get_bucket_lifecycle_configuration(Bucket=bucket)["Rules"]
    result["ids"] = [r["ID"] for r in rules]
    result["statuses"] = [r["Status"] for r in rules]
    result["and_prefix"] = rules[0]["Filter"]["And"]["Prefix"]
    result["and_tag"] = rules[0]["Filter"]["And"]["Tags"][0]["Value"]
    result["and_size"] = rules[0]["Filter"]["And"]["ObjectSizeGreaterThan"]
    result["days"] = rules[0]["Expiration"]["Days"]
    result["newer"] = rules[0]["NoncurrentVersionExpiration"]["NewerNoncurrentVersions"]
    result["abort_days"] = rules[1]["AbortIncompleteMultipartUpload"]["DaysAfterInitiation"]
    result["marker"] = rules[2]["Expiration"]["ExpiredObjectDeleteMarker"]

    result["days_zero"] = error_code(lambda: s3.put_bucket_lifecycle_configuration(
        Bucket=bucket, LifecycleConfiguration={"Rules": [
            {"ID": "zero", "Status": "Enabled", "Filter": {"Prefix": ""}, "Expiration": {"Days": 0}}]}))
    result["same_id"] = error_code(lambda: s3.put_bucket_lifecycle_configuration(
        Bucket=bucket, LifecycleConfiguration={"Rules": [
            {"ID": "a", "Status": "Enabled", "Filter": {"Prefix": "x"}, "Expiration": {"Days": 1}},
            {"ID": "a", "Status": "Enabled", "Filter": {"Prefix": "y"}, "Expiration": {"Days": 1}}]}))
    result["transition"] = error_code(lambda: s3.put_bucket_lifecycle_configuration(
        Bucket=bucket, LifecycleConfiguration={"Rules": [
            {"ID": "t", "Status": "Enabled", "Filter": {"Prefix": ""},
             "Transitions": [{"Days": 30, "StorageClass": "GLACIER"}]}]}))
    result["after_refusals"] = len(s3.get_bucket_lifecycle_configuration(Bucket=bucket)["Rules"])

    s3.delete_bucket_lifecycle(Bucket=bucket)
    result["after_delete"] = error_code(lambda: s3.get_bucket_lifecycle_configuration(Bucket=bucket))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
