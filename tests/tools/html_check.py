#!/usr/bin/env python3
"""Check the DOM of pmprof's HTML report as headless Chromium left it
(--dump-dom), against stacks computed apart.

    html_check.py frames DOM STACKS [ZOOM]
        every drawn frame's value is the sum of the STACKS (folded lines:
        "a;b;c N", perf script's folded or pmprof's) under its path, its
        width that value's share of the view (ZOOM, default "all"), in
        percent; every frame of 0.05% or more under the view is drawn, and
        nothing outside it but its ancestors (at full width)
    html_check.py search DOM REGEX STACKS   (STACKS: the folded stacks)
        exactly the frames whose names match are marked, and the status
        line's matched weight is that of every stack with a match
    html_check.py tip DOM PATH NAME=VALUE...
        the hover box is shown, is PATH's and shows each NAME: VALUE
        (numbers to 0.1%)
    html_check.py counts DOM PATH COLUMN=STACKS...
        the hover box is shown, is PATH's and has, for each COLUMN, the
        line "COLUMN: N (P%), self S": N the STACKS' weight under PATH, P
        its share of all, S that of the stacks ending at PATH
    html_check.py share DOM PATH BASE NEW
        (a differential page) the hover box is PATH's and has the line
        "share B% -> N%": PATH's share of the BASE stacks, then of NEW's
    html_check.py ratio DOM PATH NAME NUM DEN SCALE
        the hover box is PATH's and shows NAME: SCALE * the NUM stacks'
        weight under PATH / the DEN stacks' (to 0.1%)
    html_check.py sorted DOM TABLE COLUMN asc|desc
        the TABLE-th sortable table's rows are in that order of COLUMN
    html_check.py clean DOM
        the page ran (data-ready) and caught no error (#pm-errors empty)
"""
import collections
import decimal
import html.parser
import re
import sys


class Dom(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.frames, self.tables, self.text = [], [], collections.defaultdict(str)
        self.ready, self.tip_shown = False, False
        self.cur_id, self.cell, self.in_tbody = None, None, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get('class', '').split()
        if tag == 'body' and a.get('data-ready') == 'yes':
            self.ready = True
        if 'pm-frame' in cls:
            style = a.get('style', '')
            pct = lambda k: float(re.search(k + r':\s*([-0-9.e]+)%', style).group(1))
            self.frames.append({'path': a['data-path'], 'name': a['data-name'],
                                'value': int(a['data-value']), 'left': pct('left'),
                                'width': pct('width'), 'match': 'pm-match' in cls})
        if tag == 'table' and 'pm-sortable' in cls:
            self.tables.append([])
        if tag == 'tbody' and self.tables:
            self.in_tbody = True
        if tag == 'tr' and self.in_tbody:
            self.tables[-1].append([])
        if tag == 'td' and self.in_tbody:
            self.cell = ''
        if 'id' in a:
            self.cur_id = a['id']
            if a['id'] == 'pm-tip':
                self.tip_shown = 'hidden' not in a

    def handle_endtag(self, tag):
        if tag == 'td' and self.cell is not None:
            self.tables[-1][-1].append(self.cell.strip())
            self.cell = None
        if tag == 'tbody':
            self.in_tbody = False
        if tag in ('div', 'pre', 'span'):
            self.cur_id = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
        if self.cur_id:
            self.text[self.cur_id] += data


def dom(path):
    d = Dom()
    with open(path) as f:
        d.feed(f.read())
    return d


def expected(stacks):
    v = collections.Counter()
    with open(stacks) as f:
        for line in f:
            stack, _, n = line.rstrip('\n').rpartition(' ')
            parts = ['all'] + stack.split(';')
            for i in range(1, len(parts) + 1):
                v[';'.join(parts[:i])] += int(n)
    return v


def fail(msg):
    print(msg)
    return 1


def frames(d, stacks, zoom='all'):
    want = expected(stacks)
    total = want[zoom]
    drawn = {f['path']: f for f in d.frames}
    if not d.frames:
        return fail('no frame drawn')
    for f in d.frames:
        p = f['path']
        if f['value'] != want.get(p):
            return fail(f'{p}: value {f["value"]}, the stacks say {want.get(p)}')
        inside = p == zoom or p.startswith(zoom + ';')
        if not inside and not zoom.startswith(p + ';') and p != 'all':
            return fail(f'{p}: drawn outside the view {zoom}')
        share = 100.0 * f['value'] / total if inside else 100.0
        if abs(f['width'] - share) > 1e-3 * max(share, 1):
            return fail(f'{p}: width {f["width"]}%, wanted {share:.6f}%')
    for p, v in want.items():
        if (p == zoom or p.startswith(zoom + ';')) and 100.0 * v / total >= 0.05 \
                and p not in drawn:
            return fail(f'{p}: {v} of {total}, not drawn')
    print(f'{len(d.frames)} frames, widths proportional to their samples')
    return 0


def search(d, regex, stacks):
    r = re.compile(regex)
    bad = [f['path'] for f in d.frames if bool(r.search(f['name'])) != f['match']]
    if bad:
        return fail(f'marked wrongly: {bad[:5]}')
    marked = {f['path'] for f in d.frames if f['match']}
    # the weight under the outermost matches: every stack with a match,
    # also those whose frames are too narrow to draw
    outer = 0
    with open(stacks) as f:
        for line in f:
            stack, _, n = line.rstrip('\n').rpartition(' ')
            if any(r.search(name) for name in stack.split(';')):
                outer += int(n)
    m = re.search(r'matched (\d+)', d.text['pm-status'])
    if not marked or not m or int(m.group(1)) != outer:
        return fail(f'status {d.text["pm-status"]!r}, the marked frames weigh {outer}')
    print(f'{len(marked)} frames marked, {outer} matched')
    return 0


def tip_of(d, path):
    """The hover box's text if it is shown and PATH's, else None."""
    text = d.text['pm-tip']
    if not d.tip_shown or not text.startswith(path.split(';')[-1] + '\n'):
        print(f'the box is not {path}\'s or hidden: {text[:60]!r}')
        return None
    return text


def tip(d, path, pairs):
    text = tip_of(d, path)
    if text is None:
        return 1
    for kv in pairs:
        name, _, value = kv.rpartition('=')
        m = re.search('^' + re.escape(name) + r': ([-0-9.e]+)', text, re.M)
        if not m or abs(float(m.group(1)) - float(value)) > 1e-3 * abs(float(value)):
            return fail(f'{name}: {m.group(1) if m else "missing"}, wanted {value}')
    print(f'{path}: {", ".join(pairs)}')
    return 0


def counts(d, path, pairs):
    text = tip_of(d, path)
    if text is None:
        return 1
    for kv in pairs:
        name, _, stacks = kv.rpartition('=')
        want, self = expected(stacks), 0
        with open(stacks) as f:
            for line in f:
                stack, _, n = line.rstrip('\n').rpartition(' ')
                if 'all;' + stack == path:
                    self += int(n)
        line = f'{name}: {want[path]} ({fixed2(100.0 * want[path] / want["all"])}%), self {self}'
        if line not in text.split('\n'):
            return fail(f'no line {line!r} in the box: {text!r}')
    print(f'{path}: {", ".join(p.rpartition("=")[0] for p in pairs)} as the stacks say')
    return 0


def fixed2(x):
    """x.toFixed(2): the same double, ties away from zero (not to even)."""
    return decimal.Decimal(x).quantize(decimal.Decimal('0.01'), decimal.ROUND_HALF_UP)


def share(d, path, base, new):
    text = tip_of(d, path)
    if text is None:
        return 1
    b, n = expected(base), expected(new)
    line = f'share {fixed2(100.0 * b[path] / b["all"])}% -> {fixed2(100.0 * n[path] / n["all"])}%'
    if line not in text.split('\n'):
        return fail(f'no line {line!r} in the box: {text!r}')
    print(f'{path}: {line}')
    return 0


def ratio(d, path, name, num, den, scale):
    value = float(scale) * expected(num)[path] / expected(den)[path]
    return tip(d, path, [f'{name}={value!r}'])


def key(cell):
    try:
        return (0, float(cell.rstrip('%')))
    except ValueError:
        return (1, cell)


def sorted_rows(d, table, column, order):
    rows = d.tables[int(table)]
    vals = [key(r[int(column)]) for r in rows]
    want = sorted(vals, reverse=order == 'desc')
    if len(rows) < 2 or vals != want:
        return fail(f'column {column} not {order}: {[v[1] for v in vals][:8]}')
    print(f'{len(rows)} rows by column {column}, {order}')
    return 0


def clean(d):
    if not d.ready:
        return fail('the page script did not finish')
    if d.text['pm-errors'].strip():
        return fail(f'errors: {d.text["pm-errors"]!r}')
    print('ran, no error')
    return 0


def main():
    mode, args = sys.argv[1], sys.argv[2:]
    d = dom(args[0])
    if mode == 'frames':
        return frames(d, *args[1:])
    if mode == 'search':
        return search(d, args[1], args[2])
    if mode == 'tip':
        return tip(d, args[1], args[2:])
    if mode == 'counts':
        return counts(d, args[1], args[2:])
    if mode == 'share':
        return share(d, *args[1:])
    if mode == 'ratio':
        return ratio(d, *args[1:])
    if mode == 'sorted':
        return sorted_rows(d, *args[1:])
    if mode == 'clean':
        return clean(d)
    sys.exit(f'unknown mode {mode}')


if __name__ == '__main__':
    sys.exit(main())
