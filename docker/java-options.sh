# JVM options by verb, for ./coffer and for the image's docker/coffer (sourced by both, POSIX sh): one place for the
# rules. A user's options (COFFER_JAVA_OPTS, JAVA_OPTS in the image) come after these on the command line, and win.

# JVM options by verb for the Vector API (docs/DECISIONS.md, "Vector kernels for PoR" and "MD5 of several bodies at
# once"). serve always gets the incubator module: its MD5 of several upload bodies at once runs in vector lanes (a body
# left alone keeps the JDK's MD5), at the cost of "WARNING: Using incubator modules" on stderr at start. The verbs that
# run PoR get it for the PoR client's checksums, and AVX-512 where the CPU has it (JDK 17 leaves it off on
# Skylake-family Xeons; PoR's butterflies and checksums gain 15-100 %). A store with PoR set only in its config file
# runs the scalar checksums (same results, slower).
por_java_opts() {
  local verb="${1:-}" avx="" vector="--add-modules jdk.incubator.vector"
  grep -qw avx512dq /proc/cpuinfo 2>/dev/null && avx="-XX:UseAVX=3"
  case "$verb" in
    por-server) echo "$avx" ;;
    audit|repair) echo "$vector $avx" ;;
    serve)
      case " $* " in
        *" --por off "*|*" --por=off "*) echo "$vector" ;;
        *" --por "*|*" --por="*) echo "$vector $avx" ;;
        *) if [ -n "${COFFER_POR:-}" ] && [ "${COFFER_POR:-}" != off ]; then
             echo "$vector $avx"
           else
             echo "$vector"
           fi ;;
      esac ;;
  esac
}

# G1's options for the gateway (serve): marking starts at a fixed 80 % of the heap, not G1's adaptive threshold (45 % at
# first). The engine's pools keep arrays softly up to the read and write budgets, which after a large PUT held a 1 GiB
# heap at 570-620 MiB; above the threshold each humongous allocation started a concurrent cycle that freed nothing:
# GC threads took 0.09-0.35 ms per MB of GET, at 80 % 0.00-0.11 (docs/BENCHMARKS.md, "Levers tried (issue 23)",
# gc23). Options in COFFER_JAVA_OPTS come after these and por_java_opts's, and win.
gc_java_opts() {
  case "${1:-}" in
    serve) echo "-XX:-G1UseAdaptiveIHOP -XX:InitiatingHeapOccupancyPercent=80" ;;
  esac
}
