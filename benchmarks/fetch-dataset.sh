#!/usr/bin/env bash
# benchmarks/fetch-dataset.sh [OUTDIR]   (default: datasets/dev in the checkout; /datasets/ is git-ignored)
# The DEV dataset for the dedup experiments (benchmarks/run.sh dedup): successive versions of real gzip-compressed
# tarballs ("layers") fetched with ordinary registry clients (npm, pip), no container registry needed:
#   npm:  typescript (16 versions), three (12 versions)   -> <name>-<ver>.tgz  (npm pack)
#   PyPI: Django sdists 4.2 .. 4.2.9 (10 versions)         -> django-<ver>.tar.gz (pip download)
# Idempotent: files already present are skipped. Prints the file count and total size. The tarballs are the
# registries' originals (npm checks integrity, pip checks hashes), so the set is reproducible: OUTDIR/SHA256SUMS.
# The fetches run concurrently: each pip download spends most of its time unpacking its sdist and preparing its
# metadata (pip has no way to skip that), serial that is about a minute and a half of ./coffer test's start.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:-$ROOT/datasets/dev}"
command -v npm >/dev/null || { echo "fetch-dataset: npm is required" >&2; exit 2; }
PIP="$(command -v pip3 || command -v pip || true)"
[ -n "$PIP" ] || { echo "fetch-dataset: pip is required" >&2; exit 2; }
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

npm_get() { # pkg ver...
  local pkg="$1"; shift
  local base="${pkg#@}"; base="${base//\//-}"
  local todo=()
  for v in "$@"; do [ -s "$OUT/$base-$v.tgz" ] || todo+=("$pkg@$v"); done
  [ ${#todo[@]} -eq 0 ] && return 0
  (cd "$OUT" && npm pack --silent --pack-destination "$OUT" "${todo[@]}" >/dev/null)
}

pypi_get() { # pkg ver...   (sdist only; one pip call per version, each into a directory of its own)
  local pkg="$1"; shift
  local tmp; tmp="$(mktemp -d)"
  for v in "$@"; do
    if ls "$OUT" | grep -qiE "^${pkg}-${v}\.tar\.gz$"; then continue; fi
    "$PIP" download --quiet --no-binary :all: --no-deps -d "$tmp/$v" "$pkg==$v"
    for f in "$tmp/$v"/*.tar.gz; do mv "$f" "$OUT/$(basename "$f" | tr 'A-Z' 'a-z')"; done
  done
  rm -rf "$tmp"
}

# every fetch in the background; the script fails if any of them failed (set -e does not see a background job)
pids=()
npm_get typescript 5.0.2 5.0.3 5.0.4 5.1.3 5.1.5 5.1.6 5.2.2 5.3.2 5.3.3 5.4.2 5.4.3 5.4.4 5.4.5 5.5.2 5.5.3 5.5.4 &
pids+=($!)
npm_get three 0.150.0 0.150.1 0.151.0 0.151.1 0.151.2 0.151.3 0.152.0 0.152.1 0.152.2 0.153.0 0.154.0 0.155.0 &
pids+=($!)
for v in 4.2 4.2.1 4.2.2 4.2.3 4.2.4 4.2.5 4.2.6 4.2.7 4.2.8 4.2.9; do
  pypi_get django "$v" &
  pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
[ "$failed" = 0 ] || { echo "fetch-dataset: a fetch failed (its error is above)" >&2; exit 1; }

(cd "$OUT" && ls | grep -E '\.(tgz|tar\.gz)$' | sort -V | xargs sha256sum > SHA256SUMS)
n=$(ls "$OUT" | grep -cE '\.(tgz|tar\.gz)$')
bytes=$(ls "$OUT" | grep -E '\.(tgz|tar\.gz)$' | (cd "$OUT" && xargs stat -c %s) | awk '{s+=$1} END {print s}')
echo "files: $n"
echo "total bytes: $bytes ($(awk -v b="$bytes" 'BEGIN{printf "%.1f MiB", b/1048576}'))"
