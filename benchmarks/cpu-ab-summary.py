#!/usr/bin/env python3
"""Summarizes the output of benchmarks/get-cpu-ab.sh: per figure, both builds' medians and the paired difference.

Usage: benchmarks/cpu-ab-summary.py AB_OUTPUT.txt [...]
Each measured round of get-cpu-ab.sh prints one "old" and one "new" batch; a pair is those two lines. Figures: the
gateway's CPU per MB, the same without its JIT compiler threads (whose share is warm-up, not the code measured), and
each part the batch lines carry (gc, jit, io, backend).
"""
import re
import statistics
import sys

LINE = re.compile(r"^(old|new) ([\d.]+) ms/MB [\d.]+ MB/s(?:\s+\(gc ([\d.]+), jit ([\d.]+)(?:, io ([\d.]+))?\))?"
                  r"(?:\s+backend ([\d.]+) ms/MB)?")


def figures(m):
    total = float(m.group(2))
    f = {"gateway": total}
    if m.group(3) is not None:
        f["gateway without jit"] = total - float(m.group(4))
        f["gc"] = float(m.group(3))
        f["jit"] = float(m.group(4))
    if m.group(5) is not None:
        f["io threads"] = float(m.group(5))
    if m.group(6) is not None:
        f["backend"] = float(m.group(6))
    return f


def main():
    pairs = []
    for path in sys.argv[1:]:
        pending = {}
        for line in open(path):
            m = LINE.match(line.strip())
            if not m:
                continue
            pending[m.group(1)] = figures(m)
            if len(pending) == 2:
                pairs.append((pending["old"], pending["new"]))
                pending = {}
    if not pairs:
        raise SystemExit("no old/new batch pairs found")
    print(f"{len(pairs)} pairs; ms of CPU per MB: old median, new median, paired median difference, pairs lower")
    for name in pairs[0][0]:
        old = [o[name] for o, n in pairs if name in o and name in n]
        new = [n[name] for o, n in pairs if name in o and name in n]
        diff = [b - a for a, b in zip(old, new)]
        base = statistics.median(old)
        rel = f"{statistics.median(diff) / base * 100:+.1f} %" if base else "n/a"
        lower = sum(d < 0 for d in diff)
        print(f"  {name:20s} {base:7.3f} {statistics.median(new):7.3f} "
              f"{statistics.median(diff):+7.3f} ({rel})  {lower} of {len(diff)}")


if __name__ == "__main__":
    main()
