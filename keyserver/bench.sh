#!/usr/bin/env bash
# Builds the key server and runs io.coffer.keyserver.bench.KeyServerLoad over loopback.
# Usage: keyserver/bench.sh [KeyServerLoad options...]   (see keyserver/bench.sh --help)
# JAVA_OPTS is passed to the JVM (default: -Xms1g -Xmx1g), e.g. a JFR recording:
#   JAVA_OPTS="-XX:StartFlightRecording=filename=/tmp/ks.jfr,settings=profile" keyserver/bench.sh --parts c --keys rsa2048
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"
mvn -B -q -DskipTests install -pl keyserver -am
cp_file="$here/target/bench.classpath"
rm -f "$cp_file"
mvn -B -q -pl keyserver dependency:build-classpath -DincludeScope=runtime -Dmdep.outputFile="$cp_file" >/dev/null
exec java ${JAVA_OPTS:--Xms1g -Xmx1g} \
  -cp "$here/target/classes:$(cat "$cp_file")" io.coffer.keyserver.bench.KeyServerLoad "$@"
