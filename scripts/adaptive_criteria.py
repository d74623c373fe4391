#!/usr/bin/env python3
"""scripts/adaptive_criteria.py — the comparisons of
experiments/routing/adaptive.yaml (docs/routing.md, "Adaptive and
misrouting routers"), checked on its results.csv:

  1. 8x8 torus, tornado: valiant and misroute saturate clearly above
     dimension order (ecube): at least 15% higher;
  2. 8x8 torus, tornado: minimal adaptive does not (at most 10% higher:
     every minimal route of a tornado packet uses the same channels);
  3. 8x8 mesh, transpose: adaptive saturates clearly above ecube (15%);
  4. uniform traffic on both: adaptive and misroute are within 10% of
     ecube (at least 0.9 x its saturation throughput). Valiant is
     reported, not held to it: its routes are twice as long on average, so
     it saturates near half of ecube by construction.

Saturation throughput as in scripts/worst_report.py: the highest offered
rate of the sweep such that it and every lower rate are unsaturated on
every seed. Prints a line per comparison; exit 0 when all hold, 1 when one
fails, 2 on a bad file.

    python3 scripts/adaptive_criteria.py results/routing-adaptive/results.csv
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from worst_report import tables  # noqa: E402


def sat_table(rows):
    out, _ = tables(rows)
    return {(net, rt, pat): cells[pat][1] for net, rt, cells, _ in out for pat in cells}


def check(rows, f=sys.stdout):
    s = sat_table(rows)
    fails = 0

    def cmp(net, pat, rt, op, factor, what):
        nonlocal fails
        a, b = s.get((net, rt, pat)), s.get((net, "ecube", pat))
        if a is None or b is None:
            f.write("FAIL: %s %s: no runs of %s or ecube\n" % (net, pat, rt))
            fails += 1
            return
        ok = a >= factor * b if op == ">=" else a <= factor * b
        fails += not ok
        f.write("%s: %s %s: %s %.3g vs ecube %.3g (%s %.2f x ecube): %s\n" % (
            "ok" if ok else "FAIL", net, pat, rt, a, b, op, factor, what))

    cmp("kary-ncube", "tornado", "valiant", ">=", 1.15, "clearly above")
    cmp("kary-ncube", "tornado", "misroute", ">=", 1.15, "clearly above")
    cmp("kary-ncube", "tornado", "adaptive", "<=", 1.10, "not clearly above")
    cmp("mesh", "transpose", "adaptive", ">=", 1.15, "clearly above")
    for net in ("kary-ncube", "mesh"):
        for rt in ("adaptive", "misroute"):
            cmp(net, "uniform", rt, ">=", 0.90, "within 10%")
        v, e = s.get((net, "valiant", "uniform")), s.get((net, "ecube", "uniform"))
        if v is not None and e:
            f.write("note: %s uniform: valiant %.3g vs ecube %.3g (%.2f x: twice the path "
                    "length)\n" % (net, v, e, v / e))
    return fails


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: adaptive_criteria.py RESULTS.csv\n")
        return 2
    try:
        with open(argv[1], newline="") as f:
            rows = list(csv.DictReader(f))
        return 1 if check(rows) else 0
    except (OSError, KeyError, ValueError) as e:
        sys.stderr.write("adaptive_criteria.py: %s: %s\n" % (argv[1], e))
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
