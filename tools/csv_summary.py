#!/usr/bin/env python3
"""Summarize a CSV file: row count and per-column statistics.

Protocol: arguments as JSON on stdin, result as JSON on stdout, errors on stderr with exit code 2.
"""
import csv
import json
import os
import statistics
import sys


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(2)


def to_number(text):
    try:
        return float(text)
    except ValueError:
        return None


def summarize_column(name, values):
    present = [value for value in values if value.strip() != ""]
    numbers = [to_number(value) for value in present]
    summary = {"name": name, "count": len(present), "missing": len(values) - len(present)}
    if present and all(number is not None for number in numbers):
        summary.update(
            type="number",
            min=min(numbers),
            max=max(numbers),
            mean=round(statistics.fmean(numbers), 6),
            median=statistics.median(numbers),
            sum=round(sum(numbers), 6),
        )
    else:
        counts = {}
        for value in present:
            counts[value] = counts.get(value, 0) + 1
        top = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:5]
        summary.update(type="text", unique=len(counts), top=[{"value": value, "count": count} for value, count in top])
    return summary


def main():
    args = json.load(sys.stdin)
    root = os.path.realpath(os.environ.get("TOOLEXEC_ROOT", os.getcwd()))
    path = os.path.realpath(os.path.join(root, args["path"]))
    if os.path.commonpath([root, path]) != root:
        fail(f"path must stay inside the project: {args['path']}")
    if not os.path.isfile(path):
        fail(f"no such file: {args['path']}")
    max_rows = args.get("maxRows", 1_000_000)
    with open(path, newline="", encoding="utf-8-sig") as handle:
        reader = csv.reader(handle, delimiter=args.get("delimiter", ","))
        header = next(reader, None)
        if header is None:
            fail(f"empty file: {args['path']}")
        wanted = args.get("columns") or header
        unknown = [column for column in wanted if column not in header]
        if unknown:
            fail(f"unknown columns {unknown}; the file has {header}")
        indexes = [header.index(column) for column in wanted]
        columns = {column: [] for column in wanted}
        rows = 0
        for row in reader:
            if rows >= max_rows:
                break
            rows += 1
            for column, index in zip(wanted, indexes):
                columns[column].append(row[index] if index < len(row) else "")
    json.dump({"path": args["path"], "rows": rows, "columns": [summarize_column(name, values) for name, values in columns.items()]}, sys.stdout)


if __name__ == "__main__":
    main()
