#!/usr/bin/env python3
"""boto3 transfer benchmark (issue 23): the same client shape against several S3 endpoints in one run.

Per round and endpoint (the order rotating each round):
  large: OBJECTS fresh random objects of SIZE MiB, each uploaded with upload_fileobj (multipart, PART MiB parts,
         THREADS concurrent) and downloaded with download_fileobj (ranged GETs of PART MiB, THREADS concurrent);
         MB/s (10^6 bytes/s) over all objects; every download compared with what was uploaded, outside the timing.
  small: THREADS threads each PUT a fresh 4 KiB object (fresh random bytes) then GET it, for SMALL seconds;
         ops/s counts PUTs and GETs; p50 of each; every GET compared with its PUT.
Outside the timing, every endpoint alike: each object is deleted once checked (the large one after its GET, the 4 KiB
ones with DeleteObjects after the phase), so the backend's store stays the same size round after round; and before each
phase the page cache's dirty data is written back (sync; --settle no leaves it), so that no phase pays for writing back
the files of the phase before it.
Server CPU (user + system from /proc) of the processes an endpoint goes through is summed per phase, and its system
(kernel) part on its own, where the backend's file writes, copies and deletes show.

Ratios to the endpoint named "direct" are taken within each round; the report gives their median over the rounds
with min-max. Endpoints come from a JSON file (GatewayBenchmark's transfer mode writes it):
  [{"name": "direct", "endpoint": "http://...", "key": "...", "secret": "...", "bucket": "...", "pids": [123]}, ...]

Run through `benchmarks/gateway-bench.sh transfer`, which starts the servers; standalone:
  .venv/bin/python benchmarks/transfer-bench.py --targets targets.json [--rounds 3] [--size-mib 256] [--part-mib 16]
      [--objects 1] [--threads 8] [--small-seconds 15] [--warmup-rounds 1] [--max-warmup-rounds 16]
      [--jit-idle-percent 3] [--settle yes] [--out results.md] [--json results.json]
Warm-up: at least --warmup-rounds whole rounds, then more until no server JVM's JIT compiler threads took more than
--jit-idle-percent of its CPU in the last one, at most --max-warmup-rounds in all (the figure is then a warm gateway's,
as a long-running one is; --max-warmup-rounds 1 keeps one warm-up round whatever the JIT does). Per phase the report
also gives the front process's CPU in its JIT compiler threads and its GC threads (/proc/PID/task/*/stat by name).
Where a gateway's CPU goes, per phase: --profile-lib PATH/libasyncProfiler.so --profile-dir DIR [--profile coffer]
loads async-profiler into the named endpoints' first process (a JVM) with jcmd around each measured phase and writes
DIR/<endpoint>-<phase>-r<round>.collapsed (large-put, large-get, small; one object's worth with --objects 1; stacks
under their thread's name); --profile-event wall samples every thread, waiting or not (where the time goes); the
profiler costs CPU, so take figures from runs without it. Group a file with benchmarks/profile-categories.py.
Several runs' --json files together (each run's median ratio, then the median of those):
  python3 benchmarks/transfer-bench.py --summarize run1.json run2.json run3.json
"""
import argparse
import io
import subprocess
import json
import os
import statistics
import sys
import threading
import time

import boto3
from boto3.s3.transfer import TransferConfig
from botocore.config import Config

MB = 1_000_000
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _stat_fields(stat):
    return stat.rsplit(")", 1)[1].split()


def _stat_ticks(stat):
    fields = _stat_fields(stat)
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)


def _summed(pids, ticks):
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            total += ticks(f.read())
    return total / CLOCK_TICKS


def cpu_seconds(pids):
    return _summed(pids, _stat_ticks)


def sys_seconds(pids):
    """The processes' system (kernel) CPU alone: stime, field 15 of stat."""
    return _summed(pids, lambda stat: int(_stat_fields(stat)[12]))


def settle(args):
    """Writes back the page cache's dirty data before a phase, outside its timing, when --settle is on: otherwise the
    kernel writes back the files of the phase before (a backend's objects and parts) while the next one is timed."""
    if args.settle == "yes":
        os.sync()


def thread_class(name):
    """HotSpot's thread names: the JIT's compiler threads, and the collector's (G1's workers, its concurrent marking,
    refinement and service threads, and the VM thread, which runs the pauses' safepoint operations)."""
    if name.startswith(("C1 CompilerThre", "C2 CompilerThre")):
        return "jit"
    if name.startswith(("GC Thread", "G1 ", "VM Thread")):
        return "gc"
    return None


def jvm_cpu(pid):
    """One JVM's CPU ticks now: the process's, and each JIT compiler and GC thread's by thread id, from
    /proc/PID/task/*/stat by thread name (none where the process is not a HotSpot JVM)."""
    with open(f"/proc/{pid}/stat") as f:
        total = _stat_ticks(f.read())
    threads = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                stat = f.read()
        except OSError:
            continue  # the thread ended meanwhile
        kind = thread_class(stat[stat.index("(") + 1:stat.rindex(")")])
        if kind:
            threads[tid] = (kind, _stat_ticks(stat))
    return {"total": total, "threads": threads}


def cpu_delta(before, after):
    """CPU seconds between two jvm_cpu samples: {"total", "jit", "gc"}. A thread started meanwhile counts whole; one
    that ended meanwhile (HotSpot stops idle compiler threads) drops out, so the JIT and GC parts are lower bounds."""
    out = {"total": after["total"] - before["total"], "jit": 0, "gc": 0}
    for tid, (kind, ticks) in after["threads"].items():
        out[kind] += ticks - before["threads"].get(tid, (kind, 0))[1]
    return {k: v / CLOCK_TICKS for k, v in out.items()}


def front_cpu(ep):
    return jvm_cpu(ep.pids[0]) if ep.pids else {"total": 0, "threads": {}}


class JvmShares:
    """The JIT's and the collector's share of each server JVM's CPU between two points in time."""

    def __init__(self, pids):
        self.pids = pids
        self.start = {pid: jvm_cpu(pid) for pid in pids}

    def since(self):
        """{pid: {"total", "jit", "gc"}} CPU seconds since this object was made."""
        return {pid: cpu_delta(self.start[pid], jvm_cpu(pid)) for pid in self.pids}

    @staticmethod
    def text(deltas, names):
        return ", ".join(f"{names[pid]} JIT {100 * d['jit'] / d['total']:.1f} % GC {100 * d['gc'] / d['total']:.1f} %"
                         if d["total"] > 0 else f"{names[pid]} idle" for pid, d in deltas.items())

    @staticmethod
    def max_jit(deltas):
        return max((d["jit"] / d["total"] for d in deltas.values() if d["total"] > 0), default=0)


class Profiler:
    """async-profiler loaded with jcmd into one JVM per profiled endpoint, started and stopped around a phase."""

    def __init__(self, lib, out_dir, names, event="cpu"):
        # absolute: the profiled JVM resolves them against its own working directory
        self.lib = os.path.abspath(lib) if lib else lib
        self.out_dir = os.path.abspath(out_dir) if out_dir else out_dir
        self.names, self.event = set(names), event
        self.round = 0
        if lib:
            os.makedirs(out_dir, exist_ok=True)

    def _command(self, ep, command):
        # jcmd would split an unquoted "key=value" argument; it exits 0 whatever the agent answers, so read its answer
        out = subprocess.run(["jcmd", str(ep.pids[0]), "JVMTI.agent_load", self.lib, f'"{command}"'], check=True,
                             capture_output=True, text=True).stdout
        if "return code: 0" not in out:
            raise SystemExit(f"async-profiler refused {command!r} in {ep.name}: {out.strip()}")

    def phase(self, ep, name):
        """A context manager that profiles the body when this endpoint is profiled in this (measured) round."""
        profiler = self

        class Phase:
            def __enter__(self):
                self.on = bool(profiler.lib) and profiler.round > 0 and ep.name in profiler.names
                if self.on:
                    profiler._command(ep, f"start,event={profiler.event},interval=1ms,threads")

            def __exit__(self, *exc):
                if self.on:
                    out = os.path.join(profiler.out_dir, f"{ep.name}-{name}-r{profiler.round}.collapsed")
                    profiler._command(ep, f"stop,file={out},collapsed")

        return Phase()


PROFILER = Profiler(None, None, [])


def log(msg):
    print(time.strftime("[%H:%M:%S] ") + msg, file=sys.stderr, flush=True)


class Endpoint:
    def __init__(self, spec, threads):
        self.name = spec["name"]
        self.bucket = spec["bucket"]
        self.pids = spec.get("pids", [])
        self.client = boto3.session.Session().client(
            "s3", endpoint_url=spec["endpoint"], region_name="us-east-1",
            aws_access_key_id=spec["key"], aws_secret_access_key=spec["secret"],
            config=Config(signature_version="s3v4", s3={"addressing_style": "path"},
                          max_pool_connections=threads * 2, retries={"max_attempts": 1}))
        self.keys = 0

    def next_key(self, prefix):
        self.keys += 1
        return f"{prefix}/{self.keys}"


def large(ep, args, transfer):
    size = args.size_mib << 20
    put_s = get_s = 0.0
    cpu_put = cpu_get = 0.0
    sys_put = sys_get = 0.0
    # the endpoint's own process (Coffer's gateway, s3proxy-enc's front) without its backend, and its JIT and GC threads
    front_put, front_get = ({"total": 0.0, "jit": 0.0, "gc": 0.0} for _ in range(2))
    client_put = client_get = 0.0  # this driver's own CPU (boto3's threads): it shares the machine's cores
    for _ in range(args.objects):
        data = os.urandom(size)
        key = ep.next_key("large")
        settle(args)
        c0, k0, f0, s0 = cpu_seconds(ep.pids), time.process_time(), front_cpu(ep), sys_seconds(ep.pids)
        t0 = time.perf_counter()
        with PROFILER.phase(ep, "large-put"):
            ep.client.upload_fileobj(io.BytesIO(data), ep.bucket, key, Config=transfer)
        t1 = time.perf_counter()
        c1, k1, f1, s1 = cpu_seconds(ep.pids), time.process_time(), front_cpu(ep), sys_seconds(ep.pids)
        sink = io.BytesIO()
        with PROFILER.phase(ep, "large-get"):
            ep.client.download_fileobj(ep.bucket, key, sink, Config=transfer)
        t2 = time.perf_counter()
        c2, k2, f2, s2 = cpu_seconds(ep.pids), time.process_time(), front_cpu(ep), sys_seconds(ep.pids)
        if sink.getbuffer().nbytes != size or sink.getvalue() != data:
            raise SystemExit(f"{ep.name}: GET of {key} returned other bytes than its PUT")
        put_s += t1 - t0
        get_s += t2 - t1
        cpu_put += c1 - c0
        cpu_get += c2 - c1
        sys_put += s1 - s0
        sys_get += s2 - s1
        for kind, seconds in cpu_delta(f0, f1).items():
            front_put[kind] += seconds
        for kind, seconds in cpu_delta(f1, f2).items():
            front_get[kind] += seconds
        client_put += k1 - k0
        client_get += k2 - k1
        ep.client.delete_object(Bucket=ep.bucket, Key=key)  # the backend's disk holds a few objects at a time
    total = args.objects * size / MB
    return {"put_MBps": total / put_s, "get_MBps": total / get_s,
            "put_cpu_ms_per_MB": cpu_put * 1000 / total, "get_cpu_ms_per_MB": cpu_get * 1000 / total,
            "put_sys_ms_per_MB": sys_put * 1000 / total, "get_sys_ms_per_MB": sys_get * 1000 / total,
            "put_front_cpu_ms_per_MB": front_put["total"] * 1000 / total,
            "get_front_cpu_ms_per_MB": front_get["total"] * 1000 / total,
            "put_front_jit_ms_per_MB": front_put["jit"] * 1000 / total,
            "get_front_jit_ms_per_MB": front_get["jit"] * 1000 / total,
            "put_front_gc_ms_per_MB": front_put["gc"] * 1000 / total,
            "get_front_gc_ms_per_MB": front_get["gc"] * 1000 / total,
            "put_client_cpu_ms_per_MB": client_put * 1000 / total, "get_client_cpu_ms_per_MB": client_get * 1000 / total}


def delete_all(ep, keys):
    """Deletes a phase's objects, outside its timing: DeleteObjects, 1,000 keys a request."""
    for i in range(0, len(keys), 1000):
        batch = [{"Key": k} for k in keys[i:i + 1000]]
        failed = ep.client.delete_objects(Bucket=ep.bucket, Delete={"Objects": batch, "Quiet": True}).get("Errors")
        if failed:
            raise SystemExit(f"{ep.name}: DeleteObjects failed for {len(failed)} keys, first {failed[0]}")


def small(ep, args, seconds):
    settle(args)
    stop = time.perf_counter() + seconds
    puts, gets, errors, keys = [], [], [], []
    prefix = ep.next_key("small")

    def worker(t):
        i = 0
        my_puts, my_gets, my_keys = [], [], []
        try:
            while time.perf_counter() < stop:
                key = f"{prefix}/{t}/{i}"
                i += 1
                body = os.urandom(4096)
                t0 = time.perf_counter()
                ep.client.put_object(Bucket=ep.bucket, Key=key, Body=body)
                my_keys.append(key)
                t1 = time.perf_counter()
                got = ep.client.get_object(Bucket=ep.bucket, Key=key)["Body"].read()
                t2 = time.perf_counter()
                if got != body:
                    raise RuntimeError(f"GET of {key} returned other bytes than its PUT")
                my_puts.append(t1 - t0)
                my_gets.append(t2 - t1)
        except Exception as e:  # reported below, fails the run
            errors.append(f"{ep.name} thread {t}: {e!r}")
        puts.extend(my_puts)
        gets.extend(my_gets)
        keys.extend(my_keys)

    c0, k0 = cpu_seconds(ep.pids), time.process_time()
    t0 = time.perf_counter()
    threads = [threading.Thread(target=worker, args=(t,)) for t in range(args.threads)]
    with PROFILER.phase(ep, "small"):
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    elapsed = time.perf_counter() - t0
    cpu = cpu_seconds(ep.pids) - c0
    client_cpu = time.process_time() - k0
    if errors:
        raise SystemExit("small objects failed: " + "; ".join(errors))
    delete_all(ep, keys)
    ops = len(puts) + len(gets)
    return {"small_ops": ops / elapsed, "put_p50_ms": statistics.median(puts) * 1000,
            "get_p50_ms": statistics.median(gets) * 1000, "small_cpu_ms_per_op": cpu * 1000 / ops,
            "small_client_cpu_ms_per_op": client_cpu * 1000 / ops}


FIGURES = [  # key, label, higher is better
    ("put_MBps", "large PUT, MB/s", True),
    ("get_MBps", "large GET, MB/s", True),
    ("small_ops", "4 KiB PUT+GET, ops/s", True),
    ("put_p50_ms", "4 KiB PUT p50, ms", False),
    ("get_p50_ms", "4 KiB GET p50, ms", False),
    ("put_cpu_ms_per_MB", "server CPU, large PUT, ms/MB", False),
    ("get_cpu_ms_per_MB", "server CPU, large GET, ms/MB", False),
    ("small_cpu_ms_per_op", "server CPU, 4 KiB, ms/op", False),
    ("put_sys_ms_per_MB", "server CPU in system (kernel) time, large PUT, ms/MB", False),
    ("get_sys_ms_per_MB", "server CPU in system (kernel) time, large GET, ms/MB", False),
    ("put_front_cpu_ms_per_MB", "front process alone (no backend), large PUT, ms/MB", False),
    ("get_front_cpu_ms_per_MB", "front process alone (no backend), large GET, ms/MB", False),
    ("put_front_jit_ms_per_MB", "of which its JIT compiler threads, large PUT, ms/MB", False),
    ("get_front_jit_ms_per_MB", "of which its JIT compiler threads, large GET, ms/MB", False),
    ("put_front_gc_ms_per_MB", "of which its GC threads (and VM thread), large PUT, ms/MB", False),
    ("get_front_gc_ms_per_MB", "of which its GC threads (and VM thread), large GET, ms/MB", False),
    ("put_client_cpu_ms_per_MB", "client (boto3) CPU, large PUT, ms/MB", False),
    ("get_client_cpu_ms_per_MB", "client (boto3) CPU, large GET, ms/MB", False),
    ("small_client_cpu_ms_per_op", "client (boto3) CPU, 4 KiB, ms/op", False),
]
RATIOS = ["put_MBps", "get_MBps", "small_ops"]


CEILINGS = [  # label, rate key, client CPU key, server CPU key
    ("large PUT", "put_MBps", "put_client_cpu_ms_per_MB", "put_cpu_ms_per_MB"),
    ("large GET", "get_MBps", "get_client_cpu_ms_per_MB", "get_cpu_ms_per_MB"),
    ("4 KiB PUT+GET", "small_ops", "small_client_cpu_ms_per_op", "small_cpu_ms_per_op"),
]


def ceiling_ratio(rnd, name, rate, client, server):
    """The most this path's rate can be, as a ratio to direct's measured rate, with every core busy on its CPU per unit
    (client and servers share the machine's cores): an upper bound, as direct itself need not be CPU-bound."""
    return os.cpu_count() * 1000 / (rnd[name][client] + rnd[name][server]) / rnd["direct"][rate]


def cell(values, fmt):
    if not values:
        return "-"
    med = statistics.median(values)
    return f"{fmt.format(med)} [{fmt.format(min(values))}–{fmt.format(max(values))}]"


def report(args, names, rounds, started):
    lines = [f"# boto3 transfer benchmark, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(started))}", "",
             f"{args.rounds} rounds (order rotating), {args.warmup_rounds} warm-up; {args.threads} threads; "
             f"{args.objects} object(s) of {args.size_mib} MiB per round, {args.part_mib} MiB parts "
             f"(upload_fileobj / download_fileobj); 4 KiB PUT+GET for {args.small_seconds} s. "
             f"Machine: {os.cpu_count()} CPUs, load average before: {args.load_before}. Cells: median [min–max]. "
             f"Each object deleted once checked; dirty page cache written back (sync) before each phase: "
             f"{args.settle}.", "",
             f"Warm-up: {args.warmups_done} rounds (at least {args.warmup_rounds}, then until every server JVM's JIT "
             f"compiler threads used at most {args.jit_idle_percent:g} % of its CPU in a round, at most "
             f"{args.max_warmup_rounds}); JIT and GC shares of each server JVM's CPU in the last warm-up round: "
             f"{args.warmup_shares}; in the measured rounds: {args.measured_shares}.", ""]
    lines.append("| figure | " + " | ".join(names) + " |")
    lines.append("|---|" + "---:|" * len(names))
    for key, label, _ in FIGURES:
        fmt = "{:,.1f}" if key.endswith("MBps") or key == "small_ops" else "{:.2f}"
        lines.append(f"| {label} | " + " | ".join(cell([r[n][key] for r in rounds], fmt) for n in names) + " |")
    others = [n for n in names if n != "direct"]
    if "direct" in names and others:
        lines += ["", "Ratio to direct, taken within each round:", "",
                  "| figure | " + " | ".join(others) + " |", "|---|" + "---:|" * len(others)]
        for key, label, _ in FIGURES:
            if key in RATIOS:
                lines.append(f"| {label.split(',')[0]} | " + " | ".join(
                    cell([r[n][key] / r["direct"][key] for r in rounds], "{:.2f}") for n in others) + " |")
        lines += ["", f"CPU ceiling: with client and servers on these {os.cpu_count()} cores, a path's rate is at most "
                  "cores / (client CPU + server CPU) per MB (or per op); as a ratio to direct's measured rate, the most "
                  "this machine allows that figure to reach:", "",
                  "| figure | " + " | ".join(others) + " |", "|---|" + "---:|" * len(others)]
        for label, *keys in CEILINGS:
            lines.append(f"| {label} | " + " | ".join(cell([ceiling_ratio(r, n, *keys) for r in rounds], "{:.2f}")
                                                       for n in others) + " |")
    lines.append("")
    lines.append("Per round: " + json.dumps(rounds))
    return "\n".join(lines) + "\n"


def summarize(files):
    runs = []
    for name in files:
        with open(name) as f:
            runs.append(json.load(f)["rounds"])
    others = [n for n in runs[0][0] if n != "direct"]
    print(f"Ratio to direct: each run's median over its rounds; median of the {len(runs)} runs [min–max of the runs]")
    print("")
    print("| figure | " + " | ".join(others) + " |")
    print("|---|" + "---:|" * len(others))
    for key, label, _ in FIGURES:
        if key in RATIOS:
            cells = []
            for n in others:
                per_run = [statistics.median(r[n][key] / r["direct"][key] for r in rounds) for rounds in runs]
                cells.append(f"{statistics.median(per_run):.2f} [{min(per_run):.2f}–{max(per_run):.2f}] "
                             f"(runs: {', '.join(f'{x:.2f}' for x in per_run)})")
            print(f"| {label.split(',')[0]} | " + " | ".join(cells) + " |")
    if all(CEILINGS[0][2] in r["direct"] for rounds in runs for r in rounds):  # runs before client CPU was measured lack it
        print("")
        print("CPU ceiling (cores / the path's client + server CPU per unit, over direct's rate), median of the runs "
              "[min–max]:")
        print("")
        print("| figure | " + " | ".join(others) + " |")
        print("|---|" + "---:|" * len(others))
        for label, *keys in CEILINGS:
            cells = []
            for n in others:
                per_run = [statistics.median(ceiling_ratio(r, n, *keys) for r in rounds) for rounds in runs]
                cells.append(f"{statistics.median(per_run):.2f} [{min(per_run):.2f}–{max(per_run):.2f}]")
            print(f"| {label} | " + " | ".join(cells) + " |")


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--summarize":
        summarize(sys.argv[2:])
        return
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--targets", required=True)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--warmup-rounds", type=int, default=1)
    p.add_argument("--size-mib", type=int, default=256)
    p.add_argument("--part-mib", type=int, default=16)
    p.add_argument("--objects", type=int, default=1)
    p.add_argument("--threads", type=int, default=8)
    p.add_argument("--small-seconds", type=float, default=15)
    p.add_argument("--max-warmup-rounds", type=int, default=16,
                   help="more warm-up rounds, up to this many in all, until the JIT share is at most --jit-idle-percent")
    p.add_argument("--jit-idle-percent", type=float, default=3)
    p.add_argument("--settle", default="yes", choices=["yes", "no"],
                   help="yes: write back the page cache's dirty data (sync) before each phase, outside the timing")
    p.add_argument("--out")
    p.add_argument("--json")
    p.add_argument("--profile-lib", help="libasyncProfiler.so: profile each measured phase (see above)")
    p.add_argument("--profile-dir", default="profiles")
    p.add_argument("--profile", default="coffer", help="endpoints to profile, comma-separated")
    p.add_argument("--profile-event", default="cpu", choices=["cpu", "wall"],
                   help="cpu: where CPU goes; wall: where every thread's time goes, waiting included")
    args = p.parse_args()
    global PROFILER
    PROFILER = Profiler(args.profile_lib, args.profile_dir, args.profile.split(","), args.profile_event)
    args.max_warmup_rounds = max(args.max_warmup_rounds, args.warmup_rounds)
    if min(args.rounds, args.size_mib, args.part_mib, args.objects, args.threads) < 1 or args.warmup_rounds < 0 \
            or args.small_seconds <= 0:
        p.error("rounds, size, part, objects and threads must be at least 1, small-seconds above 0")
    args.load_before = " ".join(f"{x:.2f}" for x in os.getloadavg())
    with open(args.targets) as f:
        endpoints = [Endpoint(s, args.threads) for s in json.load(f)]
    names = [e.name for e in endpoints]
    part = args.part_mib << 20
    transfer = TransferConfig(multipart_threshold=part, multipart_chunksize=part, max_concurrency=args.threads,
                              use_threads=True)
    started = time.time()
    jvms = server_names(endpoints)
    last, warmups = None, 0
    # a gateway serves from the steady state: warm up until no server JVM's JIT compilers took more than the idle
    # share of its CPU in a round (per-request code reaches C2 after thousands of requests; a large GET is 16)
    while warmups < args.warmup_rounds or (warmups < args.max_warmup_rounds
                                           and (last is None or JvmShares.max_jit(last) > args.jit_idle_percent / 100)):
        shares = JvmShares(list(jvms))
        for ep in endpoints:
            log(f"warm-up {warmups + 1}/{args.warmup_rounds}+: {ep.name}")
            large(ep, args, transfer)
            small(ep, args, max(2.0, args.small_seconds / 3))
        last = shares.since()
        warmups += 1
        log(f"JIT and GC shares of server CPU in that warm-up round: {JvmShares.text(last, jvms)}")
    args.warmups_done = warmups
    args.warmup_shares = JvmShares.text(last, jvms) if last else "-"
    measured = JvmShares(list(jvms))
    rounds = []
    for r in range(args.rounds):
        PROFILER.round = r + 1
        result = {}
        for i in range(len(endpoints)):
            ep = endpoints[(i + r) % len(endpoints)]
            log(f"round {r + 1}/{args.rounds}: {ep.name}")
            result[ep.name] = {**large(ep, args, transfer), **small(ep, args, args.small_seconds)}
            log(f"  {ep.name}: " + ", ".join(f"{k} {v:.2f}" for k, v in result[ep.name].items()))
        rounds.append(result)
    args.measured_shares = JvmShares.text(measured.since(), jvms)
    text = report(args, names, rounds, started)
    print(text)
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as f:
            f.write(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": recorded_args(args), "rounds": rounds}, f, indent=1)


def server_names(endpoints):
    """{pid: name} of every server process once: an endpoint's first process by its name, the rest as its backend
    (direct's s3proxy is also Coffer's backend)."""
    names = {}
    for ep in endpoints:
        for i, pid in enumerate(ep.pids):
            names.setdefault(pid, ep.name if i == 0 else f"{ep.name}'s backend")
    return names


def recorded_args(args):
    """The run's arguments as a results file keeps them: an absolute path (a temporary directory, a build machine's
    checkout) is named by its file name under WORK/, so that committed results name no machine's paths."""
    return {k: "WORK/" + os.path.basename(v) if isinstance(v, str) and os.path.isabs(v) else v
            for k, v in vars(args).items()}


if __name__ == "__main__":
    main()
