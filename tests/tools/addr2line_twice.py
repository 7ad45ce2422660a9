#!/usr/bin/env python3
"""addr2line, asked every question twice: for perf's --inline in tests.

binutils' addr2line (2.40) names an inlined function without a linkage
name (a C++ static inline one) after the function it is inlined into
when it is the first address asked about in that function, and right
after that: its answer depends on the order of questions, so perf's
--inline frames do. Put on PATH as "addr2line" (a symlink) in front of
the real one, it passes each address perf writes on as the address,
perf's "," end mark, the address again, and gives perf only the second
answer. Records are two lines (-f); an unknown address and "," are
answered "??" / "??:0".
"""
import os
import subprocess
import sys
import threading

END = ('??', '??:0')


def real_addr2line():
    me = os.path.dirname(os.path.abspath(sys.argv[0]))
    for d in os.environ.get('PATH', '').split(os.pathsep):
        p = os.path.join(d, 'addr2line')
        if d and os.path.abspath(d) != me and os.access(p, os.X_OK):
            return p
    sys.exit('addr2line_twice: no addr2line on PATH')


def main():
    child = subprocess.Popen([real_addr2line()] + sys.argv[1:], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, bufsize=1)

    def pair():
        return (child.stdout.readline().rstrip('\n'),
                child.stdout.readline().rstrip('\n'))

    def answer():
        """One answer's records: up to END, or END alone (unknown)."""
        recs = [pair()]
        if recs[0] == ('', ''):
            return None
        while recs[-1] != END and recs[0] != END:
            recs.append(pair())
        return recs

    def answers():
        # perf asks "ADDR" then ","; the real one is asked ADDR "," ADDR
        # ",": its answers are A1 END A2 END, perf gets A2 END
        while True:
            first = answer()
            if first is None:
                break
            if first[0] == END:
                pair()		# A1 was END itself: then the END in between
            second = answer()
            if second[0] == END:
                second.append(pair())
            sys.stdout.write(''.join('%s\n%s\n' % r for r in second))
            sys.stdout.flush()

    t = threading.Thread(target=answers)
    t.start()
    for line in sys.stdin:
        q = line.strip()
        child.stdin.write('%s\n,\n%s\n' % (q, q) if q != ',' else ',\n')
        child.stdin.flush()
    child.stdin.close()
    t.join()
    return child.wait()


if __name__ == '__main__':
    sys.exit(main())
