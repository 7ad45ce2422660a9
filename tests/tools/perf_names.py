"""Where perf 6.1 names a place otherwise than pmprof, or shows a frame
that is none, for the checks that compare their rows and chains
(compare_report.py, children_counts.py, cg_tree.py, fold_perf_script.py,
top_tables.py). A module, imported: one rule for every check.

PLT stubs: perf 6.1 extends an unsized `_init` to the next symbol before
it adds the callee@plt symbols, so the two overlap over .plt, and which
one perf names depends on the shape of its symbol tree (an executable's
stubs usually come out as `_init`, now and then as the stub). pmprof
names the stub. Whether a sample lands in a stub at all is up to the
timer, so within one DSO `_init` and every `*@plt` name count as one
name, PLT_POOL; report-perf's PLT test checks the stub names themselves
on a recording it makes to sample them.

perf's cut stack: perf's libunwind ends a stack it could not unwind to
its end with a made-up entry at address -1 (the return address 0 it
stepped to, less one): no frame of the program, pmprof shows none. In a
--children report that entry is a row "[unknown] 0xffffffffffffffff" of
no DSO, whose level ([k] or [.]) is that of the first sample perf added
it for: either, by the order of the samples."""
import re

PLT_POOL = '_init/PLT'
PERF_CUT = 'ffffffffffffffff'
PERF_CUT_ROW = re.compile(r'^(\[.\] )?(0x)?%s$' % PERF_CUT)


def is_plt(sym):
    """sym (with or without its "[.] " level) is _init or a PLT stub."""
    name = sym[4:] if re.match(r'^\[.\] ', sym) else sym
    return name == '_init' or name.endswith('@plt')


def plt_pooled(sym):
    """sym, or PLT_POOL (with sym's level) if it is _init or a stub."""
    if not is_plt(sym):
        return sym
    return sym[:4] + PLT_POOL if re.match(r'^\[.\] ', sym) else PLT_POOL


def is_perf_cut(dso, sym):
    """(dso, sym) is perf's made-up cut-stack row, at either level."""
    return dso == '[unknown]' and PERF_CUT_ROW.match(sym) is not None


def is_perf_cut_frame(name):
    """A call-graph frame or a perf script address that is perf's
    made-up cut-stack entry."""
    return PERF_CUT_ROW.match(name) is not None
