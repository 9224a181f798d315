#!/usr/bin/env bash
# Builds what it needs and runs the Coffer benchmarks. From any directory:
#   benchmarks/run.sh jmh [REGEX] [JMH OPTIONS...]  JMH benchmarks matching REGEX (default: all), JSON results under
#                                                   benchmarks/results/, then a Markdown summary (JmhSummary)
#   benchmarks/run.sh summary RESULTS.json...       the Markdown summary of earlier JMH results
#   benchmarks/run.sh dedup DATASET_DIR [OPTIONS]   DedupExperiment over the files in DATASET_DIR
#   benchmarks/run.sh layers DIR [OPTIONS]          LayerExperiment (SimEnc's layer mode and its baselines) over the
#                                                   .tgz/.tar.gz files in DIR in version order, then the engine's
#                                                   stored bytes of MLE-512K, LSH-MLE and SimEnc and issue 20's two
#                                                   ratio targets (LayerBaselines; LAYER_BASELINES=0: SimEnc only,
#                                                   EngineLayerRatio); last line "coffer-layers ratio R", R from the
#                                                   blobs of a store the files were PUT into (LAYER_MODE=high|basic:N|
#                                                   flexible, default high; LAYER_PIPELINE=0 skips LayerExperiment)
#   benchmarks/run.sh dedup-throughput DIR [ROUNDS [THREADS]]
#                                                   issue 20's figures as the SimEnc paper's section 6.4 measures
#                                                   them (DedupThroughput): partial decoding, then the dedup step per
#                                                   MB of partially decoded input (LSH-MLE, SimEnc), on 1 and THREADS
#                                                   (default 2) threads, wall and CPU, medians of ROUNDS (default 3);
#                                                   then the end-to-end layer-mode PUT (EngineLayerRatio)
#   benchmarks/run.sh cpu [ROUNDS] [directory|memory] [COMPRESSION true|false] [random|text]
#                                                   per-thread CPU of a 256 MiB PUT and GET (EngineCpuBreakdown)
#   benchmarks/run.sh fetch-dev [DIR]               downloads the DEV dataset (benchmarks/fetch-dataset.sh; default:
#                                                   datasets/dev, git-ignored)
#   benchmarks/run.sh machine                       CPU, core count, memory and JDK of this machine
# Set SKIP_BUILD=1 to reuse an earlier build.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
CP="benchmarks/target/classes:benchmarks/target/lib/*"

build() {
  if [ "${SKIP_BUILD:-0}" != 1 ]; then
    if [ -f "$HOME/.m2/repository/io/coffer/coffer-parent/0.1.0-SNAPSHOT/coffer-parent-0.1.0-SNAPSHOT.pom" ]; then
      mvn -B -q -DskipTests -pl benchmarks -am package
    else
      mvn -B -q -DskipTests install
    fi
  fi
}

machine() {
  echo "nproc: $(nproc)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "flags: $(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(aes|sha_ni|avx2|avx512f|vaes|vpclmulqdq)$' | tr '\n' ' ')"
  echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
  echo "jdk: $(java -version 2>&1 | head -2 | tr '\n' ' ')"
}

cmd="${1:-}"
shift || true
case "$cmd" in
  jmh)
    regex="${1:-.*Benchmark}"
    shift || true
    build
    mkdir -p benchmarks/results
    out="benchmarks/results/jmh-$(date -u +%Y%m%dT%H%M%SZ).json"
    machine
    java -cp "$CP" org.openjdk.jmh.Main "$regex" -rf json -rff "$out" "$@"
    echo
    echo "results: $out"
    java -cp "$CP" io.coffer.benchmarks.JmhSummary "$out"
    ;;
  summary)
    SKIP_BUILD="${SKIP_BUILD:-1}" build
    java -cp "$CP" io.coffer.benchmarks.JmhSummary "$@"
    ;;
  dedup)
    dir="${1:?usage: run.sh dedup DATASET_DIR [OPTIONS]}"
    shift
    build
    machine
    java -Xmx2g -cp "$CP" io.coffer.benchmarks.DedupExperiment "$dir" "$@"
    ;;
  layers)
    dir="${1:?usage: run.sh layers DIR [OPTIONS]}"
    shift
    build
    machine
    # the pipeline's figures first (its own ratio relabelled), then the engine's stored bytes of a real store per
    # method: MLE-512K, LSH-MLE and SimEnc (LayerBaselines), or SimEnc alone (EngineLayerRatio); R is SimEnc's
    if [ "${LAYER_PIPELINE:-1}" != 0 ]; then
      java -Xmx3g -cp "$CP" io.coffer.benchmarks.layers.LayerExperiment "$dir" "$@" \
        | sed -e 's/^coffer-layers ratio /pipeline ratio (counted, not stored) /' \
              -e 's/^R below is this pipeline.*/the pipeline ratio below counts ciphertexts; the last line is R from the engine/'
    fi
    if [ "${LAYER_BASELINES:-1}" != 0 ]; then
      java -Xmx2g -cp "$CP" io.coffer.benchmarks.layers.LayerBaselines "$dir" "${LAYER_MODE:-high}"
    else
      java -Xmx2g -cp "$CP" io.coffer.benchmarks.layers.EngineLayerRatio "$dir" "${LAYER_MODE:-high}"
    fi
    ;;
  dedup-throughput)
    dir="${1:?usage: run.sh dedup-throughput DIR [ROUNDS [THREADS]]}"
    shift
    build
    machine
    java -Xms3g -Xmx3g -cp "$CP" io.coffer.benchmarks.layers.DedupThroughput "$dir" "$@"
    echo
    echo "end to end (all steps: partial decoding, re-encoding check, dedup step, packs, metadata store, uploads;"
    echo "the engine embedded with the JDK's JCE providers, read-back not included in the PUT figure):"
    java -Xmx2g -cp "$CP" io.coffer.benchmarks.layers.EngineLayerRatio "$dir" "${LAYER_MODE:-high}" \
      | grep -E '^(engine|dedup throughput)'
    ;;
  cpu)
    build
    machine
    java -Xms2g -Xmx2g -cp "$CP" io.coffer.benchmarks.EngineCpuBreakdown "$@"
    ;;
  fetch-dev)
    benchmarks/fetch-dataset.sh "${1:-datasets/dev}"
    ;;
  machine)
    machine
    ;;
  *)
    sed -n '2,20p' "$0"
    exit 2
    ;;
esac
