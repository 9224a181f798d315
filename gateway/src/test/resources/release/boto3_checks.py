"""boto3 on its default settings against a Coffer gateway; run by the release stage (io.coffer.gateway.release).

Usage: python boto3_checks.py ENDPOINT CHECK BUCKET ARGS...
  transfer BUCKET SOURCE DOWNLOAD    upload_file, then download_file (boto3's default TransferConfig)
  download BUCKET SOURCE DOWNLOAD    put_object of SOURCE (one request), then download_file (default TransferConfig)
  range BUCKET SOURCE FIRST LAST OUT put_object of SOURCE, then get_object with Range bytes=FIRST-LAST into OUT
  presign BUCKET SOURCE OUT          put_object of SOURCE, then generate_presigned_url and a plain GET into OUT
Credentials and region come from the environment. Prints one JSON object with what it saw; the Java test asserts.
A client error ends the script with its traceback and a non-zero status.
"""
import json
import sys
import urllib.error
import urllib.request

import boto3


def main():
    endpoint, check, bucket, *args = sys.argv[1:]
    s3 = boto3.client("s3", endpoint_url=endpoint)
    s3.create_bucket(Bucket=bucket)
    result = {"boto3": boto3.__version__}
    if check == "transfer":
        source, download = args
        s3.upload_file(source, bucket, "transfer.bin")
        result["etag"] = s3.head_object(Bucket=bucket, Key="transfer.bin")["ETag"]
        s3.download_file(bucket, "transfer.bin", download)
    elif check == "download":
        source, download = args
        with open(source, "rb") as f:
            s3.put_object(Bucket=bucket, Key="whole.bin", Body=f)
        s3.download_file(bucket, "whole.bin", download)
    elif check == "range":
        source, first, last, out = args
        with open(source, "rb") as f:
            s3.put_object(Bucket=bucket, Key="range.bin", Body=f)
        got = s3.get_object(Bucket=bucket, Key="range.bin", Range="bytes=%s-%s" % (first, last))
        result["content_range"] = got["ContentRange"]
        with open(out, "wb") as f:
            f.write(got["Body"].read())
    elif check == "presign":
        source, out = args
        with open(source, "rb") as f:
            s3.put_object(Bucket=bucket, Key="presigned.bin", Body=f)
        url = s3.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": "presigned.bin"})
        result["url"] = url
        try:
            with urllib.request.urlopen(url) as resp, open(out, "wb") as f:
                result["status"] = resp.status
                f.write(resp.read())
        except urllib.error.HTTPError as e:
            result["status"] = e.code
            result["error"] = e.read().decode("utf-8", "replace")
    else:
        sys.exit("unknown check " + check)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
