"""perf 6.1's --inline trees and rows against pmprof's, perf's
artifacts normalized (docs/pmprof-report.1, --inline): for cg_tree.py
--perf-inline. The third, addr2line's order-dependent names, is undone
before perf runs (addr2line_twice.py).

- Assembly has no DWARF functions: addr2line names its address after one
  of the symbol's aliases, and perf marks the frame inlined when that
  alias is not the name it gave the symbol (__memcpy_avx512_unaligned_erms
  (inlined) for __memmove_avx512_unaligned_erms). ALIASES lists the
  symbol tables ("FILE ADDRESS NAME" lines): where perf shows one name
  of an address inlined and pmprof does not, the names at that address
  are one on both sides, without " (inlined)". perf's row for the
  symbol's own name then holds only its self samples, its alias row all
  of them as children: they are one row (merge_alias()).
- perf looks its rows up in an order that compares inlined symbols by
  name and others by address: the same function (even the same frame at
  the same address) can land in two rows of one name. pmprof's rows of
  a name are perf's, some of them split in parts: shares and tree values
  summed, equal to within 0.01 per part added (each was rounded to the
  hundredth), a path under -g's limit in a part missing from it.
"""
import re

INL = ' (inlined)'


def names(rows, paths_of, keyed_by_share=True):
    """Every symbol name in rows ({key: tree}): rows' and frames'."""
    out = set()
    for key, tree in rows.items():
        key = key.split('\0')[0]
        m = re.match(r'^\S+ (?:\[.\] )?(.*)$',
                     row_parts(key)[1] if keyed_by_share else key)
        out.add(m.group(1) if m else key)
        for p, _ in paths_of(tree):
            out.update(p)
    return out


def load_aliases(path, perf_names, pmprof_names):
    """{name: the name every alias of it becomes} for names that share
    an address with another in one file, where perf shows one of them
    inlined and pmprof does not (where both do, DWARF named it so)."""
    at = {}
    for line in open(path, encoding='utf-8', errors='replace'):
        f = line.split()
        if len(f) == 3:
            at.setdefault((f[0], f[1]), set()).add(f[2])
    canon = {}
    for group in at.values():
        if len(group) > 1 and any(n + INL in perf_names and n + INL not in pmprof_names
                                  for n in group):
            first = min(group)
            for n in group:
                canon[n] = first
    return canon


def rename(name, canon):
    base = name[:-len(INL)] if name.endswith(INL) else name
    return canon.get(base, name)


def row_parts(key):
    """'12.34% dso [.] sym' -> (share, 'dso [.] sym')."""
    pct, rest = key.split(' ', 1)
    return float(pct.rstrip('%')), rest


def renamed_key(rest, canon):
    m = re.match(r'^(\S+) (?:\[.\] )?(.*)$', rest)
    return '%s %s' % (m.group(1), rename(m.group(2), canon)) if m else rest


def numeric(paths, share):
    """{path: value} of a tree's (path, value) set; a row's single chain
    (no value) has the row's share."""
    out = {}
    for p, v in paths:
        out[p] = out.get(p, 0.0) + (share if v is None else float(str(v).rstrip('%')))
    return out


def rename_paths(paths, canon):
    return {(tuple(rename(f, canon) for f in p), v) for p, v in paths}


def rows_by_name(rows, canon, paths_of, keyed_by_share=True):
    """{'dso sym' renamed: [(share, an alias row?, renamed paths)]}"""
    out = {}
    for key, tree in rows.items():
        key = key.split('\0')[0]
        pct, rest = row_parts(key) if keyed_by_share else (None, key)
        m = re.match(r'^\S+ (?:\[.\] )?(.*)$', rest)
        name = m.group(1) if m else rest
        alias = name.endswith(INL) and rename(name, canon) != name
        out.setdefault(renamed_key(rest, canon), []).append(
            (pct, alias, rename_paths(paths_of(tree), canon)))
    return out


def compare(a, b, canon, paths_of, name_a, name_b, callee, limit, b_shares=True):
    """Differences (lines) between perf's rows a and pmprof's rows b
    ({key: tree} each, a's duplicate keys kept apart)."""
    ga = rows_by_name(a, canon, paths_of)
    gb = rows_by_name(b, canon, paths_of, b_shares)
    bad = []
    for rest in sorted(set(ga) | set(gb)):
        pa, pb = ga.get(rest, []), gb.get(rest, [])
        if not b_shares and not any(p[2] for p in pa + pb):
            continue	# rows JSON's nested nodes leave bare: no difference
        if not pa or not pb:
            bad.append('row only in %s: %s' % (name_a if pa else name_b, rest))
            continue
        items, tol0 = [], 0.0
        if any(p[1] for p in pa) and not all(p[1] for p in pa):
            share, vals = merge_alias(pa, callee, limit)
            items.append((share, vals, False))
            tol0 = 0.01
        else:
            items = [(p[0], p[2], True) for p in pa]
        if len(items) == 1 and len(pb) == 1 and items[0][2]:
            if items[0][1] != pb[0][2] or (b_shares and items[0][0] != pb[0][0]):
                bad.append('row %s:' % rest)
                for p, v in sorted(items[0][1] - pb[0][2])[:5]:
                    bad.append('   only in %s: %s %s' % (name_a, v, ' > '.join(p)))
                for p, v in sorted(pb[0][2] - items[0][1])[:5]:
                    bad.append('   only in %s: %s %s' % (name_b, v, ' > '.join(p)))
            continue
        why = assign(items, pb, tol0, limit, b_shares)
        if why:
            bad.append('row %s (%d in %s, %d in %s): %s'
                       % (rest, len(pa), name_a, len(pb), name_b, why))
    return bad


def merge_alias(parts, callee, limit):
    """perf's self row M and alias row A of one symbol as the one row
    they are: A's children, each sample's chain once. In callee order a
    self sample's chain is its chain through A already (A's tree has
    them all); in caller order M has the self samples' chains, A its
    own frame for them alone (M's share of it goes)."""
    pa, vals = 0.0, {}
    for share, _, ta in (p for p in parts if p[1]):
        pa += share
        for p, v in numeric(ta, share).items():
            vals[p] = vals.get(p, 0.0) + v
    if callee:
        return pa, vals
    own = [p for p in vals if len(p) == 1]
    for pm, _, tm in (p for p in parts if not p[1]):
        for p, v in numeric(tm, pm).items():
            vals[p] = vals.get(p, 0.0) + v
        for p in own:
            vals[p] -= pm
    for p in own:
        if vals[p] < limit - 0.005:
            del vals[p]	# under -g's limit: pmprof shows no such path
    return pa, vals


def assign(items, rows_b, tol0, limit, b_shares):
    """None if perf's rows (items: share, tree, exact) are pmprof's rows
    of one name with some of them split in parts; else what differs."""
    import itertools
    n, m = len(items), len(rows_b)
    best = 'no grouping of %d rows into %d matches' % (n, m)
    if n < m or m ** n > 4096:
        return best
    for pick in itertools.product(range(m), repeat=n):
        if len(set(pick)) != m:
            continue
        for j, (pb, _, tb) in enumerate(rows_b):
            mine = [items[i] for i in range(n) if pick[i] == j]
            tol = tol0 + 0.01 * (len(mine) - 1) + 1e-9
            share = sum(x[0] for x in mine)
            vals = {}
            for x in mine:
                for p, v in (numeric(x[1], x[0]).items() if x[2] else x[1].items()):
                    vals[p] = vals.get(p, 0.0) + v
            if b_shares and abs(share - pb) > tol:
                break
            nb = numeric(tb, pb if b_shares else share)
            diff = None
            for p in set(vals) | set(nb):
                # a path under -g's limit in some parts is not in them
                missing = sum(1 for x in mine if p not in
                              (numeric(x[1], x[0]) if x[2] else x[1]))
                va, vb = vals.get(p, 0.0), nb.get(p)
                if vb is None or not (va - tol <= vb <= va + tol + missing * limit):
                    diff = '%s: %.2f against %s' % (' > '.join(p), va, vb)
                    break
            if diff:
                best = diff
                break
        else:
            return None
    return best
