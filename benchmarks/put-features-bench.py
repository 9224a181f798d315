#!/usr/bin/env python3
"""What versioning and tagging add to a PUT (issue 21, "Costs measured"), through the gateway as it ships.

Starts `./coffer serve` (the launcher's jar, built when a source is newer) on a fresh data directory, creates a plain
bucket and a bucket with versioning Enabled, then runs interleaved rounds. Each round, in an order that rotates,
every variant PUTs OPS objects of each size one after another (one client thread, fresh random bytes each time,
fresh keys in the plain and tagged variants, one key overwritten in the versioned one so each PUT adds a version):
  plain:     PutObject into the plain bucket
  versioned: PutObject into the versioned bucket (each PUT a new version of the same key)
  tagged:    PutObject into the plain bucket with x-amz-tagging (two tags)
A round's figure per variant and size is the median latency of its PUTs; the ratio to plain is taken within the
round, and the report gives the median over rounds of those ratios with min-max (target <= 1.10).

  .cache/s3-tests-venv/bin/python benchmarks/put-features-bench.py [--rounds 7] [--ops 200] [--warmup-rounds 1]
      [--out result.md]

Needs boto3 (the s3-tests venv has it). Timing is wall-clock on the client and includes the loopback HTTP exchange,
as a client sees it.
"""
import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

import boto3
from botocore.config import Config

KEY, SECRET = "PUTBENCHACCESSKEY001", "putbenchsecret000000000000000000000001"
SIZES = [("4 KiB", 4096), ("1 MiB", 1 << 20)]
VARIANTS = ["plain", "versioned", "tagged"]
TAGGING = "project=coffer&tier=hot"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gateway(root, data, log):
    port, admin = free_port(), free_port()
    env = dict(os.environ, COFFER_DATA=data, COFFER_ACCESS_KEY=KEY, COFFER_SECRET_KEY=SECRET)
    proc = subprocess.Popen([os.path.join(root, "coffer"), "serve", "--port", str(port), "--admin-port", str(admin)],
                            cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    while True:  # the launcher may build first (minutes)
        if proc.poll() is not None:
            sys.exit(f"the gateway exited before it was ready (log: {log.name})")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{admin}/health/ready", timeout=2)
            return proc, port
        except OSError:
            time.sleep(1)


def put_latencies(client, variant, size, ops, round_no):
    bucket = "bench-versioned" if variant == "versioned" else "bench-plain"
    times = []
    for i in range(ops):
        body = os.urandom(size)
        key = f"same-{size}" if variant == "versioned" else f"{variant}-{size}-r{round_no}-{i}"
        extra = {"Tagging": TAGGING} if variant == "tagged" else {}
        t0 = time.perf_counter()
        client.put_object(Bucket=bucket, Key=key, Body=body, **extra)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--warmup-rounds", type=int, default=1)
    p.add_argument("--ops", type=int, default=200, help="PUTs per variant, size and round")
    p.add_argument("--out")
    args = p.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    data = tempfile.mkdtemp(prefix="put-bench-")
    log = open(data + ".log", "w")  # the gateway's log, kept only if it fails to start
    proc, port = start_gateway(root, data, log)
    try:
        client = boto3.client("s3", endpoint_url=f"http://127.0.0.1:{port}", aws_access_key_id=KEY,
                              aws_secret_access_key=SECRET, region_name="us-east-1",
                              config=Config(retries={"max_attempts": 1}, s3={"addressing_style": "path"}))
        client.create_bucket(Bucket="bench-plain")
        client.create_bucket(Bucket="bench-versioned")
        client.put_bucket_versioning(Bucket="bench-versioned", VersioningConfiguration={"Status": "Enabled"})
        medians = {(v, s): [] for v in VARIANTS for _, s in SIZES}
        for r in range(args.warmup_rounds + args.rounds):
            order = VARIANTS[r % 3:] + VARIANTS[:r % 3]
            for _, size in SIZES:
                for v in order:
                    m = put_latencies(client, v, size, args.ops, r)
                    if r >= args.warmup_rounds:
                        medians[(v, size)].append(m)
            print(f"round {r + 1 - args.warmup_rounds if r >= args.warmup_rounds else 'warm-up'} done",
                  file=sys.stderr)
        # a check that the variants did what they claim, outside the timing
        tags = client.get_object_tagging(Bucket="bench-plain", Key="tagged-4096-r0-0")["TagSet"]
        assert sorted((t["Key"], t["Value"]) for t in tags) == [("project", "coffer"), ("tier", "hot")], tags
        versions = client.list_object_versions(Bucket="bench-versioned", Prefix="same-4096")["Versions"]
        assert len(versions) >= min(1000, (args.warmup_rounds + args.rounds) * args.ops), len(versions)
    finally:
        proc.terminate()
        proc.wait()
        shutil.rmtree(data, ignore_errors=True)
        log.close()
        os.remove(log.name)
    lines = [f"{args.rounds} rounds (+{args.warmup_rounds} warm-up) of {args.ops} sequential PUTs per variant and "
             f"size; per round the median latency, ratios to plain within the round; median over rounds (min-max).",
             "", "| size | variant | median PUT (ms) | ratio to plain |", "|---|---|---|---|"]
    for label, size in SIZES:
        plain = medians[("plain", size)]
        for v in VARIANTS:
            ms = statistics.median(medians[(v, size)]) * 1000
            ratios = [a / b for a, b in zip(medians[(v, size)], plain)]
            ratio = "1.00" if v == "plain" else \
                f"{statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})"
            lines.append(f"| {label} | {v} | {ms:.2f} | {ratio} |")
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
