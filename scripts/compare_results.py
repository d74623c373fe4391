#!/usr/bin/env python3
"""Compare results.csv (and messages.csv) of two result trees, experiment by
experiment, ignoring the config_hash column (the only column allowed to
change). Prints one line per experiment."""
import csv, os, sys
a, b = sys.argv[1], sys.argv[2]
def load(path):
    with open(path, newline='') as f:
        rows = list(csv.reader(f))
    if not rows: return rows
    h = rows[0]
    drop = [i for i, c in enumerate(h) if c == 'config_hash']
    return [[c for i, c in enumerate(r) if i not in drop] for r in rows]
bad = 0
for name in sorted(os.listdir(a)):
    da, db = os.path.join(a, name), os.path.join(b, name)
    if not os.path.isdir(da): continue
    for f in ('results.csv', 'messages.csv'):
        fa, fb = os.path.join(da, f), os.path.join(db, f)
        if not os.path.exists(fa): continue
        if not os.path.exists(fb):
            print(f"{name}/{f}: MISSING after"); bad += 1; continue
        ra, rb = load(fa), load(fb)
        raw_same = open(fa,'rb').read() == open(fb,'rb').read()
        if ra == rb:
            print(f"{name}/{f}: identical except config_hash ({len(ra)-1} rows{', byte-identical' if raw_same else ''})")
        else:
            bad += 1
            print(f"{name}/{f}: DIFFERS")
            if len(ra) != len(rb): print(f"   rows {len(ra)} vs {len(rb)}")
            else:
                for i,(x,y) in enumerate(zip(ra,rb)):
                    if x != y:
                        hdr = ra[0]
                        diffs = [(hdr[j] if j < len(hdr) else j, x[j] if j < len(x) else None, y[j] if j < len(y) else None) for j in range(max(len(x),len(y))) if (x[j] if j<len(x) else None) != (y[j] if j<len(y) else None)]
                        print(f"   row {i}: {diffs[:6]}"); break
sys.exit(1 if bad else 0)
