#!/usr/bin/env python3
"""Call-graph trees of `perf report --stdio -g graph,...` text, compared.

    cg_tree.py A.txt B.txt     exit 0 if both have the same rows with the
                               same trees, else print the differences
    cg_tree.py --dump A.txt    print each row's paths
    cg_tree.py --chains A.txt B.txt
                               -g flat or folded text: each row's chains
                               (value and frames) the same, in any order
    cg_tree.py --json A.txt B.json
                               the same with B pmprof's JSON (-g, percent
                               values): rows by DSO and symbol, each
                               node's "callgraph" nested in its parent
    cg_tree.py [--value percent|period|count] --json A.txt B.json
                               -g's values other than percent
    cg_tree.py --ordered [--value V] [--json|--chains] A B
                               stricter: each row's tree the same in
                               order too (siblings, "[...]" remainder
                               lines where they are), chains in order
    cg_tree.py --perf-inline ALIASES caller|callee LIMIT [--json] A.txt B
                               A is perf's --inline report (-g graph,
                               LIMIT, that order): its artifacts
                               normalized first (tests/tools/perf_inline.py)
    cg_tree.py --text A.txt B.txt
                               strictest: each row's lines under it the
                               same, character for character (pipes,
                               separator lines), but for blanks at line
                               ends and empty lines

Both files are the text report of a call-graph view (perf's or pmprof's):
a row line ("  12.34%  ...  dso  [.] name", known by its first
share, DSO and symbol), then its graph: branch lines
"|--VALUE--name" whose marker column tells the depth, continuation lines
(a frame of the same chain), "---name" for a row's single chain. Each
row's tree becomes its paths: the tuple of frame names from the top to
each node, with the value of the branch it is on (None on the row's own
single chain, whose value is the row's). Trees are compared as such sets
of (path, value): the same paths with the same counts, whatever the
order children are printed in; --ordered compares them as nested lists
(each branch's value, its frames and its branches in the order printed),
and a difference shows as the first path where the two part.
"""
import collections
import os
import re
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import perf_names  # noqa: E402

ROW = re.compile(r'^\s+-?[0-9.]+%')
ROW_KEY = re.compile(r'^\s*(?P<pct>-?[0-9.]+%).*?(?P<dso>\S+)\s+(?P<sym>\[.\] .*)$')
BRANCH = re.compile(r'^(?P<pre>[ |]*?)(?P<mark>[ |])--(?P<val>[0-9][0-9.e+]*%?)--(?P<name>.*)$')
SINGLE = re.compile(r'^(?P<pre> *)---(?P<name>.*)$')
CONT = re.compile(r'^(?P<pre>[ |]*)(?P<name>[^ |].*)$')
STEP = 11
# perf's made-up entry at address -1 that ends a stack it could not
# unwind to its end (perf_names.py), as a call-graph line names it
PERF_CUT = '0x' + perf_names.PERF_CUT


class Node:
    def __init__(self, col, value):
        self.col = col          # where its frames and its branches sit
        self.value = value
        self.frames = []
        self.kids = []


SPLIT_ROWS = False	# --perf-inline: perf's rows of one name, kept apart


def parse(path):
    """{row line: [Node]} for every row that has a graph."""
    rows, order = {}, []
    stack, row = None, None
    for raw in open(path, encoding='utf-8', errors='replace'):
        line = raw.rstrip('\n').rstrip()
        if line.startswith('#'):
            continue
        if ROW.match(line) and '--' not in line.split('%')[0]:
            m = ROW_KEY.match(line)
            # the first share, the DSO and the symbol: the columns
            # between them differ between perf and pmprof
            row = ('%s %s %s' % (m.group('pct'), m.group('dso'), m.group('sym'))
                   if m else ' '.join(line.split()))
            if SPLIT_ROWS and row in rows:
                row += '\0%d' % len(order)
            root = Node(None, None)
            rows[row] = root
            order.append(row)
            stack = [root]
            continue
        if stack is None or not line.strip() or not line.strip(' |'):
            continue
        m = SINGLE.match(line)
        if m and len(stack) == 1:
            root = stack[0]
            root.col = len(m.group('pre'))
            n = Node(root.col + 3, None)
            n.frames.append(m.group('name'))
            root.kids.append(n)
            stack.append(n)
            continue
        m = BRANCH.match(line)
        if m:
            col = len(m.group('pre'))
            if stack[0].col is None:
                stack[0].col = col
            while len(stack) > 1 and stack[-1].col != col:
                stack.pop()
            n = Node(col + STEP, m.group('val'))
            n.frames.append(m.group('name'))
            stack[-1].kids.append(n)
            stack.append(n)
            continue
        m = CONT.match(line)
        if m and len(stack) > 1:
            col = len(m.group('pre'))
            while len(stack) > 1 and stack[-1].col != col:
                stack.pop()
            if len(stack) > 1:
                stack[-1].frames.append(m.group('name'))
                continue
        raise SystemExit('%s: cannot read call-graph line: %r' % (path, line))
    return rows, order


def frame(name):
    # perf 6.1 marks its fractal remainder "[...]" with the " (inlined)"
    # of whatever symbol it printed before (a stale flag): the same node
    if name.startswith('[...]'):
        return '[...]'
    return name


def walk(node, prefix, value, cut):
    """(path, value, whether perf's cut frame began its branch) of every
    node's every frame under node."""
    out = []
    for k in node.kids:
        p, c = prefix, cut or (k.frames[:1] == [PERF_CUT])
        v = k.value if k.value is not None else value
        for f in k.frames:
            if f == PERF_CUT:
                continue
            p = p + (frame(f),)
            out.append((p, v, c))
        out += walk(k, p, v, c)
    return out


def number(v):
    return float(v[:-1]) if v.endswith('%') else int(v)


def paths(node):
    """A tree's (path, value) set. Where perf's made-up cut frame ends a
    stack, it is the stack's outermost entry: in caller order it begins
    a branch of its own beside the one the stack's frames would be on
    without it. Left out, that branch's values add to the other's where
    their paths meet: such a path's value is ('~', sum, parts) (a sum of
    values each rounded)."""
    got = walk(node, (), None, False)
    out = set((p, v) for p, v, c in got if not c)
    cut = collections.defaultdict(list)
    for p, v, c in got:
        if c:
            cut[p].append(v)
    if not cut:
        return out
    have = {p: v for p, v in out}
    for p, vs in cut.items():
        if p in have:
            out.discard((p, have[p]))
            vs = vs + [have[p]]
        if len(vs) == 1 or None in vs:
            out.add((p, vs[0]))
        else:
            out.add((p, ('~', sum(number(v) for v in vs), len(vs))))
    return out


def close(a, b):
    """A summed value against a value shown: each of the parts and the
    value shown rounded to the hundredth (percent) or exact."""
    if isinstance(b, tuple):
        a, b = b, a
    if not isinstance(a, tuple) or b is None or isinstance(b, tuple):
        return False
    if not b.endswith('%'):
        return a[1] == number(b)
    return abs(a[1] - number(b)) <= 0.005 * (a[2] + 1) + 1e-9


def differ(pa, pb):
    """The (path, value) pairs of pa and of pb the other has not, a summed
    value matching a close one on the same path."""
    only_a, only_b = pa - pb, pb - pa
    ob = {p: v for p, v in only_b}
    for p, v in list(only_a):
        if p in ob and close(v, ob[p]):
            only_a.discard((p, v))
            only_b.discard((p, ob[p]))
    return only_a, only_b


def nested(node):
    """The branches under node in order: (value, frames, branches) each,
    perf's made-up cut frame left out."""
    out = []
    for k in node.kids:
        frames = tuple(frame(f) for f in k.frames if f != PERF_CUT)
        out.append((k.value, frames, nested(k)))
    return out


def first_difference(a, b, at=()):
    """Where two nested() lists part: (path, what A has, what B has)."""
    for i in range(max(len(a), len(b))):
        if i >= len(a) or i >= len(b):
            extra = (b if i >= len(a) else a)[i]
            where = at + extra[1][:1]
            return (where, extra[:2] if i < len(a) else None,
                    extra[:2] if i < len(b) else None)
        if a[i][:2] != b[i][:2]:
            return at + a[i][1][:1], a[i][:2], b[i][:2]
        d = first_difference(a[i][2], b[i][2], at + a[i][1])
        if d:
            return d
    return None


def bare(row):
    """A text row's key as DSO and symbol, without perf's "[.] " level."""
    parts = row.split(' ', 1)[1] if ' ' in row else row
    return re.sub(r'\[.\] ', '', parts, count=1)


def weight(n):
    return n.get('children_period', n.get('period'))


VALUE = 'percent'


def share(n):
    """A JSON node's branch value as text shows it (-g's percent, period
    or count: VALUE)."""
    if VALUE == 'count':
        return '%d' % n['samples']
    if VALUE == 'period':
        return '%d' % n['period']
    pct = n['children'] if isinstance(n.get('children'), (int, float)) else n['overhead']
    return '%.2f%%' % pct


def parse_json(path):
    """The rows' trees of pmprof's JSON as parse() reads text: a node's
    line of frames goes on through an only child as heavy as it; a row's
    only node as heavy as the row is its single chain (no value)."""
    import json
    doc = json.load(open(path))
    rows, order = {}, []
    for ev in doc.get('events', [doc]):
        for r in ev['rows']:
            key = '%s %s' % (r['dso'], r['symbol'])
            if SPLIT_ROWS and key in rows:
                key += '\0%d' % len(order)
            root = Node(None, None)
            rows[key] = root
            order.append(key)

            def line(parent, n, value):
                node = Node(None, value)
                parent.kids.append(node)
                while True:
                    if bool(n.get('remainder')) != (n['symbol'] == '[...]'):
                        raise SystemExit('%s: row %s: "remainder" %s on %s'
                                         % (path, key, n.get('remainder'), n['symbol']))
                    node.frames.append(n['symbol'])
                    kids = n.get('callgraph', [])
                    if len(kids) == 1 and weight(kids[0]) == weight(n):
                        n = kids[0]
                        continue
                    for k in kids:
                        line(node, k, share(k))
                    return

            kids = r.get('callgraph', [])
            if len(kids) == 1 and weight(kids[0]) == weight(r):
                line(root, kids[0], None)
            else:
                for k in kids:
                    line(root, k, share(k))
    return rows, order


def parse_chains(path):
    """{row: sorted chains} of a flat or folded report: a flat chain is
    its value line and its frame lines, a folded one its line."""
    rows, row, cur = {}, None, None
    for raw in open(path, encoding='utf-8', errors='replace'):
        line = raw.rstrip()
        if line.startswith('#'):
            continue
        m = ROW_KEY.match(line)
        if m and re.match(r'^\s+-?[0-9.]+%\s+\S', line) and '  ' in line.strip():
            row = '%s %s' % (m.group('dso'), m.group('sym'))
            rows[row] = []
            cur = None
            continue
        if row is None or not line:
            cur = None
            continue
        if re.match(r'^\s*[0-9][0-9.e+]*%?( |$)', line):	# a chain's value
            cur = [line.strip()]
            rows[row].append(cur)
        elif cur is not None:
            cur.append(line.strip())
        else:
            raise SystemExit('%s: cannot read chain line: %r' % (path, line))
    return rows


def row_lines(path):
    """{row: [its graph lines]}: rows known as parse() knows them."""
    rows, row = {}, None
    for raw in open(path, encoding='utf-8', errors='replace'):
        line = raw.rstrip()
        if line.startswith('#'):
            continue
        if ROW.match(line) and '--' not in line.split('%')[0]:
            # its keys: the words after the numbers (perf's and pmprof's
            # columns of numbers differ)
            words = line.split()
            while words and re.match(r'^-?[0-9.]+%?$', words[0]):
                words.pop(0)
            row = ' '.join(words)
            rows[row] = []
        elif row is not None and line:
            # perf 6.1 names the remainder with a flag it never set
            rows[row].append(re.sub(r'\[\.\.\.\] \(inlined\)$', '[...]', line))
    return rows


def main(argv):
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if argv[1:2] == ['--text']:
        a, b = row_lines(argv[2]), row_lines(argv[3])
        bad = [r for r in a if a[r] != b.get(r)] + [r for r in b if r not in a]
        for r in bad[:3]:
            import difflib
            print('row %s:' % r)
            print('\n'.join(difflib.unified_diff(a.get(r, []), b.get(r, []),
                                                argv[2], argv[3], lineterm='')))
        if not any(a.values()):
            print('no call graphs in %s' % argv[2])
            return 1
        return 1 if bad else 0
    global VALUE, SPLIT_ROWS
    if argv[1:2] == ['--perf-inline']:
        return perf_inline(argv[2:])
    ordered = argv[1:2] == ['--ordered']
    if ordered:
        argv = argv[:1] + argv[2:]
    if argv[1:2] == ['--value']:
        VALUE = argv[2]
        argv = argv[:1] + argv[3:]
    if argv[1:2] == ['--dump']:
        rows, order = parse(argv[2])
        for r in order:
            print(r)
            for p, v in sorted(paths(rows[r]), key=lambda x: x[0]):
                print('   %s  %s' % (v, ' > '.join(p)))
        return 0
    if argv[1:2] == ['--chains']:
        a, b = parse_chains(argv[2]), parse_chains(argv[3])
        for rows in (a, b):
            for r, v in rows.items():
                v = [' | '.join(c) for c in v]
                rows[r] = v if ordered else sorted(v)
        bad = [r for r in sorted(set(a) | set(b)) if a.get(r) != b.get(r)]
        for r in bad[:10]:
            print('row %s:\n   %s: %s\n   %s: %s' % (r, argv[2], a.get(r), argv[3], b.get(r)))
        if not any(a.values()):
            print('no chains in %s' % argv[2])
            return 1
        return 1 if bad else 0
    if argv[1:2] == ['--json']:
        argv = argv[1:]
        a, order_a = parse(argv[1])
        a = {bare(k): v for k, v in a.items()}
        order_a = [bare(k) for k in order_a]
        b, order_b = parse_json(argv[2])
        # rows the graph view leaves bare are no difference
        a = {k: v for k, v in a.items() if v.kids}
        b = {k: v for k, v in b.items() if v.kids}
    else:
        a, order_a = parse(argv[1])
        b, order_b = parse(argv[2])
    for rows in (a, b):
        for r in [r for r in rows if r.endswith(' ' + PERF_CUT)]:
            del rows[r]
    bad = 0
    if sorted(a) != sorted(b):
        for r in sorted(set(a) ^ set(b)):
            print('row only in %s: %s' % (argv[1] if r in a else argv[2], r))
            bad += 1
    for r in order_a:
        if r not in b:
            continue
        if ordered:
            d = first_difference(nested(a[r]), nested(b[r]))
            if d:
                bad += 1
                print('row %s: at %s:\n   %s: %s\n   %s: %s'
                      % (r, ' > '.join(d[0]), argv[1], d[1], argv[2], d[2]))
            continue
        only_a, only_b = differ(paths(a[r]), paths(b[r]))
        if only_a or only_b:
            bad += 1
            print('row %s:' % r)
            for p, v in sorted(only_a, key=lambda x: x[0])[:10]:
                print('   only in %s: %s %s' % (argv[1], v, ' > '.join(p)))
            for p, v in sorted(only_b, key=lambda x: x[0])[:10]:
                print('   only in %s: %s %s' % (argv[2], v, ' > '.join(p)))
    if not a:
        print('no rows with call graphs in %s' % argv[1])
        return 1
    return 1 if bad else 0


def perf_inline(argv):
    """--perf-inline ALIASES caller|callee LIMIT [--json] A B: perf's
    --inline report A against pmprof's B (text or JSON), perf's
    artifacts normalized (perf_inline.py)."""
    global SPLIT_ROWS
    import perf_inline as pi
    aliases, callee, limit = argv[0], argv[1] == 'callee', float(argv[2])
    argv = argv[3:]
    json_b = argv[:1] == ['--json']
    if json_b:
        argv = argv[1:]
    SPLIT_ROWS = True
    a, _ = parse(argv[0])
    b, _ = parse_json(argv[1]) if json_b else parse(argv[1])
    SPLIT_ROWS = False
    for rows in (a, b):
        for r in [r for r in rows if r.split('\0')[0].endswith(' ' + PERF_CUT)]:
            del rows[r]
    canon = pi.load_aliases(aliases, pi.names(a, paths), pi.names(b, paths, not json_b))
    bad = pi.compare(a, b, canon, paths, argv[0], argv[1], callee, limit, not json_b)
    for line in bad[:40]:
        print(line)
    if not a:
        print('no rows with call graphs in %s' % argv[0])
        return 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
