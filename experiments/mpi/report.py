#!/usr/bin/env python3
"""experiments/mpi/report.py — the table and plot of docs/capture.md,
"Results": the predicted time (time_us) of every example capture replayed
on the four presets, read from results/mpi-NAME-MACHINE/results.csv
(experiments/mpi/replay.sh). Prints the Markdown table; with --plot PNG
also writes a gnuplot plot (predicted time per machine and rank count).

    python3 experiments/mpi/report.py [--plot docs/img/mpi_replay.png]
"""
import csv
import os
import subprocess
import sys
import tempfile

NAMES = ["stencil2d", "cg", "transpose", "master_worker"]
MACHINES = ["cm5", "paragon", "hypercube", "t3d"]


def load():
    rows = {}
    for n in NAMES:
        for m in MACHINES:
            path = "results/mpi-%s-%s/results.csv" % (n, m)
            if not os.path.exists(path):
                sys.exit("report.py: %s is missing (run experiments/mpi/replay.sh)" % path)
            with open(path, newline="") as f:
                for r in csv.DictReader(f):
                    p = int(r["ranks"])
                    rows[(n, p, m)] = float(r["time_us"])
    return rows


def main():
    rows = load()
    print("| program | ranks | " + " | ".join(MACHINES) + " |")
    print("|---|---:|" + "---:|" * len(MACHINES))
    keys = sorted({(n, p) for (n, p, _) in rows}, key=lambda k: (NAMES.index(k[0]), k[1]))
    for n, p in keys:
        print("| %s | %d | %s |" % (n, p, " | ".join("%.2f" % (rows[(n, p, m)] / 1000.0) for m in MACHINES)))
    if len(sys.argv) == 3 and sys.argv[1] == "--plot":
        with tempfile.TemporaryDirectory() as d:
            dat = os.path.join(d, "p.dat")
            with open(dat, "w") as f:
                for n, p in keys:
                    f.write('"%s %d" %s\n' % (n, p, " ".join("%g" % (rows[(n, p, m)] / 1000.0) for m in MACHINES)))
            gp = ("set terminal pngcairo noenhanced size 900,450\nset output '%s'\n"
                  "set style data histograms\nset style histogram clustered gap 1\n"
                  "set style fill solid 0.8 border -1\nset logscale y\nset ylabel 'predicted time (ms)'\n"
                  "set xtics rotate by -30\nset key top left\nset title 'MPI examples replayed on four presets'\n"
                  "plot '%s' using 2:xtic(1) title 'cm5', '' using 3 title 'paragon', "
                  "'' using 4 title 'hypercube', '' using 5 title 't3d'\n") % (sys.argv[2], dat)
            subprocess.run(["gnuplot"], input=gp.encode(), check=True)


if __name__ == "__main__":
    main()
