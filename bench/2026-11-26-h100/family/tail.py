# The last N commands of a cl_trace file (tools/cl_trace.c): device time and gap before each.
#   python3 tail.py trace.txt [N]
import sys
rows = [l.split() for l in open(sys.argv[1])]
rows = [(w, int(g), int(s), int(e)) for w, g, s, e in rows]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 16
prev = None
for w, g, s, e in rows[-n:]:
    print(f'  {w:24s} global {g:>11d}  {(e - s) / 1e3:9.1f} us  gap before {(s - prev) / 1e3 if prev else 0:8.1f} us')
    prev = e
