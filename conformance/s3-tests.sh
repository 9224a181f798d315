#!/usr/bin/env bash
# Runs ceph/s3-tests (the S3 conformance suite Ceph and s3proxy run in their CI) against the gateway as it ships:
# `./coffer serve` (the launcher's jar and lib/, built by the launcher when a source is newer) as a separate process
# on a fresh data directory. Writes a summary with every failing test grouped by its reason
# (conformance/s3-tests-reasons.txt) to conformance/results/. Not part of `./coffer test`.
#
#   conformance/s3-tests.sh [--target coffer|s3proxy|moto] SUITE_DIR [PYTEST_ARGS ...]
#
# --target runs the same selection, the same way, against another S3 server for comparison (default coffer):
#   s3proxy  s3proxy (org.gaul:s3proxy, the version the poms name, the jar Coffer's tests use as a backend) with its
#            in-memory `transient` provider and ignore-unknown-headers (see below); its classpath comes from Maven offline (the gateway's test classpath,
#            cached in .cache/s3proxy.classpath; S3PROXY_CLASSPATH overrides). s3proxy has one identity, so the
#            suite's main, alt and tenant users share its one key (as in s3proxy's own CI).
#   moto     moto's server (`moto[server]`, MOTO_VERSION, pinned below) from PyPI into a venv (MOTO_VENV, default
#            .cache/moto-venv). moto takes any key and puts every key in one account, so the three users are one.
# Results of another target go to conformance/results/s3-tests-<target>-<time>.md, without Coffer's reasons.
#
# SUITE_DIR is a checkout (or `git archive` tree) of https://github.com/ceph/s3-tests; docs/S3-COMPATIBILITY.md names
# the commit the published numbers come from (S3_TESTS_COMMIT=<hash> records it when SUITE_DIR is no git checkout).
# The suite's Python dependencies come from PyPI into a venv (S3_TESTS_VENV, default .cache/s3-tests-venv). The JUnit
# XML, pytest's output and the server's log stay in S3_TESTS_OUT (default .cache/s3-tests, -<target> added for another
# target). Extra arguments go to
# pytest, e.g. `-k test_object_head` or `s3tests/functional/test_s3.py::test_bucket_list_empty` to run a few tests
# (a run with arguments writes no results file).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TARGET=coffer
if [[ "${1:-}" == --target ]]; then TARGET="${2:?--target needs coffer, s3proxy or moto}"; shift 2; fi
if [[ "${1:-}" == --target=* ]]; then TARGET="${1#--target=}"; shift; fi
case "$TARGET" in coffer|s3proxy|moto) ;; *) echo "--target is coffer, s3proxy or moto, not $TARGET" >&2; exit 2;; esac
SUITE="${1:?usage: conformance/s3-tests.sh [--target coffer|s3proxy|moto] SUITE_DIR [PYTEST_ARGS ...]}"; shift
SUITE="$(cd "$SUITE" && pwd)"
[[ -f "$SUITE/s3tests/functional/test_s3.py" ]] || { echo "$SUITE is no ceph/s3-tests tree" >&2; exit 2; }
VENV="${S3_TESTS_VENV:-$ROOT/.cache/s3-tests-venv}"
OUT="${S3_TESTS_OUT:-$ROOT/.cache/s3-tests$([[ $TARGET == coffer ]] || echo "-$TARGET")}"
COMMIT="${S3_TESTS_COMMIT:-$(git -C "$SUITE" rev-parse HEAD 2>/dev/null || echo unknown)}"

# The S3 API's test files (IAM, STS, SNS and S3 Select are other services or a retired API). Deselected: what the
# suite itself marks as failing on AWS (RGW's own extensions and relaxations, e.g. bucket names S3 refuses).
TESTS=(s3tests/functional/test_s3.py s3tests/functional/test_headers.py)
MARKERS="not fails_on_aws"
for arg in "$@"; do if [[ "$arg" == s3tests/* ]]; then TESTS=(); fi; done

# The suite's dependencies (its requirements.txt, unpinned upstream) and a per-test timeout, once per venv.
if [[ ! -f "$VENV/.s3-tests-ready" ]] || ! cmp -s "$SUITE/requirements.txt" "$VENV/.s3-tests-ready"; then
  echo "s3-tests: installing the suite's requirements into $VENV (pip) ..." >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q -r "$SUITE/requirements.txt" pytest-timeout >&2
  cp "$SUITE/requirements.txt" "$VENV/.s3-tests-ready"
fi

STARTED="$(date -u +%Y%m%dT%H%MZ)"
rm -rf "$OUT"; mkdir -p "$OUT"
DATA="$(mktemp -d)"; GW=""
stop_gateway() {
  if [[ -n "$GW" ]] && kill -0 "$GW" 2>/dev/null; then
    kill "$GW"; wait "$GW" 2>/dev/null || true
  fi
  GW=""
}
trap 'stop_gateway; rm -rf "$DATA"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PORT=$(free_port); ADMIN=$(free_port)
# Waits while the server lives until `curl ARGS` succeeds.
wait_ready() {
  until curl -s -o /dev/null "$@"; do
    if ! kill -0 "$GW" 2>/dev/null; then
      echo "s3-tests: $TARGET exited before it was ready:" >&2; tail -30 "$OUT/gateway.log" >&2; exit 1
    fi
    sleep 1
  done
}

MAIN_KEY=S3TESTSMAINKEY000001; MAIN_SECRET=s3testsmainsecret0000000000000000000001
ALT_KEY=S3TESTSALTKEY0000001; ALT_SECRET=s3testsaltsecret00000000000000000000001
TENANT_KEY=S3TESTSTENANTKEY0001; TENANT_SECRET=s3teststenantsecret00000000000000000001
case "$TARGET" in
coffer)
  # Three users as the suite wants them: main, alt and "tenant", each its own Coffer tenant. Coffer reports a
  # tenant's name as its canonical user id and display name, so the config names them that way.
  # Block Public Access is on for every tenant by default (public-access-tenants); the suite's ACL and anonymous-read
  # tests need it off, as on an AWS account with Block Public Access turned off, so every tenant is listed.
  # The suite sends SSE-C over plain http, which S3 (and Coffer by default) refuses: sse-c-over-http allows it here.
  # SSE-KMS: a keyring (mode 0600) with the key ids the suite uses by default (kms_keyid testkey-1, kms_keyid2 testkey-2).
  KEYRING="$DATA/kms-keyring"
  (umask 077 && for id in testkey-1 testkey-2; do echo "$id $(head -c 32 /dev/urandom | base64)"; done > "$KEYRING")
  (cd "$ROOT" && COFFER_DATA="$DATA" COFFER_ACCESS_KEY=$MAIN_KEY COFFER_SECRET_KEY=$MAIN_SECRET COFFER_SSE_C_OVER_HTTP=true \
    COFFER_KMS_KEYRING="$KEYRING" \
    COFFER_CREDENTIALS="$ALT_KEY:$ALT_SECRET:alt,$TENANT_KEY:$TENANT_SECRET:testx" \
    COFFER_PUBLIC_ACCESS_TENANTS="${COFFER_PUBLIC_ACCESS_TENANTS:-*}" \
    exec ./coffer serve --port "$PORT" --admin-port "$ADMIN" > "$OUT/gateway.log" 2>&1) &
  GW=$!
  # The launcher may build first (minutes); wait while it lives.
  wait_ready -f "http://127.0.0.1:$ADMIN/health/ready"
  VERSION="$(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- . ':!conformance' ':!docs' || echo +changes)"
  MAIN_ID=default; MAIN_NAME=default; ALT_ID=alt; ALT_NAME=alt; TENANT_ID=testx; TENANT_NAME=testx
  ;;
s3proxy)
  # s3proxy and its dependencies as the gateway's tests resolve them (offline; the root pom pins the version).
  CP="${S3PROXY_CLASSPATH:-}"
  if [[ -z "$CP" ]]; then
    CP_FILE="$ROOT/.cache/s3proxy.classpath"
    if [[ ! -s "$CP_FILE" || "$ROOT/pom.xml" -nt "$CP_FILE" || "$ROOT/gateway/pom.xml" -nt "$CP_FILE" ]]; then
      echo "s3-tests: resolving s3proxy's classpath (mvn -o, the gateway's test classpath) ..." >&2
      (cd "$ROOT" && mvn -B -q -o -pl gateway -am test-compile \
        org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath -Dmdep.includeScope=test \
        -Dmdep.outputFile="$OUT/gateway-test.classpath" >&2)
      tr ':' '\n' < "$OUT/gateway-test.classpath" | grep '\.jar$' | paste -sd: > "$CP_FILE"
    fi
    CP="$(cat "$CP_FILE")"
  fi
  VERSION="$(tr ':' '\n' <<< "$CP" | sed -n 's#.*/s3proxy-\([^/]*\)\.jar$#\1#p' | head -1)"
  [[ -n "$VERSION" ]] || { echo "s3-tests: no s3proxy jar on the classpath" >&2; exit 1; }
  # Its in-memory provider; aws-v2-or-v4 as the suite signs both. One identity: the three users share it.
  # ignore-unknown-headers: the suite's cleanup sends x-amz-bypass-governance-retention with every DeleteObjects,
  # which s3proxy refuses by default (NotImplemented), so every test after the first would fail in its setup; with
  # it s3proxy drops any header it does not know (as s3proxy's benchmark setup here does) instead of refusing it.
  cat > "$OUT/s3proxy.properties" <<PROPS
s3proxy.endpoint=http://127.0.0.1:$PORT
s3proxy.authorization=aws-v2-or-v4
s3proxy.ignore-unknown-headers=true
s3proxy.identity=$MAIN_KEY
s3proxy.credential=$MAIN_SECRET
jclouds.provider=transient
jclouds.identity=$MAIN_KEY
jclouds.credential=$MAIN_SECRET
PROPS
  # Without a logback configuration on this classpath every logger would write DEBUG lines (slow, gigabytes).
  cat > "$OUT/s3proxy-logback.xml" <<'LOGBACK'
<configuration>
  <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender"><encoder><pattern>%d %-5level %logger{36} %msg%n</pattern></encoder></appender>
  <root level="WARN"><appender-ref ref="OUT"/></root>
</configuration>
LOGBACK
  java -Xmx1g -Dlogback.configurationFile="$OUT/s3proxy-logback.xml" -cp "$CP" org.gaul.s3proxy.Main \
    --properties "$OUT/s3proxy.properties" > "$OUT/gateway.log" 2>&1 &
  GW=$!
  wait_ready "http://127.0.0.1:$PORT/"
  ALT_KEY=$MAIN_KEY; ALT_SECRET=$MAIN_SECRET; TENANT_KEY=$MAIN_KEY; TENANT_SECRET=$MAIN_SECRET
  ;;
moto)
  MOTO_VERSION="${MOTO_VERSION:-5.2.5}"
  MOTO_VENV="${MOTO_VENV:-$ROOT/.cache/moto-venv}"
  if [[ "$("$MOTO_VENV/bin/python" -c 'import moto; print(moto.__version__)' 2>/dev/null)" != "$MOTO_VERSION" ]]; then
    echo "s3-tests: installing moto[server]==$MOTO_VERSION into $MOTO_VENV (pip) ..." >&2
    python3 -m venv "$MOTO_VENV"
    "$MOTO_VENV/bin/pip" install -q "moto[server]==$MOTO_VERSION" >&2
  fi
  VERSION="$MOTO_VERSION"
  # moto accepts any key and maps every key it did not issue itself to one account: the three users are one.
  "$MOTO_VENV/bin/moto_server" -H 127.0.0.1 -p "$PORT" > "$OUT/gateway.log" 2>&1 &
  GW=$!
  wait_ready "http://127.0.0.1:$PORT/"
  ;;
esac
if [[ "$TARGET" != coffer ]]; then
  # One account: main, alt and tenant are the same owner, whose canonical id and display name the server chooses.
  read -r MAIN_ID MAIN_NAME < <(env -u AWS_PROFILE AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null \
    "$VENV/bin/python" -c 'import boto3,sys; o=boto3.client("s3",endpoint_url=sys.argv[1],region_name="us-east-1",
aws_access_key_id=sys.argv[2],aws_secret_access_key=sys.argv[3]).list_buckets()["Owner"]; print(o["ID"], o.get("DisplayName") or o["ID"])' \
    "http://127.0.0.1:$PORT" "$MAIN_KEY" "$MAIN_SECRET")
  ALT_ID=$MAIN_ID; ALT_NAME=$MAIN_NAME; TENANT_ID=$MAIN_ID; TENANT_NAME=$MAIN_NAME
fi

cat > "$OUT/s3tests.conf" <<CONF
[DEFAULT]
host = 127.0.0.1
port = $PORT
is_secure = False
ssl_verify = False

[fixtures]
bucket prefix = s3t-{random}-

[s3 main]
display_name = $MAIN_NAME
user_id = $MAIN_ID
email = main@example.com
access_key = $MAIN_KEY
secret_key = $MAIN_SECRET

[s3 alt]
display_name = $ALT_NAME
user_id = $ALT_ID
email = alt@example.com
access_key = $ALT_KEY
secret_key = $ALT_SECRET

[s3 tenant]
display_name = $TENANT_NAME
user_id = $TENANT_ID
email = tenant@example.com
access_key = $TENANT_KEY
secret_key = $TENANT_SECRET
tenant = testx

# The suite reads these sections even when no IAM test runs; Coffer has no IAM, so they name no real user.
[iam]
email = iam@example.com
user_id = iam
access_key = S3TESTSNOIAMUSER0001
secret_key = s3testsnoiamuser000000000000000000000001
display_name = iam

[iam root]
access_key = S3TESTSNOIAMROOT0001
secret_key = s3testsnoiamroot000000000000000000000001
user_id = iamroot
email = iamroot@example.com

[iam alt root]
access_key = S3TESTSNOIAMALTROOT1
secret_key = s3testsnoiamaltroot00000000000000000001
user_id = iamaltroot
email = iamaltroot@example.com
CONF

# Every test asserts on an answer the first attempt already carries; botocore's retries of 500s and BadDigest would
# only slow the run (s3proxy's CI does the same). No shared AWS config or credentials leak in.
echo "s3-tests: running the suite ($COMMIT) against $TARGET $VERSION at http://127.0.0.1:$PORT; output in $OUT" >&2
set +e
(cd "$SUITE" && env -u AWS_PROFILE -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY -u AWS_SESSION_TOKEN \
  -u AWS_DEFAULT_REGION -u AWS_REGION AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null \
  AWS_MAX_ATTEMPTS=1 AWS_RETRY_MODE=standard S3TEST_CONF="$OUT/s3tests.conf" PYTHONPATH="$ROOT/conformance" \
  "$VENV/bin/python" -m pytest -p no:cacheprovider -q -rN --timeout=300 -m "$MARKERS" \
  -p s3_tests_markers --junitxml="$OUT/junit.xml" "$@" ${TESTS[@]+"${TESTS[@]}"} > "$OUT/pytest.log" 2>&1)
set -e
stop_gateway
tail -1 "$OUT/pytest.log" >&2

RESULT=""
if [[ $# -eq 0 ]]; then
  mkdir -p "$ROOT/conformance/results"
  RESULT="$ROOT/conformance/results/s3-tests-$([[ $TARGET == coffer ]] || echo "$TARGET-")$STARTED.md"
fi
"$VENV/bin/python" "$ROOT/conformance/s3_tests_report.py" --junit "$OUT/junit.xml" \
  --reasons "$ROOT/conformance/s3-tests-reasons.txt" --commit "$COMMIT" --markers "$MARKERS" \
  --boto3 "$("$VENV/bin/python" -c 'import boto3; print(boto3.__version__)')" \
  --target "$TARGET" --target-version "$VERSION" \
  ${RESULT:+--out "$RESULT"}
