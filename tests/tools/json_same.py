#!/usr/bin/env python3
"""json_same.py GOT EXPECTED: exit 0 when the two JSON documents are equal
(numbers compared by value, 25 == 25.0), else print the differences."""
import json
import sys


def walk(a, b, path, out):
    num = (int, float)
    if isinstance(a, num) and isinstance(b, num) and not isinstance(a, bool):
        if a != b:
            out.append(f"{path}: {a!r} != {b!r}")
    elif isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}.{k}: only in {'expected' if k in b else 'output'}")
            else:
                walk(a[k], b[k], f"{path}.{k}", out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} items != {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            walk(x, y, f"{path}[{i}]", out)
    elif a != b:
        out.append(f"{path}: {a!r} != {b!r}")


def main():
    with open(sys.argv[1]) as f:
        got = json.load(f)
    with open(sys.argv[2]) as f:
        want = json.load(f)
    out = []
    walk(got, want, "$", out)
    for line in out[:20]:
        print(line)
    sys.exit(1 if out else 0)


if __name__ == "__main__":
    main()
