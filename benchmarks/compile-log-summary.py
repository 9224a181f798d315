#!/usr/bin/env python3
"""Summarises a HotSpot compilation log (-XX:+LogCompilation) of a gateway run: what the JIT compiled in the run's
last part, and whether it had compiled the same method at the same tier before (a deoptimisation / recompilation
cycle) or for the first time (code that only now reached the tier's invocation threshold).

Usage: benchmarks/compile-log-summary.py COMPILE.log [FROM_FRACTION | A-B[,C-D...]]
FROM_FRACTION (0.5): the part of the run looked at, from that fraction of its last compilation's time stamp.
A-B,...: windows in seconds of the JVM's uptime (the log's stamps), e.g. a transfer run's measured rounds of one
endpoint: its wall-clock start from `-Xlog:class+load:file=CL.log:time,uptime` (first line), the rounds' from the
driver's log. Besides the tasks, the windows' uncommon traps (deoptimisations) by reason and action, the invocation
counts at which C2 tasks were queued (5,000 is Tier4InvocationThreshold: a first compile of code run a few times per
request), and how long tasks waited in the queue (a backlog carried over from earlier rounds).
Durations are wall time of the compile tasks (on a busy machine they include waiting for a core).
"""
import collections
import re
import statistics
import sys


def stamp(line):
    return float(re.search(r"stamp='([\d.]+)'", line).group(1))


def read(path):
    """(tasks, queued, traps): tasks (start, duration, level, method, osr, compile id); queued {id: (stamp,
    iicount)}; traps [(stamp, reason, action)] of the running threads."""
    out, current, queued, traps = [], None, {}, []
    for line in open(path, errors="replace"):
        if line.startswith("<task "):
            level = re.search(r"level='(\d)'", line)
            current = (stamp(line), level.group(1) if level else "4",
                       re.search(r"method='([^']*)'", line).group(1).replace("&lt;", "<").replace("&gt;", ">"),
                       "osr_bci" in line, re.search(r" compile_id='(\d+)'", line).group(1))
        elif line.startswith("<task_done") and current:
            out.append((current[0], stamp(line) - current[0]) + current[1:])
            current = None
        elif line.startswith("<task_queued"):
            count = re.search(r"iicount='(\d+)'", line)
            queued[re.search(r"compile_id='(\d+)'", line).group(1)] = (stamp(line), int(count.group(1)) if count else 0)
        elif line.startswith("<uncommon_trap thread"):
            action = re.search(r"action='([^']*)'", line)
            traps.append((stamp(line), re.search(r"reason='([^']*)'", line).group(1), action.group(1) if action else ""))
    return sorted(out), queued, traps


def windows(arg, all_tasks):
    if arg and "-" in arg:
        return [tuple(float(x) for x in w.split("-")) for w in arg.split(",")]
    return [(all_tasks[-1][0] * (float(arg) if arg else 0.5), float("inf"))]


def main():
    all_tasks, queued, traps = read(sys.argv[1])
    spans = windows(sys.argv[2] if len(sys.argv) > 2 else None, all_tasks)

    def inside(t):
        return any(a <= t < b for a, b in spans)

    seen = set()
    first, again = collections.Counter(), collections.Counter()
    seconds = collections.Counter()
    c2_by_package, c2_tasks = collections.Counter(), []
    counts, waits = collections.Counter(), collections.defaultdict(list)
    for t in all_tasks:
        key = (t[3], t[2], t[4])
        if inside(t[0]):
            (again if key in seen else first)[t[2]] += 1
            seconds[t[2]] += t[1]
            if t[5] in queued:
                waits[t[2]].append(t[0] - queued[t[5]][0])
            if t[2] == "4":
                c2_by_package[".".join(t[3].split(" ")[0].split(".")[:3])] += t[1]
                c2_tasks.append(t)
                n = queued.get(t[5], (0, 0))[1]
                counts["< 1,000" if n < 1000 else "1,000-5,000" if n < 5000 else "5,000-20,000" if n < 20000
                       else ">= 20,000"] += 1
        seen.add(key)
    where = ", ".join(f"{a:.1f}-{b:.1f} s" if b != float("inf") else f"from {a:.1f} s" for a, b in spans)
    print(f"{len(all_tasks)} compilations in all; in {where}:")
    for level in sorted(seconds):
        w = waits[level]
        print(f"  tier {level}: {first[level]} first-time, {again[level]} again (same method and tier), "
              f"{seconds[level]:.2f} s" + (f"; queue wait median {statistics.median(w):.2f} s, max {max(w):.2f} s"
                                           if w else ""))
    print("C2 tasks by the method's invocation count when queued: "
          + ", ".join(f"{k} {counts[k]}" for k in ["< 1,000", "1,000-5,000", "5,000-20,000", ">= 20,000"]))
    trapped = collections.Counter((r, a) for s, r, a in traps if inside(s))
    print(f"uncommon traps: {sum(trapped.values())}"
          + "".join(f"; {r} ({a}) {n}" for (r, a), n in trapped.most_common(8)))
    print("C2 seconds by package:")
    for name, s in c2_by_package.most_common(15):
        print(f"  {s:7.3f} {name}")
    print("longest C2 tasks:")
    for t in sorted(c2_tasks, key=lambda t: -t[1])[:15]:
        print(f"  {t[1]:7.3f} {t[3][:120]}{' (OSR)' if t[4] else ''}")


if __name__ == "__main__":
    main()
