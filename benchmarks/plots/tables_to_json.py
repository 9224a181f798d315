#!/usr/bin/env python3
"""Turn the Markdown tables a benchmark prints into a JSON results file, cell for cell.

GatewayBenchmark (benchmarks/gateway-bench.sh) and KeyServerLoad print their results as Markdown, not JSON. This
copies every table of such an output verbatim (cells stay strings, so nothing is rounded or retyped), with the
heading above it, and keeps the output's other lines (machine, options, verdicts) as "text", so that plot.py reads
figures that can be traced to the run's own output.

Usage: tables_to_json.py OUTPUT.md|OUTPUT.txt RESULT.json [--command "..."] [--note "..."]
"""
import argparse
import json
import re
import sys


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def parse(text):
    header, tables, section, lines = [], [], None, text.splitlines()
    i = 0
    while i < len(lines):
        line = re.sub(r"\x1b\[[0-9;]*m", "", lines[i])
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        elif line.startswith("|") and i + 1 < len(lines) and re.match(r"^\|[-:| ]+\|\s*$", lines[i + 1]):
            columns, rows = cells(line), []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(cells(lines[i]))
                i += 1
            tables.append({"section": section, "columns": columns, "rows": rows})
            continue
        elif line.strip() and not line.startswith("SLF4J"):
            header.append(line.strip())
        i += 1
    return header, tables


def main():
    p = argparse.ArgumentParser()
    p.add_argument("output")
    p.add_argument("result")
    p.add_argument("--command", default="")
    p.add_argument("--note", default="")
    a = p.parse_args()
    with open(a.output, encoding="utf-8") as f:
        header, tables = parse(f.read())
    if not tables:
        sys.exit(f"no Markdown table in {a.output}")
    doc = {"source": a.output, "command": a.command, "note": a.note, "text": header, "tables": tables}
    with open(a.result, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
