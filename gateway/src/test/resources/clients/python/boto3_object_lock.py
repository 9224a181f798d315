"""boto3 (default settings) using S3 Object Lock on a Coffer gateway; run by
io.coffer.gateway.clients.ObjectLockClientsTest.

Usage: python boto3_object_lock.py '{"endpoint": ..., "bucket": ...}'
Credentials come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY. Prints one JSON object with what it observed;
the Java test makes the assertions.
"""
import datetime
import json
import sys

import boto3
import botocore


def error_code(call):
    try:
        call()
        return "none"
    except botocore.exceptions.ClientError as e:
        return e.response["Error"]["Code"]


def main():
    args = json.loads(sys.argv[1])
    bucket = args["bucket"]
    s3 = boto3.client("s3", endpoint_url=args["endpoint"], region_name="us-east-1")
    result = {"boto3": boto3.__version__}
    s3.create_bucket(Bucket=bucket, ObjectLockEnabledForBucket=True)
    s3.put_object_lock_configuration(Bucket=bucket, ObjectLockConfiguration={
        "ObjectLockEnabled": "Enabled",
        "Rule": {"DefaultRetention": {"Mode": "GOVERNANCE", "Days": 1}}})
    rule = s3.get_object_lock_configuration(Bucket=bucket)["ObjectLockConfiguration"]["Rule"]["DefaultRetention"]
    result["default"] = "%s/%d" % (rule["Mode"], rule["Days"])

    version = s3.put_object(Bucket=bucket, Key="backup.tar", Body=b"snapshot")["VersionId"]
    head = s3.head_object(Bucket=bucket, Key="backup.tar", VersionId=version)
    result["head_mode"] = head.get("ObjectLockMode", "")
    result["delete_without_bypass"] = error_code(
        lambda: s3.delete_object(Bucket=bucket, Key="backup.tar", VersionId=version))
    until = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=2)
    # GOVERNANCE becomes COMPLIANCE only with the bypass, as on S3
    s3.put_object_retention(Bucket=bucket, Key="backup.tar", VersionId=version, BypassGovernanceRetention=True,
                            Retention={"Mode": "COMPLIANCE", "RetainUntilDate": until})
    result["retention_mode"] = s3.get_object_retention(Bucket=bucket, Key="backup.tar",
                                                       VersionId=version)["Retention"]["Mode"]
    result["delete_with_bypass"] = error_code(
        lambda: s3.delete_object(Bucket=bucket, Key="backup.tar", VersionId=version,
                                 BypassGovernanceRetention=True))
    batch = s3.delete_objects(Bucket=bucket, BypassGovernanceRetention=True,
                              Delete={"Objects": [{"Key": "backup.tar", "VersionId": version}]})
    result["batch_errors"] = [e["Code"] for e in batch.get("Errors", [])]
    s3.put_object_legal_hold(Bucket=bucket, Key="backup.tar", VersionId=version, LegalHold={"Status": "ON"})
    result["legal_hold"] = s3.get_object_legal_hold(Bucket=bucket, Key="backup.tar",
                                                    VersionId=version)["LegalHold"]["Status"]
    result["body"] = s3.get_object(Bucket=bucket, Key="backup.tar", VersionId=version)["Body"].read().decode()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
