#!/usr/bin/env python3
"""scripts/worst_report.py — the tables of experiments/routing/worst.yaml and
worst_butterfly.yaml: for every network and router, the saturation
throughput on each traffic pattern and the pattern where it is least (the
router's worst), and what the network delivers under full load.

Saturation throughput of (network, router, pattern): the highest offered
rate of the sweep below 1.0 such that the run at that rate and every run at
a lower rate are not saturated (`saturated` = false, averaged over seeds:
every seed unsaturated). When no rate of the sweep saturates it is shown as
">= R" (R the highest rate below 1.0). Full load: the mean `accepted` of
the runs at rate 1.0.

    python3 scripts/worst_report.py results/routing-worst/results.csv
    python3 scripts/worst_report.py --selftest

Reads the CSV only; prints Markdown tables on stdout.
"""
import csv
import sys
from collections import defaultdict

NETWORK_COLS = ("network.kary-ncube.torus", "network.topology")


def network_of(row):
    parts = []
    for c in NETWORK_COLS:
        if c in row and row[c] != "":
            v = row[c]
            parts.append({"true": "torus", "false": "mesh"}.get(v, v) if c.endswith("torus") else v)
    if not parts and row.get("nodes"):
        parts.append("%s nodes" % row["nodes"])
    return " ".join(parts) or "network"


def tables(rows):
    """[(network, router, {pattern: (sat_text, sat_value, full)}, worst)]"""
    runs = defaultdict(lambda: defaultdict(list))  # key -> rate -> [(saturated, accepted)]
    order_net, order_rt, order_pat = [], [], []
    for r in rows:
        key = (network_of(r), r["network.router"], r["workload.pattern"])
        for v, o in zip(key, (order_net, order_rt, order_pat)):
            if v not in o:
                o.append(v)
        runs[key][float(r["workload.rate"])].append((r["saturated"] == "true", float(r["accepted"])))
    out = []
    for net in order_net:
        for rt in order_rt:
            cells = {}
            for pat in order_pat:
                by_rate = runs.get((net, rt, pat))
                if not by_rate:
                    continue
                rates = sorted(x for x in by_rate if x < 1.0)
                sat = None
                for x in rates:
                    if any(s for s, _ in by_rate[x]):
                        break
                    sat = x
                full = by_rate.get(1.0)
                full_acc = sum(a for _, a in full) / len(full) if full else float("nan")
                if sat is None:
                    cells[pat] = ("< %g" % rates[0] if rates else "-", 0.0, full_acc)
                elif sat == rates[-1]:
                    cells[pat] = (">= %g" % sat, sat, full_acc)
                else:
                    cells[pat] = ("%g" % sat, sat, full_acc)
            if cells:
                worst = min(cells, key=lambda p: (cells[p][1], order_pat.index(p)))
                out.append((net, rt, cells, worst))
    return out, order_pat


def report(rows, f=sys.stdout):
    out, pats = tables(rows)
    f.write("Saturation throughput (flits/node/cycle); the worst pattern in bold\n\n")
    f.write("| network | router | " + " | ".join(pats) + " | worst |\n")
    f.write("|---|---|" + "---|" * (len(pats) + 1) + "\n")
    for net, rt, cells, worst in out:
        vals = []
        for p in pats:
            t = cells[p][0] if p in cells else ""
            vals.append("**%s**" % t if p == worst else t)
        f.write("| %s | %s | %s | %s |\n" % (net, rt, " | ".join(vals), worst))
    f.write("\nAccepted under full load (offered 1.0)\n\n")
    f.write("| network | router | " + " | ".join(pats) + " |\n")
    f.write("|---|---|" + "---|" * len(pats) + "\n")
    for net, rt, cells, worst in out:
        f.write("| %s | %s | %s |\n" % (net, rt, " | ".join(
            "%.3f" % cells[p][2] if p in cells else "" for p in pats)))


def selftest():
    rows = []
    def add(torus, rt, pat, rate, sat, acc):
        rows.append({"network.kary-ncube.torus": torus, "network.router": rt,
                     "workload.pattern": pat, "workload.rate": str(rate),
                     "saturated": "true" if sat else "false", "accepted": str(acc)})
    for rate in (0.1, 0.2, 0.3, 1.0):
        add("true", "ecube", "uniform", rate, rate > 0.25, min(rate, 0.25))
        add("true", "ecube", "tornado", rate, rate > 0.15, min(rate, 0.1))
        add("true", "valiant", "uniform", rate, False if rate < 1 else True, rate)
    # a saturated run below an unsaturated one: the first saturation counts
    add("true", "valiant", "tornado", 0.1, True, 0.05)
    add("true", "valiant", "tornado", 0.2, False, 0.2)
    out, pats = tables(rows)
    got = {(n, r): (c, w) for n, r, c, w in out}
    c, w = got[("torus", "ecube")]
    assert c["uniform"][0] == "0.2" and c["tornado"][0] == "0.1" and w == "tornado", (c, w)
    assert abs(c["tornado"][2] - 0.1) < 1e-12
    c, w = got[("torus", "valiant")]
    assert c["uniform"][0] == ">= 0.3", c
    assert c["tornado"][0] == "< 0.1" and w == "tornado", (c, w)
    import io
    buf = io.StringIO()
    report(rows, buf)
    assert "| torus | ecube | 0.2 | **0.1** | tornado |" in buf.getvalue(), buf.getvalue()
    print("worst_report selftest: ok")


def main(argv):
    if argv[1:] == ["--selftest"]:
        selftest()
        return 0
    if len(argv) != 2:
        sys.stderr.write("usage: worst_report.py RESULTS.csv | --selftest\n")
        return 2
    try:
        with open(argv[1], newline="") as f:
            rows = list(csv.DictReader(f))
        report(rows)
    except (OSError, KeyError, ValueError) as e:
        sys.stderr.write("worst_report.py: %s: %s\n" % (argv[1], e))
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
