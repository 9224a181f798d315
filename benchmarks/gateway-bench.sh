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
#   benchmarks/gateway-bench.sh load [SECONDS]               GatewayLoadIT for SECONDS (default 60): 64 clients,
#                                                            mixed PUT/GET 4 KiB-8 MiB against `./coffer serve` -Xmx512m
#   benchmarks/gateway-bench.sh soak [SECONDS]               issue 22's soak: 3 launcher gateways (-Xmx512m) on one
#                                                            PostgreSQL, one s3proxy and one key server, 3 x 32 clients
#                                                            for SECONDS (default 600); 0 errors, every object read back
#                                                            from every gateway, fsck clean, heap sampled
#   benchmarks/gateway-bench.sh scale [SECONDS]              the same harness with 1, 2 and 3 gateways, 24 clients in
#                                                            all, SECONDS each (default 60): ops/s, CPU per request
#   benchmarks/gateway-bench.sh gc-load [SECONDS]            writers overwriting through 2 gateways, SECONDS without gc
#                                                            then SECONDS with POST /admin/gc in a loop and a third
#                                                            gateway's gc schedule (default 60): p99, bytes freed
#
# Results: benchmarks/target/gateway-bench/results.md, gateway/target/load/gateway-load-summary.txt,
# gateway/target/soak/{soak,scale,gc-load}-summary.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "load" ]]; then
  seconds="${2:-60}"
  # the gateway runs from the launcher: it needs this tree's jar and lib/ (GatewayLoadIT, a failsafe test in the suite)
  mvn -B -q -pl gateway -am package -DskipTests
  mvn -B -q -pl gateway -am test -Dtest=GatewayLoadIT -Dsurefire.failIfNoSpecifiedTests=false \
      -Dcoffer.load.seconds="$seconds"
  cat gateway/target/load/gateway-load-summary.txt
  exit 0
fi

case "${1:-}" in
  soak|scale|gc-load)
    what="$1"
    case "$what" in
      soak) method=threeGatewaysWithThirtyTwoClientsEachLoseNothingAndStayInTheirHeap; property=coffer.soak.seconds ;;
      scale) method=throughputWithOneTwoAndThreeGateways; property=coffer.scale.seconds ;;
      gc-load) method=gcThroughTheAdminEndpointAndTheScheduleBesideOverwritingWritersLosesNothing
               property=coffer.gcload.seconds ;;
    esac
    seconds=()
    [[ -n "${2:-}" ]] && seconds=("-D$property=$2")
    # the gateways run from the launcher: it needs this tree's jar and lib/ (MultiGatewaySoak, not in the suite)
    mvn -B -q -pl gateway -am package -DskipTests
    echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start" >&2
    mvn -B -q -pl gateway -am test -Dtest="MultiGatewaySoak#$method" -Dsurefire.failIfNoSpecifiedTests=false \
        "${seconds[@]}"
    cat "gateway/target/soak/$what-summary.txt"
    exit 0
    ;;
esac

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
