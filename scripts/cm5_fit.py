#!/usr/bin/env python3
"""scripts/cm5_fit.py — the cm5 preset against the calibration data.

Runs the calibration sections A (one random permutation), B (node
contention) and D (scheduled all-to-many communication) of
shared/calibration/cm5.md on the `cm5` preset, with optional overrides
(key=value, as on mppnet's command line), and prints every measured value
beside the model's, their ratio, and a score (the mean squared log ratio
over A, B and D). This is how the preset's parameters were fitted
(docs/machines.md): change a parameter, rerun, keep what lowers the score
without pushing any row out of its tolerance.

  scripts/cm5_fit.py [--bin build-release/mppnet] [--calib DIR] [--seeds-a N]
                     [--matrices N] [--only A,B,D] [--sizes 16,2048,...] [key=value ...]
"""
import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run(binary, exp, overrides, jobs):
    out = tempfile.mkdtemp(prefix="cm5fit.")
    cmd = [binary, "run", exp, "-q", "-j", str(jobs), "-o", out] + overrides
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode:
        sys.exit("cm5_fit: %s failed:\n%s" % (" ".join(cmd), p.stderr))
    with open(os.path.join(out, "results.csv")) as f:
        rows = list(csv.DictReader(f))
    for name in os.listdir(out):
        path = os.path.join(out, name)
        if os.path.isfile(path):
            os.unlink(path)
    subprocess.run(["rm", "-rf", out])
    return rows


def write_exp(text):
    fd, path = tempfile.mkstemp(prefix="cm5fit.", suffix=".yaml")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "build-release", "mppnet"))
    ap.add_argument("--calib", default=os.path.join(ROOT, "experiments", "calibration"))
    ap.add_argument("--seeds-a", type=int, default=3)
    ap.add_argument("--matrices", type=int, default=2)
    ap.add_argument("--only", default="A,B,D")
    ap.add_argument("--sizes", default="")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--brief", action="store_true", help="ratios only, a line per group")
    ap.add_argument("--markdown", action="store_true",
                    help="the rows as markdown tables (docs/validation.md)")
    ap.add_argument("overrides", nargs="*")
    a = ap.parse_args()
    only = set(a.only.split(","))
    score, count, lines, penalty, outside = 0.0, 0, [], 0.0, 0

    def add(label, model, meas, tol):
        nonlocal score, count, penalty, outside
        r = model / meas
        score += math.log(r) ** 2
        count += 1
        over = abs(math.log(r)) - math.log(1 + tol)
        if over > 0:
            penalty += over ** 2
            outside += 1
        flag = "" if abs(r - 1) <= tol else "  <-- off by more than %d%%" % (tol * 100)
        lines.append("%-28s %10.3f %10.3f %7.3f%s" % (label, meas, model, r, flag))

    if "A" in only:
        perm = list(csv.DictReader(open(os.path.join(a.calib, "cm5_permutation.csv"))))
        seeds = ",".join(str(s) for s in range(1, a.seeds_a + 1))
        sizes = ",".join(r["bytes"] for r in perm)
        exp = write_exp(
            "mppnet: 1\nname: fit-a\nmachine: cm5\nworkload: {type: messages, paradigm: sync, "
            "shape: permutation, pattern: randperm}\nseeds: [%s]\nsweep:\n  workload.bytes: [%s]\n"
            % (seeds, sizes))
        rows = run(a.bin, exp, a.overrides, a.j)
        os.unlink(exp)
        for r in perm:
            ms = [float(x["makespan_ms"]) for x in rows if x["workload.bytes"] == r["bytes"]]
            add("A %6s avg" % r["bytes"], sum(ms) / len(ms), float(r["avg_ms"]), 0.15)
            if a.seeds_a >= 10:
                add("A %6s max" % r["bytes"], max(ms), float(r["max_ms"]), 0.15)
                add("A %6s min" % r["bytes"], min(ms), float(r["min_ms"]), 0.15)
                spread = (max(ms) - min(ms)) / (sum(ms) / len(ms))
                pub = (float(r["max_ms"]) - float(r["min_ms"])) / float(r["avg_ms"])
                lines.append("%-28s %10.3f %10.3f %7.3f%s" % (
                    "A %6s spread" % r["bytes"], pub, spread, spread / pub,
                    "" if spread >= pub / 2 else "  <-- below half the published spread"))
    if "B" in only:
        cont = list(csv.DictReader(open(os.path.join(a.calib, "cm5_contention.csv"))))
        exp = write_exp(
            "mppnet: 1\nname: fit-b\nmachine: cm5\nworkload: {type: messages, paradigm: sync, "
            "shape: gather, receiver: 31}\nsweep:\n  workload.bytes: [256, 4096]\n"
            "  workload.senders: [1, 2, 4, 8, 16, 31]\n")
        rows = run(a.bin, exp, a.overrides, a.j)
        os.unlink(exp)
        for r in cont:
            b, d = r["bytes"], r["d"]
            x = [x for x in rows if x["workload.bytes"] == b and x["workload.senders"] == d][0]
            add("B %4s d=%2s recv" % (b, d), float(x["recv_done_max_ms"]), float(r["recv_ms"]), 0.30)
            add("B %4s d=%2s send ave" % (b, d), float(x["send_done_mean_ms"]),
                float(r["send_avg_ms"]), 0.30)
    if "D" in only:
        sched = list(csv.DictReader(open(os.path.join(a.calib, "cm5_sched.csv"))))
        if a.sizes:
            keep = set(a.sizes.split(","))
            sched = [r for r in sched if r["bytes"] in keep]
        sizes = sorted({int(r["bytes"]) for r in sched})
        seeds = ",".join(str(s) for s in range(1, a.matrices + 1))
        exp = os.path.join(a.calib, "cm5_sched.yaml")
        rows = run(a.bin, exp, ["seeds=[%s]" % seeds,
                                "sweep.workload.msg_unit=[%s]" % ",".join(map(str, sizes))]
                   + a.overrides, a.j)
        for r in sched:
            models = {}
            for alg in ("ac", "lp", "gm", "cgm"):
                ms = [float(x["comm_ms"]) for x in rows if x["workload.d"] == r["d"] and
                      x["workload.msg_unit"] == r["bytes"] and x["workload.scheduler"] == alg]
                m = sum(ms) / len(ms)
                models[alg] = m
                tol = 0.40 if r["d"] == "24" and r["bytes"] == "65536" and alg in ("ac", "lp") else 0.20
                add("D d=%-2s %5s %-3s" % (r["d"], r["bytes"], alg), m, float(r[alg + "_ms"]), tol)
            meas = {alg: float(r[alg + "_ms"]) for alg in models}
            bad = []
            algs = list(models)
            for i in range(4):
                for j in range(4):
                    p, q = algs[i], algs[j]
                    if meas[p] < meas[q] / 1.05 and not models[p] < models[q]:
                        bad.append("%s<%s" % (p, q))
            if bad:
                lines.append("%-28s order wrong: %s" % ("D d=%s %s" % (r["d"], r["bytes"]), " ".join(bad)))
    if a.markdown:
        print("| row | measured ms | emulated ms | error |\n|---|---|---|---|")
        for l in lines:
            f = l.split()
            if "order" in l:
                print("| %s | order wrong: %s | | |" % (" ".join(f[1:3]), " ".join(f[5:])))
                continue
            i = [k for k, x in enumerate(f) if "." in x][0]
            label, meas, model, ratio = " ".join(f[:i]), f[i], f[i + 1], float(f[i + 2])
            if "spread" in label:
                print("| %s (max − min) / avg | %s | %s | ×%.2f |" % (label.replace(" spread", ""),
                                                                     meas, model, ratio))
            else:
                print("| %s | %s | %s | %+.1f%%%s |" % (label, meas, model, 100 * (ratio - 1),
                                                        " **outside**" if "<--" in l else ""))
    elif a.brief:
        groups = {}
        for l in lines:
            f = l.split()
            if "order" in l:
                groups.setdefault("order", []).append(" ".join(f[1:3]) + ":" + f[-1])
                continue
            key = " ".join(f[:2]) if f[0] == "D" else f[0] + ("" if f[0] == "A" else " " + f[1])
            groups.setdefault(key, []).append(f[f.index([x for x in f if "." in x][0]) + 2])
        for k, v in groups.items():
            print("%-10s %s" % (k, " ".join(v)))
    else:
        print("%-28s %10s %10s %7s" % ("row", "measured", "model", "ratio"))
        print("\n".join(lines))
    print("score %.4f over %d values (rms log ratio %.3f); %d outside their tolerance "
          "(penalty %.4f)" % (score, count, math.sqrt(score / max(count, 1)), outside, penalty))


if __name__ == "__main__":
    main()
