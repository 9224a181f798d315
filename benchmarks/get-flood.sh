#!/usr/bin/env bash
# Many slow downloads of one large object at once against a gateway with a small heap: does the gateway stay up, and
# what do the clients get? (docs/BENCHMARKS.md, "Read buffer budget")
#
#   benchmarks/get-flood.sh [CLIENTS] [HEAP] [OBJECT_MIB] [RATE]
#
# Defaults: 48 clients, -Xmx256m, a 256 MiB object, curl --limit-rate 1M, each client for at most 40 s. Starts
# `./coffer serve` (directory backend, SQLite, embedded key evaluator, -XX:+ExitOnOutOfMemoryError so that running out
# of memory shows as a dead process) on its own data directory and ports, stores the object with aws-cli, then starts
# the clients on a presigned URL. Prints the clients' HTTP status counts, whether the gateway survived, and its
# SlowDown count (a client cut at 40 s while it streams counts as its 200). Needs .venv (aws-cli, boto3: `./coffer test` creates it).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CLIENTS="${1:-48}"; HEAP="${2:-256m}"; MIB="${3:-256}"; RATE="${4:-1M}"
WORK="$(mktemp -d)"; GW=""
trap '[[ -n "$GW" ]] && kill "$GW" 2>/dev/null; rm -rf "$WORK"' EXIT
export AWS_ACCESS_KEY_ID=floodtestkey AWS_SECRET_ACCESS_KEY=floodtestsecret0123456789 AWS_DEFAULT_REGION=us-east-1
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PORT=$(free_port)
(cd "$ROOT" && COFFER_JAVA_OPTS="-Xmx$HEAP -XX:+ExitOnOutOfMemoryError" COFFER_DATA="$WORK/data" \
  COFFER_ACCESS_KEY=$AWS_ACCESS_KEY_ID COFFER_SECRET_KEY=$AWS_SECRET_ACCESS_KEY \
  exec ./coffer serve --port "$PORT" --admin-port "$(free_port)" > "$WORK/gateway.log" 2>&1) &
GW=$!
for _ in $(seq 1 120); do curl -s -o /dev/null "http://127.0.0.1:$PORT/" && break; sleep 1; done
head -c $((MIB << 20)) /dev/urandom > "$WORK/object"
"$ROOT/.venv/bin/aws" --endpoint-url "http://127.0.0.1:$PORT" s3 mb s3://flood >/dev/null
"$ROOT/.venv/bin/aws" --endpoint-url "http://127.0.0.1:$PORT" s3api put-object --bucket flood --key big \
    --body "$WORK/object" >/dev/null
URL=$("$ROOT/.venv/bin/python" -c "
import boto3; from botocore.config import Config
s=boto3.client('s3',endpoint_url='http://127.0.0.1:$PORT',config=Config(signature_version='s3v4'))
print(s.generate_presigned_url('get_object',Params={'Bucket':'flood','Key':'big'},ExpiresIn=3600))")
pids=()
for i in $(seq 1 "$CLIENTS"); do
  curl -s --limit-rate "$RATE" --max-time 40 -o /dev/null -w "%{http_code}\n" "$URL" > "$WORK/client-$i" || true &
  pids+=($!)
done
wait "${pids[@]}" || true
echo "clients: $CLIENTS at $RATE on a $MIB MiB object, gateway -Xmx$HEAP; HTTP status counts (000: cut at 40 s):"
cat "$WORK"/client-* | sort | uniq -c
if kill -0 "$GW" 2>/dev/null; then echo "gateway: up"; else echo "gateway: DIED ($(grep -m1 -o 'OutOfMemoryError.*' "$WORK/gateway.log" || echo 'see its log'))"; fi
echo "SlowDown answers logged: $(grep -c 'answered SlowDown' "$WORK/gateway.log" || true)"
