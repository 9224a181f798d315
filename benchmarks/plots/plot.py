#!/usr/bin/env python3
"""Draws the plots of docs/BENCHMARKS.md and docs/KEYSERVER-BENCHMARKS.md from the JSON results in benchmarks/results.

    python3 -m venv .cache/plots-venv && .cache/plots-venv/bin/pip install -r benchmarks/plots/requirements.txt
    .cache/plots-venv/bin/python benchmarks/plots/plot.py

Inputs: JMH JSON (-rf json) as written by benchmarks/run.sh, and the JSON that tables_to_json.py makes of
GatewayBenchmark's and KeyServerLoad's Markdown output. The files plotted are named below; a newer run is plotted by
naming its file here. Output: docs/img/*.png, byte for byte the same on every run with the pinned matplotlib.
"""
import json
import os
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
RESULTS = os.path.join(ROOT, "benchmarks", "results")
OUT = os.path.join(ROOT, "docs", "img")

ENGINE_JMH = "jmh-20261125T210807Z.json"
ENGINE_LARGE_MIB = 256  # EngineBenchmark.LARGE_MIB: single-shot scores are ms per 256 MiB
GATEWAY_RUNS = [  # (label, file), oldest first
    ("01:01 A", "gateway-20261125T0101Z.json"),
    ("01:42 A", "gateway-20261125T0142Z.json"),
    ("04:04 A", "gateway-20261125T0404Z.json"),
    ("12:40 B", "gateway-20261125T1240Z.json"),
    ("13:45 B", "gateway-20261125T1345Z.json"),
]
GATEWAY_LATEST = "gateway-20261125T1345Z.json"
GATEWAY_TARGETS = {  # metric row -> (floor, aim) as Coffer/direct
    "PUT 64 MiB, MB/s": (0.60, 0.85),
    "GET 64 MiB, MB/s": (0.60, 0.85),
    "PUT 4 KiB, ops/s (8 threads)": (0.50, 0.70),
    "GET 4 KiB, ops/s (8 threads)": (0.50, 0.70),
}
KEYSERVER_RUNS = [("RSA-2048", "keyserver-20261122T0840Z-rsa2048.json"),
                  ("RSA-1024", "keyserver-20261122T0844Z-rsa1024.json"),
                  ("P-256 VOPRF", "keyserver-20261122T0847Z-p256.json")]
COLORS = {"direct": "#4c72b0", "relay": "#8c8c8c", "Coffer": "#dd8452", "s3proxy-enc": "#55a868"}


def load(name):
    with open(os.path.join(RESULTS, name), encoding="utf-8") as f:
        return json.load(f)


def number(cell):
    """'1,290.7 [959.5-1,496.7]' -> (1290.7, 959.5, 1496.7); '83% (...)' -> 83.0; a plain cell -> (v, v, v)."""
    m = re.match(r"^([\d,.]+)%?\s*(?:\[([\d,.]+)-([\d,.]+)\])?", cell)
    if not m:
        raise ValueError(f"not a number: {cell!r}")
    v = [float(g.replace(",", "")) if g else None for g in m.groups()]
    return v[0], v[1] if v[1] is not None else v[0], v[2] if v[2] is not None else v[0]


def table(doc, first_column, section_part=None):
    for t in doc["tables"]:
        if t["columns"][0] == first_column and (section_part is None or section_part in (t["section"] or "")):
            return t
    raise KeyError(first_column)


def row(t, label):
    for r in t["rows"]:
        if r[0] == label:
            return dict(zip(t["columns"], r))
    raise KeyError(label)


def median(values):
    s = sorted(values)
    pos = 0.5 * (len(s) - 1)
    lo, hi = int(pos), min(int(pos) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def save(fig, name):
    os.makedirs(OUT, exist_ok=True)
    fig.savefig(os.path.join(OUT, name), dpi=100, metadata={"Software": None})
    plt.close(fig)
    print(os.path.relpath(os.path.join(OUT, name), ROOT))


def engine():
    """MiB/s samples of the large engine operations and their same-run baselines, as JmhSummary converts them."""
    samples = {}
    for b in load(ENGINE_JMH):
        name = b["benchmark"].rsplit(".", 1)[1]
        if b["params"].get("backend") != "directory" or b["mode"] != "ss":
            continue
        raw = [v for fork in b["primaryMetric"]["rawData"] for v in fork]
        samples[name] = [ENGINE_LARGE_MIB * 1000.0 / ms for ms in raw]
    bars = [("PUT", "putLarge"), ("MD5 alone", "rawMd5"), ("backend alone", "rawBackendPut"),
            ("GET", "getLarge"), ("SHA-256 alone", "rawSha256")]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4), gridspec_kw={"width_ratios": [3, 2]})
    for i, (label, key) in enumerate(bars):
        s = samples[key]
        m = median(s)
        left.bar(i, m, color="#dd8452" if label in ("PUT", "GET") else "#8c8c8c",
                 yerr=[[m - min(s)], [max(s) - m]], capsize=4)
        left.text(i, m / 2, f"{m:,.0f}", ha="center", color="white", fontsize=9)
    left.set_xticks(range(len(bars)), [b[0] for b in bars])
    left.set_ylabel("MiB/s (median, min-max)")
    left.set_title("Engine, 256 MiB, directory backend")
    ratios = [("PUT / MD5", median(samples["putLarge"]) / median(samples["rawMd5"]), 0.60, 0.90),
              ("GET / SHA-256", median(samples["getLarge"]) / median(samples["rawSha256"]), 0.60, 0.80)]
    for i, (label, r, floor, aim) in enumerate(ratios):
        right.bar(i, 100 * r, color="#dd8452")
        right.text(i, 100 * r + 2, f"{100 * r:.1f} %", ha="center", fontsize=9)
        right.hlines(100 * floor, i - 0.4, i + 0.4, colors="black", linestyles="-", label="floor" if i == 0 else None)
        right.hlines(100 * aim, i - 0.4, i + 0.4, colors="black", linestyles=":", label="aim" if i == 0 else None)
    right.set_xticks(range(len(ratios)), [r[0] for r in ratios])
    right.set_ylim(0, max(110, 100 * max(r[1] for r in ratios) + 15))
    right.set_ylabel("% (median / median)")
    right.set_title("Against the same run's baselines")
    right.legend(loc="upper left", fontsize=8)
    fig.suptitle(f"benchmarks/results/{ENGINE_JMH}", fontsize=8, y=0.02)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    save(fig, "engine.png")


def gateway_throughput():
    doc = load(GATEWAY_LATEST)
    t = table(doc, "metric")
    targets = ["direct", "relay", "Coffer", "s3proxy-enc"]
    fig, axes = plt.subplots(1, 4, figsize=(13, 3.8))
    for ax, metric in zip(axes, GATEWAY_TARGETS):
        r = row(t, metric)
        for i, name in enumerate(targets):
            m, lo, hi = number(r[name])
            ax.bar(i, m, color=COLORS[name], yerr=[[m - lo], [hi - m]], capsize=3)
        floor, aim = GATEWAY_TARGETS[metric]
        direct = number(r["direct"])[0]
        ax.axhline(floor * direct, color="black", lw=1, label=f"floor {floor:.0%} of direct")
        ax.axhline(aim * direct, color="black", lw=1, ls=":", label=f"aim {aim:.0%}")
        ax.set_xticks(range(len(targets)), targets, rotation=30, fontsize=8)
        ax.set_title(metric.replace(" (8 threads)", ", 8 threads"), fontsize=9)
        ax.legend(fontsize=7, loc="upper right")
    fig.suptitle(f"S3 gateway, one run: benchmarks/results/{GATEWAY_LATEST} (median, min-max)", fontsize=9)
    fig.tight_layout()
    save(fig, "gateway-throughput.png")


def gateway_ratios():
    runs = [(label, table(load(f), "metric")) for label, f in GATEWAY_RUNS]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4))
    width = 0.8 / len(runs)
    metrics = list(GATEWAY_TARGETS)
    for j, (label, t) in enumerate(runs):
        direct = [100 * number(row(t, m)["Coffer/direct"])[0] for m in metrics]
        enc = [number(row(t, m)["Coffer/s3proxy-enc"])[0] for m in metrics]
        xs = [i - 0.4 + width * (j + 0.5) for i in range(len(metrics))]
        shade = plt.cm.Oranges(0.35 + 0.6 * j / (len(runs) - 1))
        left.bar(xs, direct, width, color=shade, label=label)
        right.bar(xs, enc, width, color=shade, label=label)
    for i, m in enumerate(metrics):
        floor, aim = GATEWAY_TARGETS[m]
        left.hlines(100 * floor, i - 0.45, i + 0.45, colors="black")
        left.hlines(100 * aim, i - 0.45, i + 0.45, colors="black", linestyles=":")
    short = ["PUT 64 MiB", "GET 64 MiB", "PUT 4 KiB", "GET 4 KiB"]
    left.set_xticks(range(len(metrics)), short)
    left.set_ylabel("Coffer / direct, %")
    left.set_title("Against the bare backend (solid: floor, dotted: aim)", fontsize=10)
    left.legend(fontsize=7, title="run (UTC, VM)", title_fontsize=7)
    right.axhline(1.0, color="black", lw=1)
    right.set_xticks(range(len(metrics)), short)
    right.set_ylabel("Coffer / s3proxy-enc (x)")
    right.set_title("Against s3proxy's encrypting gateway (above 1: Coffer faster)", fontsize=10)
    fig.suptitle("Five whole runs of benchmarks/gateway-bench.sh --warmup-rounds 2, 2026-11-25", fontsize=9)
    fig.tight_layout()
    save(fig, "gateway-ratios.png")


def keyserver_figure4():
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    for ax, (key, f) in zip(axes, KEYSERVER_RUNS):
        doc = load(f)
        sweep = table(doc, "i", "Figure 4")
        offered = [number(r[1])[0] for r in sweep["rows"]]
        goodput = [number(r[5])[0] for r in sweep["rows"]]
        answered = [number(r[4])[0] for r in sweep["rows"]]
        limit = number(row(table(doc, "key", "summary"), key)["raw limit: 2 x 1-thread evaluations/s"])[0]
        ax.plot(offered, goodput, ".-", color="#dd8452", label="goodput (answered within 500 ms)")
        lossy = [(o, g) for o, g, a in zip(offered, goodput, answered) if a < 100.0]
        if lossy:
            ax.plot(*zip(*lossy), "x", color="#c44e52", label="step with loss")
        ax.axhline(limit, color="black", lw=1, label=f"raw limit {limit:,.0f}/s")
        ax.axhline(0.8 * limit, color="black", lw=1, ls=":", label="target 80 % of it")
        ax.plot(offered, offered, color="#8c8c8c", lw=0.8, ls="--", label="offered")
        ax.set_xlabel("offered queries/s")
        ax.set_ylabel("queries/s")
        ax.set_ylim(0, max(max(offered), limit) * 1.3)
        ax.set_title(key, fontsize=10)
        ax.legend(fontsize=7, loc="upper left")
    fig.suptitle("Key server, Figure 4 sweep (OPRFv2, batch 1, open loop), 2026-11-22 08:40-08:50 UTC", fontsize=9)
    fig.tight_layout()
    save(fig, "keyserver-figure4.png")


if __name__ == "__main__":
    engine()
    gateway_throughput()
    gateway_ratios()
    keyserver_figure4()
