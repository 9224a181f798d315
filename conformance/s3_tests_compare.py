"""Puts ceph/s3-tests runs side by side: the totals and each feature group's passed count (of its tests) per run, as
a Markdown table (docs/S3-COMPATIBILITY.md "ceph/s3-tests"). Each run is `LABEL=JUNIT_XML`, the JUnit XML that
conformance/s3-tests.sh leaves in its output folder; groups and outcomes are counted as s3_tests_report.py does.

    python3 conformance/s3_tests_compare.py Coffer=.cache/s3-tests/junit.xml s3proxy=.cache/s3-tests-s3proxy/junit.xml
"""
import collections
import sys

from s3_tests_report import GROUPS, group_counts, read_tests


def main(argv):
    runs = []
    for arg in argv:
        label, sep, path = arg.partition("=")
        if not sep or not label or not path:
            sys.exit("usage: s3_tests_compare.py LABEL=JUNIT_XML [LABEL=JUNIT_XML ...]")
        _, tests = read_tests(path)
        runs.append((label, tests, dict(group_counts(tests))))
    names = [{t["name"] for t in tests} for _, tests, _ in runs]
    if any(n != names[0] for n in names[1:]):
        print("warning: the runs did not select the same tests", file=sys.stderr)
    print("| group | tests | " + " | ".join(f"{label} passed" for label, _, _ in runs) + " |")
    print("|---|---|" + "---|" * len(runs))
    for title, _, _ in GROUPS:
        counts = [c.get(title, collections.Counter()) for _, _, c in runs]
        if not any(counts):
            continue
        print(f"| {title} | {sum(counts[0].values())} | " + " | ".join(str(c["passed"]) for c in counts) + " |")
    totals = [collections.Counter(t["outcome"] for t in tests) for _, tests, _ in runs]
    print(f"| **all** | {len(runs[0][1])} | " + " | ".join(f"**{c['passed']}**" for c in totals) + " |")
    print("| failed (errors included) / skipped | | "
          + " | ".join(f"{c['failed'] + c['error']} / {c['skipped']}" for c in totals) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
