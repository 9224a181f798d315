"""pytest plugin that conformance/s3-tests.sh loads into ceph/s3-tests.

Records each test's markers in the JUnit XML (s3_tests_report.py matches them against s3-tests-reasons.txt), and
keeps one failure from failing every later test: the suite empties and deletes all its buckets before and after each
test and raises if one is left, so a bucket the gateway refuses to delete would fail the setup of every test after it.
When the suite's own teardown leaves a bucket (its error stays on the test that left it), this removes it, aborting
multipart uploads first, before the next test starts.
"""
import sys

import pytest


def pytest_collection_modifyitems(items):
    for item in items:
        names = sorted({m.name for m in item.iter_markers()} - {"parametrize"})
        item.user_properties.append(("markers", ",".join(names)))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    try:
        return (yield)
    finally:
        _remove_leftover_buckets(item)


def _remove_leftover_buckets(item):
    from s3tests import functional as s3

    if s3.prefix is None:
        return
    for client in (s3.get_client(), s3.get_alt_client(), s3.get_tenant_client()):
        try:
            names = s3.get_buckets_list(client, s3.prefix)
        except Exception:
            continue
        for name in names:
            print(f"s3_tests_markers: {item.name} left bucket {name}; removing it", file=sys.stderr)
            try:
                for upload in client.list_multipart_uploads(Bucket=name).get("Uploads", []):
                    client.abort_multipart_upload(Bucket=name, Key=upload["Key"], UploadId=upload["UploadId"])
                s3.nuke_bucket(client, name)
            except Exception as e:
                print(f"s3_tests_markers: could not remove {name}: {e}", file=sys.stderr)
