"""Summarises a ceph/s3-tests JUnit XML run: counts, and every failing test grouped by the first rule of the reasons
file that matches it (conformance/s3-tests.sh calls this; standard library only).

Reasons file: one rule a line, `CLASS | PATTERN | REASON` (fields split at " | "), `#` starts a comment. CLASS is `claimed` (a failure in
what docs/S3-COMPATIBILITY.md says Coffer offers), `missing` (a feature Coffer does not offer yet) or `suite` (the
test expects something S3 does not do). PATTERN is `name:REGEX` (the whole test name, parameters included),
`message:REGEX` (found anywhere in the failure's message or its `E ` lines) or `marker:NAME` (a pytest marker of the
test). Failures no rule matches are listed as unclassified: read them and add a rule.

Every test also counts in one feature group (GROUPS: the first whose rule matches its name or markers), so the summary
gives passed/failed/skipped per group: versioning, Object Lock, lifecycle, tagging, ACL, CORS, SSE, checksum, POST
object and the rest.
"""
import argparse
import collections
import datetime
import re
import sys
import xml.etree.ElementTree as ET

CLASSES = [
    ("claimed", "Failures in what Coffer offers"),
    ("missing", "Features Coffer does not offer yet"),
    ("suite", "Tests that expect what S3 does not do"),
    ("unclassified", "Unclassified (no rule in conformance/s3-tests-reasons.txt)"),
]

# Feature groups, first match wins: (title, markers, name regex searched in the test's name). The order puts the
# narrower feature first where a test touches two (a POST object test sets an ACL, an Object Lock test turns
# versioning on, a lifecycle test filters by tag, a policy test asks for encryption, a CORS test sets an ACL).
GROUPS = [
    ("POST object", set(), r"^test_post_object"),
    ("logging, website, ownership, torrent, append", {"bucket_logging", "s3website", "object_ownership",
                                                       "appendobject"}, r"logging|torrent|ownership"),
    ("Object Lock", {"object_lock"}, r"object_lock"),
    ("lifecycle", {"lifecycle", "lifecycle_expiration", "lifecycle_transition"}, r"lifecycle"),
    ("bucket policy, public access block", {"bucket_policy"}, r"policy|public_block|block_public"),
    ("SSE (S3, C, KMS, bucket encryption)", {"encryption", "sse_s3", "bucket_encryption"},
     r"sse|kms|encrypt|_enc_|_enc\["),
    ("checksum", {"checksum"}, r"checksum"),
    ("CORS", set(), r"cors"),
    ("ACL, anonymous access", set(), r"_acl|anon|_raw_get|_raw_authenticated|access_bucket_|grant"),
    ("versioning", {"versioning", "delete_marker"}, r"version|delete_marker"),
    ("tagging", {"tagging"}, r"tagging|_tags?_|_tags?$"),
    ("conditional requests", {"conditional_write"}, r"if_match|if_none|ifmatch|ifnonematch"),
    ("core and other", None, None),
]


def group_of(t):
    for title, markers, rx in GROUPS:
        if markers is None or t["markers"] & markers or re.search(rx, t["name"]):
            return title
    raise AssertionError("the last group matches every test")


def load_rules(path):
    rules = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split(" | ", 2)]
            if len(parts) != 3 or parts[0] not in {c for c, _ in CLASSES[:3]}:
                sys.exit(f"{path}:{n}: expected `claimed|missing|suite | marker:NAME or name:REGEX | reason`")
            kind, _, value = parts[1].partition(":")
            if kind == "marker":
                rules.append((parts[0], lambda t, v=value: v in t["markers"], parts[2]))
            elif kind == "name":
                rx = re.compile(value)
                rules.append((parts[0], lambda t, r=rx: r.fullmatch(t["name"]) is not None, parts[2]))
            elif kind == "message":
                rx = re.compile(value)
                rules.append((parts[0], lambda t, r=rx: r.search(t["detail"]) is not None, parts[2]))
            else:
                sys.exit(f"{path}:{n}: a pattern is name:REGEX, message:REGEX or marker:NAME")
    return rules


def read_tests(path):
    """The run's start (UTC) and one entry per test: its outcome (passed, failed, error, skipped), markers and the
    first line of its failure."""
    tests = collections.OrderedDict()
    root = ET.parse(path).getroot()
    suite = root if root.tag == "testsuite" else root.find("testsuite")
    started = datetime.datetime.fromisoformat(suite.get("timestamp")).astimezone(datetime.timezone.utc)
    for case in root.iter("testcase"):
        name = case.get("name")
        t = tests.setdefault(name, {"name": name, "outcome": "passed", "markers": set(), "message": "", "detail": ""})
        for prop in case.iter("property"):
            if prop.get("name") == "markers" and prop.get("value"):
                t["markers"].update(prop.get("value").split(","))
        for tag in ("failure", "error", "skipped"):
            el = case.find(tag)
            if el is None:
                continue
            # A teardown error after a failure keeps the failure; an error outranks a skip.
            if t["outcome"] == "passed" or (t["outcome"] == "skipped" and tag != "skipped"):
                t["outcome"] = "failed" if tag == "failure" else tag
                t["message"] = first_line(el.get("message") or el.text or "")
                errors = [l[1:].strip() for l in (el.text or "").splitlines() if l.startswith("E ")]
                t["detail"] = "\n".join([el.get("message") or ""] + errors)
    return started, list(tests.values())


def group_counts(tests):
    """(group title, Counter of outcomes) for each group, in GROUPS order, empty groups left out."""
    counts = collections.OrderedDict((title, collections.Counter()) for title, _, _ in GROUPS)
    for t in tests:
        counts[group_of(t)][t["outcome"]] += 1
    return [(title, n) for title, n in counts.items() if n]


def first_line(text):
    line = next((l.strip() for l in text.splitlines() if l.strip()), "")
    return line[:160] + ("..." if len(line) > 160 else "")


def classify(tests, rules):
    groups = collections.OrderedDict((c, collections.OrderedDict()) for c, _ in CLASSES)
    for t in tests:
        if t["outcome"] not in ("failed", "error"):
            continue
        cls, reason = next(((c, r) for c, match, r in rules if match(t)), ("unclassified", "no rule matches"))
        groups[cls].setdefault(reason, []).append(t)
    return groups


def report(started, tests, groups, args):
    count = collections.Counter(t["outcome"] for t in tests)
    failed = count["failed"] + count["error"]
    coffer = args.target == "coffer"
    name = "Coffer" if coffer else args.target
    out = [
        f"# ceph/s3-tests against {name}",
        "",
        f"Run {started:%Y-%m-%d %H:%M} UTC by `conformance/s3-tests.sh --target {args.target}`: {name} "
        f"{args.target_version}, suite ceph/s3-tests `{args.commit}`, boto3 {args.boto3}, `-m '{args.markers}'`.",
        "",
        f"**{count['passed']} passed, {failed} failed, {count['skipped']} skipped** of {len(tests)} tests "
        f"({count['error']} of the failures are errors outside the test body).",
        "",
        "| group | tests | passed | failed | skipped |",
        "|---|---|---|---|---|",
    ]
    for title, n in group_counts(tests):
        out.append(f"| {title} | {sum(n.values())} | {n['passed']} | {n['failed'] + n['error']} | {n['skipped']} |")
    out.append("")
    if not coffer:
        # Coffer's reasons say why Coffer fails a test; another server's failures are listed as they came.
        failing = [t for t in tests if t["outcome"] in ("failed", "error")]
        out += [f"## Failing tests: {len(failing)}", ""]
        out += [f"- `{t['name']}`: {t['message']}" if t["message"] else f"- `{t['name']}`" for t in failing]
        out.append("")
        return "\n".join(out)
    for cls, title in CLASSES:
        reasons = groups[cls]
        if not reasons:
            continue
        n = sum(len(v) for v in reasons.values())
        out += [f"## {title}: {n}", ""]
        for reason, ts in sorted(reasons.items(), key=lambda kv: -len(kv[1])):
            out.append(f"### {reason} ({len(ts)})")
            out.append("")
            for t in ts:
                detail = f": {t['message']}" if cls != "missing" and t["message"] else ""
                out.append(f"- `{t['name']}`{detail}")
            out.append("")
    return "\n".join(out)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--junit", required=True)
    p.add_argument("--reasons", required=True)
    p.add_argument("--commit", default="unknown")
    p.add_argument("--markers", default="")
    p.add_argument("--boto3", default="unknown")
    p.add_argument("--target", default="coffer", help="the server the suite ran against: coffer, s3proxy, moto")
    p.add_argument("--target-version", default="unknown")
    p.add_argument("--out")
    args = p.parse_args()
    started, tests = read_tests(args.junit)
    groups = classify(tests, load_rules(args.reasons))
    text = report(started, tests, groups, args)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"results: {args.out}")
    count = collections.Counter(t["outcome"] for t in tests)
    print(f"{count['passed']} passed, {count['failed'] + count['error']} failed, {count['skipped']} skipped")
    for title, n in group_counts(tests):
        print(f"  {title}: {n['passed']} passed, {n['failed'] + n['error']} failed, {n['skipped']} skipped")
    for cls, title in CLASSES if args.target == "coffer" else []:
        n = sum(len(v) for v in groups[cls].values())
        if n:
            print(f"  {title}: {n}")


if __name__ == "__main__":
    main()
