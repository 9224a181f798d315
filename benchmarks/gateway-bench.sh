#!/usr/bin/env bash
# S3 gateway benchmarks (issue 4). Builds what they need from this checkout (reactor build, so the gateway and sdk
# are this tree's, not whatever another checkout installed into ~/.m2), then runs one of:
#
#   benchmarks/gateway-bench.sh [GatewayBenchmark options]   end-to-end benchmark: direct s3proxy vs a bare TCP relay
#                                                            vs Coffer gateway vs s3proxy's encrypting middleware,
#                                                            same client and backend (options: see GatewayBenchmark's
#                                                            javadoc, e.g. --rounds 3 --threads 8 --jfr /tmp/c.jfr)
#   benchmarks/gateway-bench.sh transfer [options]           the boto3 shape (issue 23): direct s3proxy vs Coffer from
#                                                            the launcher (`coffer serve`) vs s3proxy-enc, 8 threads,
#                                                            256 MiB objects in 16 MiB parts, 4 KiB PUT+GET for 15 s,
#                                                            3 rounds (options: see TransferBenchmark's javadoc)
#   benchmarks/gateway-bench.sh load [SECONDS]               GatewayLoadTest for SECONDS (default 60): 64 clients,
#                                                            mixed PUT/GET 4 KiB-8 MiB against `coffer serve` -Xmx512m
#
# Results: benchmarks/target/gateway-bench/results.md, gateway/target/load/gateway-load-summary.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "load" ]]; then
  seconds="${2:-60}"
  mvn -B -q -pl gateway -am test -Dtest=GatewayLoadTest -Dsurefire.failIfNoSpecifiedTests=false \
      -Dcoffer.load.seconds="$seconds"
  cat gateway/target/load/gateway-load-summary.txt
  exit 0
fi

mvn -B -q -pl benchmarks -am package -DskipTests
if [[ "${1:-}" == "transfer" ]]; then
  shift
  echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(java -version 2>&1 | head -1)" >&2
  exec java -Xmx1g -cp "benchmarks/target/classes:benchmarks/target/lib/*" \
      io.coffer.benchmarks.gateway.TransferBenchmark --root . --out benchmarks/target/gateway-bench/transfer.md \
      --json benchmarks/target/gateway-bench/transfer.json "$@"
fi
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(java -version 2>&1 | head -1)" >&2
java -Xmx2g -cp "benchmarks/target/classes:benchmarks/target/lib/*" \
    io.coffer.benchmarks.gateway.GatewayBenchmark --out benchmarks/target/gateway-bench/results.md "$@"
