#!/usr/bin/env python3
"""Summarises a HotSpot compilation log (-XX:+LogCompilation) of a gateway run: what the JIT compiled in the run's
last part, and whether it had compiled the same method at the same tier before (a deoptimisation / recompilation
cycle) or for the first time (code that only now reached the tier's invocation threshold).

Usage: benchmarks/compile-log-summary.py COMPILE.log [FROM_FRACTION]
FROM_FRACTION (0.5): the part of the run looked at, from that fraction of its last compilation's time stamp.
Durations are wall time of the compile tasks (on a busy machine they include waiting for a core).
"""
import collections
import re
import sys


def tasks(path):
    out, current = [], None
    for line in open(path, errors="replace"):
        if line.startswith("<task "):
            level = re.search(r"level='(\d)'", line)
            current = (float(re.search(r"stamp='([\d.]+)'", line).group(1)), level.group(1) if level else "4",
                       re.search(r"method='([^']*)'", line).group(1).replace("&lt;", "<").replace("&gt;", ">"),
                       "osr_bci" in line)
        elif line.startswith("<task_done") and current:
            end = float(re.search(r"stamp='([\d.]+)'", line).group(1))
            out.append((current[0], end - current[0], current[1], current[2], current[3]))
            current = None
    return sorted(out)


def main():
    all_tasks = tasks(sys.argv[1])
    start = all_tasks[-1][0] * (float(sys.argv[2]) if len(sys.argv) > 2 else 0.5)
    seen = set()
    first, again = collections.Counter(), collections.Counter()
    seconds = collections.Counter()
    c2_by_package, c2_tasks = collections.Counter(), []
    for t in all_tasks:
        key = (t[3], t[2], t[4])
        if t[0] >= start:
            (again if key in seen else first)[t[2]] += 1
            seconds[t[2]] += t[1]
            if t[2] == "4":
                c2_by_package[".".join(t[3].split(" ")[0].split(".")[:3])] += t[1]
                c2_tasks.append(t)
        seen.add(key)
    print(f"{len(all_tasks)} compilations; from {start:.1f} s to {all_tasks[-1][0]:.1f} s:")
    for level in sorted(seconds):
        print(f"  tier {level}: {first[level]} first-time, {again[level]} again (same method and tier), "
              f"{seconds[level]:.2f} s")
    print("C2 seconds by package:")
    for name, s in c2_by_package.most_common(15):
        print(f"  {s:7.3f} {name}")
    print("longest C2 tasks:")
    for t in sorted(c2_tasks, key=lambda t: -t[1])[:15]:
        print(f"  {t[1]:7.3f} {t[3][:120]}{' (OSR)' if t[4] else ''}")


if __name__ == "__main__":
    main()
