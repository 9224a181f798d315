#!/usr/bin/env bash
# Builds this checkout (reactor build, nothing installed into ~/.m2) and runs
# io.coffer.benchmarks.keyserver.KeyServerLoad over loopback.
# Usage: benchmarks/keyserver-bench.sh [KeyServerLoad options...]   (see benchmarks/keyserver-bench.sh --help)
# JAVA_OPTS is passed to the JVM (default: -Xms1g -Xmx1g), e.g. a JFR recording:
#   JAVA_OPTS="-XX:StartFlightRecording=filename=/tmp/ks.jfr,settings=profile" benchmarks/keyserver-bench.sh --parts c --keys rsa2048
# Set SKIP_BUILD=1 to reuse an earlier build.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  mvn -B -q -pl benchmarks -am package -DskipTests
fi
exec java ${JAVA_OPTS:--Xms1g -Xmx1g} \
  -cp "benchmarks/target/classes:benchmarks/target/lib/*" io.coffer.benchmarks.keyserver.KeyServerLoad "$@"
