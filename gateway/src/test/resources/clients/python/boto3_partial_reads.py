"""boto3 (default settings: checksum validation when supported) reading parts of objects from a Coffer gateway; run by
io.coffer.gateway.clients.Boto3PartialReadsTest.

Usage: python boto3_partial_reads.py '{"endpoint": ..., "bucket": ..., "source": FILE, "download": FILE}'
Credentials come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY. Prints one JSON object with what it observed;
the Java test makes the assertions.
"""
import hashlib
import json
import sys

import boto3


def main():
    args = json.loads(sys.argv[1])
    bucket = args["bucket"]
    s3 = boto3.client("s3", endpoint_url=args["endpoint"], region_name="us-east-1")
    result = {"boto3": boto3.__version__}
    s3.create_bucket(Bucket=bucket)
    with open(args["source"], "rb") as f:
        data = f.read()
    # one PUT: boto3 sends its default CRC32, which the gateway stores with the object
    s3.put_object(Bucket=bucket, Key="single.bin", Body=data)

    ranged = s3.get_object(Bucket=bucket, Key="single.bin", Range="bytes=1000-1999")
    result["ranged_md5"] = hashlib.md5(ranged["Body"].read()).hexdigest()
    result["ranged_content_range"] = ranged["ContentRange"]
    whole = s3.get_object(Bucket=bucket, Key="single.bin")
    result["whole_md5"] = hashlib.md5(whole["Body"].read()).hexdigest()
    result["whole_crc32"] = whole.get("ChecksumCRC32")
    # above boto3's 8 MiB threshold: ranged GETs of 8 MiB
    s3.download_file(bucket, "single.bin", args["download"])

    upload = s3.create_multipart_upload(Bucket=bucket, Key="copied.bin")["UploadId"]
    half = len(data) // 2
    parts = []
    for n, (first, last) in enumerate([(0, half - 1), (half, len(data) - 1)], start=1):
        copied = s3.upload_part_copy(Bucket=bucket, Key="copied.bin", UploadId=upload, PartNumber=n,
                                     CopySource={"Bucket": bucket, "Key": "single.bin"},
                                     CopySourceRange="bytes=%d-%d" % (first, last))
        parts.append({"PartNumber": n, "ETag": copied["CopyPartResult"]["ETag"]})
    s3.complete_multipart_upload(Bucket=bucket, Key="copied.bin", UploadId=upload,
                                 MultipartUpload={"Parts": parts})
    copy = s3.get_object(Bucket=bucket, Key="copied.bin")
    result["copied_md5"] = hashlib.md5(copy["Body"].read()).hexdigest()
    part2 = s3.get_object(Bucket=bucket, Key="copied.bin", PartNumber=2)
    result["copied_part2_md5"] = hashlib.md5(part2["Body"].read()).hexdigest()
    result["copied_parts_count"] = part2["PartsCount"]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
