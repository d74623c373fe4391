#!/usr/bin/env python3
"""Markdown tables and a plot of the application experiments
(experiments/apps/wolff.yaml, lee.yaml; docs/apps.md, "Experiments").

    scripts/apps_report.py RESULTS.csv [--fraction F] [--widths] [--plot OUT.png]

Reads the results.csv of one run of such an experiment (axes
workload.scheme, network.cm5-fattree.nodes, workload.N, workload.w and,
for Lee, workload.fraction) and prints on stdout:
  - the best width of every scheme: per (P, N) one column a scheme, the
    cell "time ms (w)" at the w with the least time_ms;
  - speedup and efficiency at each scheme's best width;
  - AM-NC-O at its best width: site active messages a processor sends a
    cycle to each side, and expansion cycles a run;
  - with --widths, every scheme's time by width (one table a scheme).
--fraction keeps the rows of one blocked fraction (Lee). --plot writes the
speedup at the best width against N, one line a scheme and P, with
gnuplot (OUT.dat and OUT.gp beside OUT.png; the text of the csv never
reaches gnuplot as a command: scripts/bcast_report.py's safe_label).
Also warns (stderr) about any run whose `exact` is not 1.

Pure Python 3.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bcast_report as br  # noqa: E402  (load, num, safe_label, gp_text, run_gnuplot)

SCHEMES = ['am_nc_o', 'st_nc_o', 'ssr_c_no', 'amp_c_no', 'asr_c_o']
TITLES = {'am_nc_o': 'AM-NC-O', 'st_nc_o': 'ST-NC-O', 'ssr_c_no': 'SSR-C-NO',
          'amp_c_no': 'AMP-C-NO', 'asr_c_o': 'ASR-C-O'}
P_KEY = 'network.cm5-fattree.nodes'


def group(rows):
    """{(P, N): {scheme: {w: row}}} and the schemes in their order."""
    g, schemes = {}, []
    for r in rows:
        s = r.get('workload.scheme') or 'am_nc_o'
        if s not in schemes:
            schemes.append(s)
        key = (int(br.num(r.get(P_KEY)) or br.num(r.get('nodes')) or 0),
               int(br.num(r.get('workload.N')) or 0))
        w = int(br.num(r.get('workload.w')) or 0)
        g.setdefault(key, {}).setdefault(s, {})[w] = r
        if (r.get('exact') or '').strip() != '1':
            print('apps_report: run %s (%s P=%d N=%d w=%d) is not exact' %
                  (r.get('run'), s, key[0], key[1], w), file=sys.stderr)
    order = sorted(schemes, key=lambda s: SCHEMES.index(s) if s in SCHEMES else 99)
    return g, order


def best(ws):
    """(w, row) of the least time_ms."""
    cands = [(br.num(r.get('time_ms')), w, r) for w, r in ws.items()
             if br.num(r.get('time_ms')) is not None]
    if not cands:
        return None, None
    t, w, r = min(cands, key=lambda c: (c[0], c[1]))
    return w, r


def fmt(v, nd=1):
    return '' if v is None else '{:,.{}f}'.format(v, nd).replace(',', ' ')


def report(rows, widths, out):
    g, schemes = group(rows)
    keys = sorted(g)
    out.write('Best width of every scheme: time of a run, ms (w)\n\n')
    out.write('| P | N | ' + ' | '.join(TITLES.get(s, s) for s in schemes) + ' |\n')
    out.write('|---:|---:|' + '---:|' * len(schemes) + '\n')
    for k in keys:
        cells = []
        ts = {s: best(g[k].get(s, {})) for s in schemes}
        tmin = min((br.num(r['time_ms']) for w, r in ts.values() if r), default=None)
        for s in schemes:
            w, r = ts[s]
            if r is None:
                cells.append('')
                continue
            t = br.num(r['time_ms'])
            c = '%s (%d)' % (fmt(t), w)
            cells.append('**%s**' % c if t == tmin else c)
        out.write('| %d | %d | %s |\n' % (k[0], k[1], ' | '.join(cells)))
    out.write('\nSpeedup / efficiency at the best width\n\n')
    out.write('| P | N | sequential, ms | ' + ' | '.join(TITLES.get(s, s) for s in schemes) +
              ' |\n')
    out.write('|---:|---:|---:|' + '---:|' * len(schemes) + '\n')
    for k in keys:
        cells, seq = [], None
        for s in schemes:
            w, r = best(g[k].get(s, {}))
            if r is None:
                cells.append('')
                continue
            seq = br.num(r.get('seq_ms'))
            cells.append('%s / %s' % (fmt(br.num(r.get('speedup')), 2),
                                      fmt(br.num(r.get('efficiency')), 2)))
        out.write('| %d | %d | %s | %s |\n' % (k[0], k[1], fmt(seq), ' | '.join(cells)))
    if 'am_nc_o' in schemes:
        out.write('\nAM-NC-O at its best width\n\n')
        out.write('| P | N | w | site AMs a cycle to each side | expansion cycles |\n')
        out.write('|---:|---:|---:|---:|---:|\n')
        for k in keys:
            w, r = best(g[k].get('am_nc_o', {}))
            if r is not None:
                out.write('| %d | %d | %d | %s | %s |\n' % (
                    k[0], k[1], w, fmt(br.num(r.get('ams_per_side')), 2),
                    fmt(br.num(r.get('exp_cycles')))))
    if widths:
        allw = sorted({w for k in keys for s in g[k] for w in g[k][s]})
        for s in schemes:
            out.write('\n%s: time by width, ms\n\n' % TITLES.get(s, s))
            out.write('| P | N | ' + ' | '.join('w = %d' % w for w in allw) + ' |\n')
            out.write('|---:|---:|' + '---:|' * len(allw) + '\n')
            for k in keys:
                ws = g[k].get(s, {})
                bw, _ = best(ws)
                cells = []
                for w in allw:
                    t = br.num(ws[w].get('time_ms')) if w in ws else None
                    c = fmt(t)
                    cells.append('**%s**' % c if w == bw and c else c)
                out.write('| %d | %d | %s |\n' % (k[0], k[1], ' | '.join(cells)))
    return g, schemes


def plot(path, g, schemes, title):
    outdir, fname = os.path.split(path)
    base = fname[:-4] if fname.endswith('.png') else fname
    if outdir:
        os.makedirs(outdir, exist_ok=True)
    Ps = sorted({k[0] for k in g}, reverse=True)
    Ns = sorted({k[1] for k in g})
    cols = [(P, s) for P in Ps for s in schemes]
    with open(os.path.join(outdir, base + '.dat'), 'w') as f:
        f.write('# N ' + ' '.join('P%d_%s' % (P, br.safe_label(s)) for P, s in cols) + '\n')
        for N in Ns:
            vals = []
            for P, s in cols:
                w, r = best(g.get((P, N), {}).get(s, {}))
                v = br.num(r.get('speedup')) if r is not None else None
                vals.append('?' if v is None else repr(v))
            f.write('%d %s\n' % (N, ' '.join(vals)))
    body = ['set key outside right top', 'set xtics (%s)' % ', '.join('%d' % N for N in Ns),
            'set xrange [%g:%g]' % (Ns[0] / 1.25, Ns[-1] * 1.25), 'set yrange [0:*]',
            'plot ' + ', \\\n     '.join(
                "'%s.dat' using 1:%d with linespoints lw 2 lc %d pt %d%s title '%s P=%d'"
                % (base, i + 2, schemes.index(s) + 1, br.POINT_TYPES[schemes.index(s)],
                   ' dt 2' if P != Ps[0] else '', br.safe_label(TITLES.get(s, s)), P)
                for i, (P, s) in enumerate(cols))]
    with open(os.path.join(outdir, base + '.gp'), 'w') as f:
        f.write(br.gp_text(base, br.safe_label(title), 'N', 'speedup at the best w', True,
                           False, body))
    br.run_gnuplot(outdir, base)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('csv')
    ap.add_argument('--fraction', help='only the rows of this blocked fraction (lee)')
    ap.add_argument('--widths', action='store_true', help="every scheme's time by width")
    ap.add_argument('--plot', metavar='OUT.png')
    ap.add_argument('--title', default='speedup at the best stripe width')
    a = ap.parse_args()
    try:
        rows, _ = br.load(a.csv)
    except (OSError, ValueError) as e:
        print('apps_report: %s' % e, file=sys.stderr)
        return 2
    if a.fraction is not None:
        rows = [r for r in rows if br.same(r.get('workload.fraction'), a.fraction)]
    if not rows:
        print('apps_report: no rows', file=sys.stderr)
        return 2
    g, schemes = report(rows, a.widths, sys.stdout)
    if a.plot:
        plot(a.plot, g, schemes, a.title)
    return 0


if __name__ == '__main__':
    sys.exit(main())
