#!/usr/bin/env bash
# A/B of the gateway's CPU per MB for large GETs (or PUTs: MODE=put), two builds side by side on one machine:
#
#   benchmarks/get-cpu-ab.sh OLD_DIR NEW_DIR [ROUNDS]
#
# OLD_DIR and NEW_DIR each hold a gateway build: coffer-gateway-*.jar and its lib/ (copy gateway/target/ of each
# commit after `mvn -pl gateway -am package -DskipTests`). Each gateway runs `coffer serve` (directory backend,
# SQLite, embedded key evaluator, -Xmx1g) on its own data directory and port and stores one object of 64 MiB of
# random bytes; curl then GETs it through a presigned URL in batches of 15, the two builds alternating which goes
# first, 3 warm-up batches each, then ROUNDS (default 8) measured ones. Printed per batch: the gateway process's
# CPU (user + system, /proc) per MB served, and MB/s, with the part of it in the garbage collector's and the JIT
# compiler's threads and in the engine's coffer-io threads (a PUT's pack uploads; threads alive at both ends of the
# batch). Needs .venv (aws-cli, boto3: `./coffer test` creates it).
#
# RANGES=N (default 1): each GET of the object is N ranged GETs of 1/N of it, all at once (curl -r), as a transfer
# manager's download_fileobj does. OLD_JAVA_OPTS / NEW_JAVA_OPTS: more JVM options for one build (same jar in both
# directories for a JVM-flag A/B). WARMUP=N (default 3): warm-up batches per build before the measured ones; the JIT
# keeps compiling request-level code for thousands of requests (docs/BENCHMARKS.md, issue 23), and its CPU swamps a
# lever of a few percent until the warm-up has served about as many. BACKEND=s3: both gateways store on one s3proxy
# (filesystem provider, its own bucket each; started from benchmarks/target, so build the benchmarks module first) in
# place of a directory, and each batch also prints that backend's CPU per MB over the batch. MODE=put: each batch
# instead uploads 4 fresh objects of 64 MiB of random bytes with boto3's upload_fileobj (16 MiB parts, 8 threads, the
# transfer benchmark's shape) and deletes each after its upload; printed: CPU per MB stored (issue 23's large PUT).
# PUT_MIB=N (default 64): objects of N MiB (256: 16 parts, 8 of them in flight at once, as in the transfer benchmark).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OLD="$(cd "$1" && pwd)"; NEW="$(cd "$2" && pwd)"; ROUNDS="${3:-8}"
WORK="$(mktemp -d)"; P_old=""; P_new=""; P_s3=""
# on a failure, the servers' last lines say why
trap 'rc=$?; kill $P_old $P_new $P_s3 2>/dev/null || true; (( rc == 0 )) || tail -n 5 "$WORK"/*.log >&2
      rm -rf "$WORK"' EXIT
export AWS_ACCESS_KEY_ID=abtestkey AWS_SECRET_ACCESS_KEY=abtestsecret0123456789 AWS_DEFAULT_REGION=us-east-1
head -c $((64 << 20)) /dev/urandom > "$WORK/object"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
BACKEND="${BACKEND:-directory}"
if [[ "$BACKEND" == s3 ]]; then
  S3_PORT=$(free_port); mkdir -p "$WORK/s3"
  printf '%s\n' jclouds.provider=filesystem "jclouds.filesystem.basedir=$WORK/s3" jclouds.identity=abbackend \
      jclouds.credential=abbackendsecret s3proxy.authorization=aws-v2-or-v4 s3proxy.identity=abbackend \
      s3proxy.credential=abbackendsecret "s3proxy.endpoint=http://127.0.0.1:$S3_PORT" > "$WORK/s3proxy.properties"
  # in a subshell, as the gateways: get's `wait` waits for the shell's own children
  P_s3=$(java -Xmx1g -cp "$ROOT/benchmarks/target/classes:$ROOT/benchmarks/target/lib/*" org.gaul.s3proxy.Main \
      --properties "$WORK/s3proxy.properties" > "$WORK/s3proxy.log" 2>&1 & echo $!)
  for _ in $(seq 1 90); do curl -s -o /dev/null "http://127.0.0.1:$S3_PORT/" && break; sleep 1; done
  for b in ab-backend-old ab-backend-new; do
    AWS_ACCESS_KEY_ID=abbackend AWS_SECRET_ACCESS_KEY=abbackendsecret \
        "$ROOT/.venv/bin/aws" --endpoint-url "http://127.0.0.1:$S3_PORT" s3 mb "s3://$b" >/dev/null
  done
fi
start() { # dir port jvm-options side -> pid
  mkdir -p "$WORK/data-$2"
  local backend=()
  [[ "$BACKEND" == s3 ]] && backend=(COFFER_BACKEND=s3 "COFFER_S3_ENDPOINT=http://127.0.0.1:$S3_PORT" \
      "COFFER_S3_BUCKET=ab-backend-$4" COFFER_S3_REGION=us-east-1 COFFER_S3_PATH_STYLE=true \
      COFFER_BACKEND_ACCESS_KEY=abbackend COFFER_BACKEND_SECRET_KEY=abbackendsecret)
  (cd "$1" && exec env "${backend[@]}" COFFER_DATA="$WORK/data-$2" COFFER_ACCESS_KEY=$AWS_ACCESS_KEY_ID \
    COFFER_SECRET_KEY=$AWS_SECRET_ACCESS_KEY java -Xmx1g $3 -cp "$(ls coffer-gateway-*.jar):lib/*" \
    io.coffer.gateway.cli.CofferCommand serve --port "$2" --admin-port "$(free_port)" > "$WORK/gateway-$2.log" 2>&1) &
  echo $!
}
setup() { # port -> presigned url
  for _ in $(seq 1 90); do curl -s -o /dev/null "http://127.0.0.1:$1/" && break; sleep 1; done
  "$ROOT/.venv/bin/aws" --endpoint-url "http://127.0.0.1:$1" s3 mb s3://ab-bench >/dev/null
  "$ROOT/.venv/bin/aws" --endpoint-url "http://127.0.0.1:$1" s3api put-object --bucket ab-bench --key o \
      --body "$WORK/object" >/dev/null
  "$ROOT/.venv/bin/python" -c "
import boto3; from botocore.config import Config
s=boto3.client('s3',endpoint_url='http://127.0.0.1:$1',config=Config(signature_version='s3v4'))
print(s.generate_presigned_url('get_object',Params={'Bucket':'ab-bench','Key':'o'},ExpiresIn=7200))"
}
PORT_old=$(free_port); PORT_new=$(free_port)
P_old=$(start "$OLD" "$PORT_old" "${OLD_JAVA_OPTS:-}" old); P_new=$(start "$NEW" "$PORT_new" "${NEW_JAVA_OPTS:-}" new)
U_old=$(setup "$PORT_old"); U_new=$(setup "$PORT_new")
RANGES="${RANGES:-1}"; SIZE=$((64 << 20)); MODE="${MODE:-get}"; PUTS=4; PUT_SIZE=$((${PUT_MIB:-64} << 20))
cat > "$WORK/put.py" <<'PY'
import os, sys, io, boto3
from boto3.s3.transfer import TransferConfig
from botocore.config import Config
port, size, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
s3 = boto3.client("s3", endpoint_url=f"http://127.0.0.1:{port}", config=Config(signature_version="s3v4",
                  s3={"addressing_style": "path"}, max_pool_connections=16))
part = 16 << 20
transfer = TransferConfig(multipart_threshold=part, multipart_chunksize=part, max_concurrency=8)
for i in range(count):  # fresh bytes each time: equal chunks would dedup and skip the work measured
    s3.upload_fileobj(io.BytesIO(os.urandom(size)), "ab-bench", f"put/{i}", Config=transfer)
    s3.delete_object(Bucket="ab-bench", Key=f"put/{i}")
PY
get() { # url: the whole object, in RANGES concurrent ranged GETs
  if (( RANGES == 1 )); then curl -s -o /dev/null "$1"; return; fi
  local part=$(( (SIZE + RANGES - 1) / RANGES )) i
  for (( i = 0; i < RANGES; i++ )); do
    curl -s -o /dev/null -r "$(( i * part ))-$(( (i + 1) * part - 1 ))" "$1" &
  done
  wait
}
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
threads_cpu() { # pid comm-regex: ticks of that process's live threads whose name matches (ended threads drop out)
  local t s=0
  for t in /proc/"$1"/task/*; do
    if grep -Eq "$2" "$t/comm" 2>/dev/null; then s=$((s + $(awk '{print $14 + $15}' "$t/stat" 2>/dev/null || echo 0))); fi
  done
  echo "$s"
}
GC_THREADS='^(GC Thread|G1 )'; JIT_THREADS='CompilerThre'; IO_THREADS='^coffer-io'
batch() { # label url pid port
  local c0 t0 t1 c1 b0=0 b1=0 g0 g1 j0 j1 i0 i1
  [[ -n "$P_s3" ]] && b0=$(cpu "$P_s3")
  g0=$(threads_cpu "$3" "$GC_THREADS"); j0=$(threads_cpu "$3" "$JIT_THREADS"); i0=$(threads_cpu "$3" "$IO_THREADS")
  c0=$(cpu "$3"); t0=$(date +%s.%N)
  if [[ "$MODE" == put ]]; then "$ROOT/.venv/bin/python" "$WORK/put.py" "$4" "$PUT_SIZE" "$PUTS"
  else for _ in $(seq 1 15); do get "$2"; done; fi
  t1=$(date +%s.%N); c1=$(cpu "$3")
  g1=$(threads_cpu "$3" "$GC_THREADS"); j1=$(threads_cpu "$3" "$JIT_THREADS"); i1=$(threads_cpu "$3" "$IO_THREADS")
  [[ -n "$P_s3" ]] && b1=$(cpu "$P_s3")
  python3 -c "mb = $([[ "$MODE" == put ]] && echo "$PUTS * $PUT_SIZE / 1e6" || echo "15 * 67.108864"); print('$1 %.3f ms/MB %.0f MB/s' % (($c1 - $c0) * 10 / mb, mb / ($t1 - $t0))
      + '  (gc %.3f, jit %.3f, io %.3f)' % (($g1 - $g0) * 10 / mb, ($j1 - $j0) * 10 / mb, ($i1 - $i0) * 10 / mb)
      + ('  backend %.3f ms/MB' % (($b1 - $b0) * 10 / mb) if '$P_s3' else ''))"
}
old() { batch old "$U_old" "$P_old" "$PORT_old"; }
new() { batch new "$U_new" "$P_new" "$PORT_new"; }
for _ in $(seq 1 "${WARMUP:-3}"); do old >/dev/null; new >/dev/null; done
for r in $(seq 1 "$ROUNDS"); do
  if (( r % 2 )); then old; new; else new; old; fi
done
