#!/usr/bin/env bash
# What the JIT does while one gateway serves large ranged GETs (issue 23): per batch, the gateway's CPU per MB and the
# part of it spent in the C1/C2 compiler threads.
#
#   benchmarks/get-jit-probe.sh BUILD_DIR [BATCHES] [OUT_DIR]
#
# BUILD_DIR holds a gateway build (coffer-gateway-*.jar and lib/, as for get-cpu-ab.sh). The gateway runs `coffer
# serve` (directory backend, SQLite, -Xmx1g, plus JAVA_OPTS) and stores one 64 MiB object of random bytes; each batch
# GETs it 10 times as RANGES (default 8) concurrent ranged GETs (curl -r). BATCHES defaults to 12. The gateway's output
# goes to OUT_DIR/gateway.log (default: a temporary directory, removed), so with
#   JAVA_OPTS='-XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation -XX:LogFile=/tmp/c.log'
# benchmarks/compile-log-summary.py /tmp/c.log then says what was compiled in the run's second half, and whether it was
# compiled before. PROF_AT=N with PROF_LIB=libasyncProfiler.so profiles CPU from batch N to the end into
# OUT_DIR/cpu.collapsed (for profile-categories.py). MODE=put: each batch instead uploads the object 10 times with
# `aws s3 cp` (multipart, 8 MiB parts, up to 10 at once), the PUT path's counterpart. Needs .venv (aws-cli, boto3:
# `./coffer test` creates it).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="$(cd "$1" && pwd)"; BATCHES="${2:-12}"; RANGES="${RANGES:-8}"
WORK="$(mktemp -d)"; OUT="${3:-$WORK}"; mkdir -p "$OUT"; OUT="$(cd "$OUT" && pwd)"
trap 'kill $P 2>/dev/null || true; rm -rf "$WORK"' EXIT
export AWS_ACCESS_KEY_ID=abtestkey AWS_SECRET_ACCESS_KEY=abtestsecret0123456789 AWS_DEFAULT_REGION=us-east-1
SIZE=$((64 << 20))
head -c "$SIZE" /dev/urandom > "$WORK/object"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PORT=$(free_port)
mkdir -p "$WORK/data"
(cd "$BUILD" && COFFER_DATA="$WORK/data" COFFER_ACCESS_KEY=$AWS_ACCESS_KEY_ID COFFER_SECRET_KEY=$AWS_SECRET_ACCESS_KEY \
  exec java -Xmx1g ${JAVA_OPTS:-} -cp "$(ls coffer-gateway-*.jar):lib/*" io.coffer.gateway.cli.CofferCommand serve \
  --port "$PORT" --admin-port "$(free_port)" > "$OUT/gateway.log" 2>&1) &
P=$!
for _ in $(seq 1 90); do curl -s -o /dev/null "http://127.0.0.1:$PORT/" && break; sleep 1; done
"$ROOT/.venv/bin/aws" --endpoint-url "http://127.0.0.1:$PORT" s3 mb s3://jit-probe >/dev/null
"$ROOT/.venv/bin/aws" --endpoint-url "http://127.0.0.1:$PORT" s3api put-object --bucket jit-probe --key o \
    --body "$WORK/object" >/dev/null
URL=$("$ROOT/.venv/bin/python" -c "
import boto3; from botocore.config import Config
s=boto3.client('s3',endpoint_url='http://127.0.0.1:$PORT',config=Config(signature_version='s3v4'))
print(s.generate_presigned_url('get_object',Params={'Bucket':'jit-probe','Key':'o'},ExpiresIn=7200))")
get() { # the whole object in RANGES concurrent ranged GETs (waiting for those only: the gateway is a child too)
  local part=$(( (SIZE + RANGES - 1) / RANGES )) i pids=()
  for (( i = 0; i < RANGES; i++ )); do
    curl -s -o /dev/null -r "$(( i * part ))-$(( (i + 1) * part - 1 ))" "$URL" & pids+=($!)
  done
  wait "${pids[@]}"
}
cpu() { awk '{print $14 + $15}' "/proc/$P/stat"; }
compiler_cpu() { # ticks of the compiler threads alive now (add -XX:-UseDynamicNumberOfCompilerThreads: none then exit)
  local t s=0
  for t in /proc/"$P"/task/*; do
    if grep -q "CompilerThre" "$t/comm" 2>/dev/null; then s=$((s + $(awk '{print $14 + $15}' "$t/stat"))); fi
  done
  echo "$s"
}
agent() { jcmd "$P" JVMTI.agent_load "$PROF_LIB" "\"$1\"" >/dev/null; } # quoted: jcmd splits key=value
for b in $(seq 1 "$BATCHES"); do
  if [ "${PROF_AT:-0}" = "$b" ]; then agent "start,event=cpu,interval=997us"; fi
  c0=$(cpu); k0=$(compiler_cpu)
  for i in $(seq 1 10); do
    if [ "${MODE:-get}" = put ]; then
      "$ROOT/.venv/bin/aws" --endpoint-url "http://127.0.0.1:$PORT" s3 cp --quiet "$WORK/object" "s3://jit-probe/p$i"
    else
      get
    fi
  done
  c1=$(cpu); k1=$(compiler_cpu)
  python3 -c "mb = 10 * $SIZE / 1e6
print('batch $b: gateway %.3f ms/MB, compiler threads %.3f ms/MB' % (($c1 - $c0) * 10 / mb, ($k1 - $k0) * 10 / mb))"
done
if [ "${PROF_AT:-0}" != 0 ]; then agent "stop,collapsed,file=$OUT/cpu.collapsed"; fi
