"""boto3 (default settings) with canned ACLs, an unsigned client (botocore UNSIGNED) reading what is public, and
generate_presigned_post used by a plain urllib form POST; run by io.coffer.gateway.clients.AclAndPostClientsTest.

Usage: python boto3_acl_post.py '{"endpoint": ..., "bucket": ...}'
Credentials come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY. Prints one JSON object with what it observed;
the Java test makes the assertions.
"""
import json
import sys
import urllib.error
import urllib.request
import uuid

import boto3
import botocore
from botocore import UNSIGNED
from botocore.config import Config


def error_code(call):
    try:
        call()
        return "none"
    except botocore.exceptions.ClientError as e:
        return e.response["Error"]["Code"] or str(e.response["ResponseMetadata"]["HTTPStatusCode"])


def form_post(post, filename, data):
    """POSTs the presigned form as a browser would: the fields, then the file, as multipart/form-data."""
    boundary = uuid.uuid4().hex
    body = b""
    for name, value in post["fields"].items():
        body += ("--%s\r\nContent-Disposition: form-data; name=\"%s\"\r\n\r\n%s\r\n" % (boundary, name, value)).encode()
    body += ("--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"%s\"\r\n"
             "Content-Type: text/plain\r\n\r\n" % (boundary, filename)).encode() + data
    body += ("\r\n--%s--\r\n" % boundary).encode()
    request = urllib.request.Request(post["url"], data=body, method="POST",
                                     headers={"Content-Type": "multipart/form-data; boundary=" + boundary})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def main():
    args = json.loads(sys.argv[1])
    bucket = args["bucket"]
    s3 = boto3.client("s3", endpoint_url=args["endpoint"], region_name="us-east-1")
    anonymous = boto3.client("s3", endpoint_url=args["endpoint"], region_name="us-east-1",
                             config=Config(signature_version=UNSIGNED))
    result = {"boto3": boto3.__version__}
    s3.create_bucket(Bucket=bucket, ACL="public-read")
    s3.put_object(Bucket=bucket, Key="public.txt", Body=b"public", ACL="public-read")
    s3.put_object(Bucket=bucket, Key="private.txt", Body=b"private")
    result["bucket_grants"] = sorted(g["Grantee"].get("URI", g["Grantee"].get("ID")) + ":" + g["Permission"]
                                     for g in s3.get_bucket_acl(Bucket=bucket)["Grants"])
    result["anonymous_public"] = anonymous.get_object(Bucket=bucket, Key="public.txt")["Body"].read().decode()
    result["anonymous_private"] = error_code(lambda: anonymous.get_object(Bucket=bucket, Key="private.txt"))
    result["anonymous_list"] = sorted(o["Key"] for o in anonymous.list_objects_v2(Bucket=bucket)["Contents"])
    result["anonymous_put"] = error_code(lambda: anonymous.put_object(Bucket=bucket, Key="x", Body=b"x"))

    post = s3.generate_presigned_post(
        bucket, "uploads/${filename}",
        Fields={"acl": "public-read", "Content-Type": "text/plain"},
        Conditions=[{"acl": "public-read"}, {"Content-Type": "text/plain"}, ["starts-with", "$key", "uploads/"],
                    ["content-length-range", 1, 1000]],
        ExpiresIn=600)
    result["post_status"], _ = form_post(post, "hello.txt", b"posted from a form")
    result["posted_body"] = anonymous.get_object(Bucket=bucket, Key="uploads/hello.txt")["Body"].read().decode()
    result["posted_grants"] = sorted(g["Grantee"].get("URI", g["Grantee"].get("ID")) + ":" + g["Permission"]
                                     for g in s3.get_object_acl(Bucket=bucket, Key="uploads/hello.txt")["Grants"])
    result["oversize_status"], oversize_body = form_post(post, "big.txt", b"x" * 2000)
    result["oversize_code"] = "EntityTooLarge" if "<Code>EntityTooLarge</Code>" in oversize_body else oversize_body
    post["fields"]["policy"] = post["fields"]["policy"][:-4] + "AAAA"
    result["tampered_status"], tampered_body = form_post(post, "evil.txt", b"evil")
    result["tampered_code"] = ("SignatureDoesNotMatch" if "<Code>SignatureDoesNotMatch</Code>" in tampered_body
                               else tampered_body)
    result["keys"] = sorted(o["Key"] for o in s3.list_objects_v2(Bucket=bucket)["Contents"])
    print(json.dumps(result))


if __name__ == "__main__":
    main()
