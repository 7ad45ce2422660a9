#!/usr/bin/env python3
"""Check pmprof's event parser against tests/data/evspec-corpus.txt.

For `perf` lines, run `perf record -vv -e SPEC [OPTS] -o TMP -- true`,
parse the perf_event_attr blocks it prints and compare them with
`pmprof record -e SPEC [OPTS] --dry-run --format json`. Prints one
"ok NAME" / "not ok NAME" / "skip NAME: why" line per corpus line.

Usage: evspec-check.py PMPROF CORPUS SYSFS_TREE TMPDIR
"""
import json
import re
import shlex
import subprocess
import sys

SAMPLE_BITS = ["IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU",
               "PERIOD", "STREAM_ID", "RAW", "BRANCH_STACK", "REGS_USER",
               "STACK_USER", "WEIGHT", "DATA_SRC", "IDENTIFIER", "TRANSACTION",
               "REGS_INTR", "PHYS_ADDR", "AUX", "CGROUP", "DATA_PAGE_SIZE",
               "CODE_PAGE_SIZE", "WEIGHT_STRUCT"]
READ_BITS = ["TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST"]
BRANCH_BITS = ["USER", "KERNEL", "HV", "ANY", "ANY_CALL", "ANY_RETURN",
               "IND_CALL", "ABORT_TX", "IN_TX", "NO_TX", "COND", "CALL_STACK",
               "IND_JUMP", "CALL", "NO_FLAGS", "NO_CYCLES", "TYPE_SAVE",
               "HW_INDEX", "PRIV_SAVE"]

# perf prints some fields under a union name
RENAME = {
    "{ wakeup_events, wakeup_watermark }": "wakeup_events",
    "{ bp_addr, config1 }": "config1",
    "{ bp_len, config2 }": "config2",
}

# The fields compared: every attr field perf prints (absent means 0).
FIELDS = ["type", "size", "config", "config1", "config2", "sample_period",
          "sample_freq", "freq", "sample_type", "read_format",
          "disabled", "inherit", "pinned", "exclusive", "exclude_user",
          "exclude_kernel", "exclude_hv", "exclude_idle", "mmap", "comm",
          "inherit_stat", "enable_on_exec", "task", "watermark",
          "precise_ip", "mmap_data", "sample_id_all", "exclude_host",
          "exclude_guest", "exclude_callchain_kernel",
          "exclude_callchain_user", "mmap2", "comm_exec", "use_clockid",
          "context_switch", "write_backward", "namespaces", "ksymbol",
          "bpf_event", "aux_output", "cgroup", "text_poke", "build_id",
          "inherit_thread", "remove_on_exec", "sigtrap", "wakeup_events",
          "branch_sample_type", "sample_regs_user", "sample_stack_user",
          "clockid", "sample_regs_intr", "aux_watermark", "sample_max_stack",
          "aux_sample_size", "sig_data"]


def bits(text, names):
    v = 0
    for n in text.split("|"):
        n = n.strip()
        if n in names:
            v |= 1 << names.index(n)
        else:
            raise ValueError("unknown bit name " + n)
    return v


def num(text):
    text = text.strip()
    return int(text, 16) if text.startswith("0x") else int(text)


def parse_perf(out):
    """The attrs perf printed, one per event, skipping fallback retries."""
    lines = out.splitlines()
    blocks, cur, after = [], None, []
    for ln in lines:
        if ln.startswith("perf_event_attr:"):
            cur = {}
            blocks.append([cur, []])
            continue
        if cur is not None and ln.startswith("-----"):
            cur = None
            continue
        if cur is not None:
            m = re.match(r"^  (\{[^}]*\}|\S+)\s+(.*)$", ln)
            if m:
                cur[m.group(1)] = m.group(2)
            continue
        if blocks:
            blocks[-1][1].append(ln)
    # a retry after a failed open (exclude bits, a lower precise_ip) is
    # the same event again: keep the first attempt, what perf configured
    def retried(trailer):
        return any("fall back" in t or "decreasing precise_ip" in t for t in trailer)
    attrs, skip_next = [], False
    for raw, trailer in blocks:
        if skip_next:
            skip_next = retried(trailer)
            continue
        if retried(trailer):
            skip_next = True
        a = {f: 0 for f in FIELDS}
        freq = raw.get("freq", "0").strip() == "1"
        for k, v in raw.items():
            k = RENAME.get(k, k)
            if k == "{ sample_period, sample_freq }":
                continue
            if k == "sample_type":
                a[k] = bits(v, SAMPLE_BITS)
            elif k == "read_format":
                a[k] = bits(v, READ_BITS)
            elif k == "branch_sample_type":
                a[k] = bits(v, BRANCH_BITS)
            else:
                try:
                    a[k] = num(v)
                except ValueError:
                    a[k] = v
        per = raw.get("{ sample_period, sample_freq }")
        if per is not None:
            a["sample_freq" if freq else "sample_period"] = num(per)
        attrs.append(a)
    return attrs


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, errors="replace")
    return p.returncode, p.stdout


def perf_attrs_for(spec, opts, tmp, sysfs=None):
    """perf record -vv's attrs for SPEC, against a sysfs tree if given
    (perf reads PMUs under $SYSFS_PATH)."""
    env = None
    if sysfs:
        import os
        env = dict(os.environ, SYSFS_PATH=sysfs)
    p = subprocess.run(["perf", "record", "-vv", "-e", spec] + opts +
                       ["-o", tmp + "/perf.data", "--", "true"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, errors="replace", env=env)
    return p.returncode, p.stdout


def pmprof_json(pmprof, spec, opts, sysfs=None):
    cmd = [pmprof, "record", "-e", spec] + opts + ["--dry-run", "--format", "json"]
    if sysfs:
        cmd += ["--sysfs", sysfs]
    rc, out = run(cmd)
    if rc != 0:
        return None, out
    return json.loads(out), out


def check_expected(evs, expected):
    bad = []
    for item in expected.split():
        key, val = item.split("=", 1)
        idx, field = key.split(".", 1)
        idx = int(idx)
        if idx >= len(evs):
            bad.append("%s: no event %d" % (key, idx))
            continue
        got = evs[idx].get(field)
        if got != num(val):
            bad.append("%s: expected %s, got %s" % (key, val, got))
    return bad


def main():
    pmprof, corpus, tree, tmp = sys.argv[1:5]
    have_perf = run(["sh", "-c", "command -v perf"])[0] == 0
    n = 0
    for line in open(corpus):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        parts = line.split("\t")
        kind, spec = parts[0], parts[1]
        n += 1
        name = "evspec-%d %s %s" % (n, kind, spec)
        base, _, treename = kind.partition("@")
        # "sysfs@NAME": the tree tests/data/sysfs-NAME; plain "sysfs" is Alpha's
        if treename:
            import os
            kind_tree = os.path.join(os.path.dirname(tree), "sysfs-" + treename)
        else:
            kind_tree = tree
        if base == "perf-sysfs":
            kind, sysfs = "perf", kind_tree
        elif base == "perf":
            sysfs = None
        if kind == "perf":
            opts = shlex.split(parts[2]) if len(parts) > 2 else []
            if len(parts) > 2:
                name += " " + parts[2]
            if not have_perf:
                print("skip %s: perf not installed" % name)
                continue
            rc, pout = perf_attrs_for(spec, opts, tmp, sysfs)
            perf_attrs = parse_perf(pout)
            mine, mout = pmprof_json(pmprof, spec, opts, sysfs)
            if not perf_attrs:
                if "event syntax error" in pout and mine is not None:
                    print("not ok %s: perf rejects it, pmprof accepts it" % name)
                else:
                    why = [l for l in pout.splitlines() if l.strip()][:1]
                    print("skip %s: perf printed no attr (%s)" % (name, why[0] if why else rc))
                continue
            if mine is None:
                print("not ok %s: pmprof rejects it: %s" % (name, mout.strip()))
                continue
            diffs = []
            if len(perf_attrs) > len(mine):
                perf_attrs = perf_attrs[:len(mine)]
            for i, pa in enumerate(perf_attrs):
                for f in FIELDS:
                    if pa.get(f, 0) != mine[i].get(f, 0):
                        diffs.append("event %d %s: perf %s, pmprof %s" %
                                     (i, f, pa.get(f, 0), mine[i].get(f, 0)))
            if diffs:
                print("not ok %s" % name)
                for d in diffs:
                    print("#   " + d)
            else:
                note = "" if len(perf_attrs) == len(mine) else \
                    " (perf stopped after %d of %d events)" % (len(perf_attrs), len(mine))
                print("ok %s%s" % (name, note))
        elif base in ("hf", "sysfs"):
            opts = shlex.split(parts[3]) if len(parts) > 3 else []
            mine, mout = pmprof_json(pmprof, spec, opts, kind_tree if base == "sysfs" else None)
            if mine is None:
                print("not ok %s: rejected: %s" % (name, mout.strip()))
                continue
            bad = check_expected(mine, parts[2])
            if bad:
                print("not ok %s" % name)
                for b in bad:
                    print("#   " + b)
            else:
                print("ok %s" % name)
        elif base in ("error", "sysfs-error"):
            opts = shlex.split(parts[3]) if len(parts) > 3 else []
            cmd = [pmprof, "record", "-e", spec] + opts + ["--dry-run"]
            if base == "sysfs-error":
                cmd += ["--sysfs", kind_tree]
            rc, out = run(cmd)
            if rc == 0:
                print("not ok %s: accepted" % name)
            elif parts[2] not in out:
                print("not ok %s: message does not contain %r: %s" %
                      (name, parts[2], out.strip()))
            elif "Segmentation" in out or rc < 0:
                print("not ok %s: crashed" % name)
            else:
                print("ok %s" % name)
        else:
            print("not ok %s: unknown corpus kind" % name)


if __name__ == "__main__":
    main()
