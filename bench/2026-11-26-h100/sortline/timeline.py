# The last whole sort in each cl_trace file (tools/cl_trace.c): each command's device time
# and the gap before it.  python3 timeline.py trace_*.txt
import sys
for f in sys.argv[1:]:
    rows = [l.split() for l in open(f)]
    rows = [(w, int(g), int(s), int(e)) for w, g, s, e in rows]
    h = max(i for i, r in enumerate(rows) if r[0] == 'sort_histogram')
    first = h
    while first > 0 and rows[first - 1][0] in ('fill', 'copy'):
        first -= 1
    seq = [r for r in rows[first:] if r[0] in ('fill', 'copy') or r[0].startswith('sort_')]
    passes = sum(1 for r in seq if r[0] == 'sort_onesweep')
    seq = seq[:seq.index(next(r for r in seq if r[0] == 'sort_histogram_scan')) + 1 + passes]
    print('==', f.split('/')[-1])
    prev = None
    for w, g, s, e in seq:
        gap = (s - prev) / 1e3 if prev else 0
        print(f'  {w:22s} global {g:>11d}  {(e - s) / 1e3:9.1f} us  gap before {gap:7.1f} us')
        prev = e
    print(f'  whole: {(seq[-1][3] - seq[0][2]) / 1e3:.1f} us')
