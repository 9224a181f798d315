"""boto3 signing the ways it does by default and on request; run by io.coffer.gateway.clients.SignatureClientsTest.

Usage: python boto3_signatures.py '{"endpoint": ..., "bucket": ..., "addressing": "path"|"virtual"}'
Credentials come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY. Prints one JSON object with what it observed;
the Java test makes the assertions.
"""
import http.client
import json
import sys
import urllib.parse

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError


def send(url, method, body=None, headers=None):
    """One request exactly as given: http.client adds no Content-Type (urllib would, and V2 signs it)."""
    u = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    try:
        conn.request(method, u.path + ("?" + u.query if u.query else ""), body=body, headers=headers or {})
        resp = conn.getresponse()
        return {"status": resp.status, "body": resp.read().decode("utf-8", "replace")}
    finally:
        conn.close()


def error_code(call):
    try:
        call()
        return "none"
    except ClientError as e:
        return "%s %s" % (e.response["ResponseMetadata"]["HTTPStatusCode"], e.response["Error"]["Code"])


def main():
    args = json.loads(sys.argv[1])
    bucket = args["bucket"]
    s3 = {"addressing_style": args["addressing"]}
    retries = {"max_attempts": 1}
    # no signature_version: what a user gets (SigV4 requests, SigV2 presigned URLs)
    default = boto3.client("s3", endpoint_url=args["endpoint"], region_name="us-east-1",
                           config=Config(s3=s3, retries=retries))
    v2 = boto3.client("s3", endpoint_url=args["endpoint"], region_name="us-east-1",
                      config=Config(s3=s3, retries=retries, signature_version="s3"))
    v4 = boto3.client("s3", endpoint_url=args["endpoint"], region_name="us-east-1",
                      config=Config(s3=s3, retries=retries, signature_version="s3v4"))
    result = {"boto3": boto3.__version__}
    default.create_bucket(Bucket=bucket)

    # presigned URLs on the default configuration
    put_url = default.generate_presigned_url("put_object", Params={"Bucket": bucket, "Key": "pre signed.txt"},
                                             ExpiresIn=300)
    result["default_presigned_url"] = put_url
    result["presigned_put"] = send(put_url, "PUT", b"via a SigV2 presigned PUT\n")
    get_url = default.generate_presigned_url("get_object", Params={
        "Bucket": bucket, "Key": "pre signed.txt", "ResponseContentType": "text/x-presigned"}, ExpiresIn=300)
    result["presigned_get"] = send(get_url, "GET")
    result["presigned_put_added_meta"] = send(put_url, "PUT", b"x", {"x-amz-meta-injected": "1"})
    result["presigned_put_added_copy_source"] = send(put_url, "PUT", b"", {
        "x-amz-copy-source": "/%s/v2-header.txt" % bucket})
    meta_url = default.generate_presigned_url("put_object", Params={
        "Bucket": bucket, "Key": "presigned-meta.txt", "Metadata": {"m": "v"}, "ContentType": "text/x-signed"},
        ExpiresIn=300)
    result["presigned_put_meta"] = send(meta_url, "PUT", b"metadata in the query\n")
    head = default.head_object(Bucket=bucket, Key="presigned-meta.txt")
    result["presigned_put_meta_stored"] = "%s %s" % (head["Metadata"].get("m"), head["ContentType"])
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(get_url).query))
    tampered = get_url.replace(urllib.parse.quote(query["Signature"], safe=""), "AAAAAAAAAAAAAAAAAAAAAAAAAAA%3D")
    result["presigned_get_tampered"] = send(tampered, "GET")
    expired = default.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": "pre signed.txt"},
                                             ExpiresIn=-10)
    result["presigned_get_expired"] = send(expired, "GET")

    # header-signed SigV2: objects, metadata, subresources (uploads, uploadId, partNumber, delete, versioning)
    v2.put_object(Bucket=bucket, Key="v2-header.txt", Body=b"signed with HMAC-SHA1\n", Metadata={"a": "b"})
    got = v2.get_object(Bucket=bucket, Key="v2-header.txt")
    result["v2_get_body"] = got["Body"].read().decode("utf-8")
    result["v2_get_meta"] = got["Metadata"].get("a")
    upload = v2.create_multipart_upload(Bucket=bucket, Key="v2 multi")
    part = v2.upload_part(Bucket=bucket, Key="v2 multi", UploadId=upload["UploadId"], PartNumber=1, Body=b"p" * 1024)
    v2.complete_multipart_upload(Bucket=bucket, Key="v2 multi", UploadId=upload["UploadId"],
                                 MultipartUpload={"Parts": [{"PartNumber": 1, "ETag": part["ETag"]}]})
    result["v2_multi_length"] = v2.head_object(Bucket=bucket, Key="v2 multi")["ContentLength"]
    result["v2_versioning"] = v2.get_bucket_versioning(Bucket=bucket).get("Status", "")
    result["v2_list"] = sorted(o["Key"] for o in v2.list_objects(Bucket=bucket).get("Contents", []))
    v2_wrong = boto3.client("s3", endpoint_url=args["endpoint"], region_name="us-east-1",
                            aws_access_key_id=v2._request_signer._credentials.access_key,
                            aws_secret_access_key="not-the-secret",
                            config=Config(s3=s3, retries=retries, signature_version="s3"))
    result["v2_wrong_secret"] = error_code(lambda: v2_wrong.head_bucket(Bucket=bucket))

    # SigV4 presigned PUT: the holder cannot add x-amz-* headers the signer did not sign
    v4_put = v4.generate_presigned_url("put_object", Params={"Bucket": bucket, "Key": "v4-target.txt"},
                                       ExpiresIn=300)
    result["v4_presigned_put_added_copy_source"] = send(v4_put, "PUT", b"", {
        "x-amz-copy-source": "/%s/v2-header.txt" % bucket})
    result["v4_presigned_put_added_meta"] = send(v4_put, "PUT", b"x", {"x-amz-meta-injected": "1"})
    result["v4_target_after_refusals"] = error_code(lambda: v4.head_object(Bucket=bucket, Key="v4-target.txt"))
    result["v4_presigned_put"] = send(v4_put, "PUT", b"plain presigned PUT\n")
    expired_put = v4.generate_presigned_url("put_object", Params={"Bucket": bucket, "Key": "v4-target.txt"},
                                            ExpiresIn=-1000)
    result["v4_presigned_put_expired"] = send(expired_put, "PUT", b"too late\n")

    # a non-ASCII metadata value (ceph/s3-tests test_object_set_get_unicode_metadata): boto3 signs the value's
    # UTF-8 and sends its UTF-8 bytes
    def set_unicode_metadata(**kwargs):
        kwargs["params"]["headers"]["x-amz-meta-meta1"] = "Hello World\xe9"

    for name, client in (("v4", v4), ("v2", v2)):
        client.meta.events.register("before-call.s3.PutObject", set_unicode_metadata)
        try:
            client.put_object(Bucket=bucket, Key="unicode-" + name, Body=b"bar")
            result["unicode_put_" + name] = "ok"
        except ClientError as e:
            result["unicode_put_" + name] = e.response["Error"]["Code"]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
