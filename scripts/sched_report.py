#!/usr/bin/env python3
"""Summary tables and plots of the scheduling experiments
(experiments/scheduling/cm5_*.yaml; docs/scheduling-results.md).

    scripts/sched_report.py -o DIR results.csv [results2.csv ...]
    scripts/sched_report.py --selftest

Reads the results.csv of one or more runs of those experiments and writes
into DIR:

  summary.md      per (case, size, scheduler): the number of matrices
                  (seeds), the mean, min and max of comm_ms, and the means
                  of schedule_ms and of total_ms for one use
                  (schedule_ms + comm_ms); per (case, size): the best
                  scheduler when the schedule is used once (lowest mean
                  total_ms) and when it is reused many times (lowest mean
                  comm_ms), and how many uses make the second beat the first.
  FAMILY_CASE_comm.{dat,gp,png}   cost against size, log-log, one curve per
  FAMILY_CASE_total.{dat,gp,png}  scheduler, the best at each size circled
                                  and named (the PNGs when gnuplot is on
                                  the PATH).

A case is a value of d (generated matrices) or a COM file (the airfoil
meshes); the size is workload.msg_unit. The family (uniform, nonuniform,
com) comes from results.json next to the csv (the generator of each run);
without it every row is of the family 'results'. Files split only to keep
their seeds apart (cm5_uniform.yaml, cm5_uniform_large.yaml, ...) merge
when given together. A zipped axis such as workload.d+workload.msg_unit is
split into its keys.

Safety: text from the csv never reaches gnuplot as a command. Numbers are
parsed as numbers; a scheduler name must match [a-z_0-9]+ (a row with any
other is skipped, with a warning); case labels are reduced to
[A-Za-z0-9_.=-]; the data go to .dat files, and the scripts quote only
those fixed strings, in single quotes (gnuplot expands backquotes inside
double quotes). Standard library only.
"""
import argparse
import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

SCHED_RE = re.compile(r'[a-z_0-9]+\Z')
LABEL_BAD = re.compile(r'[^A-Za-z0-9_.=-]')
# the order of curves and table rows; other valid names follow, sorted
SCHED_ORDER = ['ac', 'lp', 'gm', 'cgm', 'rs_n', 'rs_nh', 'drs_n']
# gnuplot point types of the curves; 6 (open circle) marks the best
POINT_TYPES = [1, 2, 3, 4, 5, 8, 10, 12, 14]
FAMILY_OF_GEN = {'random-regular': 'uniform', 'random-nonuniform': 'nonuniform'}


def warn(msg):
    print('sched_report: ' + msg, file=sys.stderr)


def safe_label(text):
    """A string safe in a file name and in a single-quoted gnuplot string."""
    s = LABEL_BAD.sub('_', text)[:60]
    return s or '_'


def mesh_label(path):
    base = os.path.basename(path)
    for suf in ('.gz', '.mtx', '.com32'):
        if base.endswith(suf):
            base = base[:-len(suf)]
    return safe_label(base)


def num(text):
    """A finite float, or None for an empty or unparsable cell."""
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def split_zipped(row):
    """Columns 'a+b' holding '[x, y]' become columns a and b."""
    out = dict(row)
    for key, val in row.items():
        if key is None or '+' not in key:
            continue
        keys = key.split('+')
        vals = [v.strip().strip('"\'') for v in (val or '').strip().strip('[]').split(',')]
        if len(vals) == len(keys):
            for k, v in zip(keys, vals):
                out.setdefault(k, v)
    return out


def families_from_json(csv_path):
    """run number -> family name, from results.json beside the csv; {} if none."""
    jpath = os.path.join(os.path.dirname(csv_path) or '.', 'results.json')
    try:
        with open(jpath) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return {}
    fam = {}
    for r in doc.get('runs', []) if isinstance(doc, dict) else []:
        try:
            w = r['config']['workload']
            fam[str(r['run'])] = 'com' if w.get('com') else FAMILY_OF_GEN.get(w.get('gen'), 'results')
        except (KeyError, TypeError):
            continue
    return fam


def load(paths):
    """Rows as dicts: family, case (sort key, label), size, sched, seed, comm,
    sched_ms. Rows that cannot be used are skipped with a warning."""
    rows, skipped, nosize = [], 0, 0
    for path in paths:
        fam = families_from_json(path)
        with open(path, newline='') as f:
            for raw in csv.DictReader(f):
                r = split_zipped(raw)
                sched = (r.get('workload.scheduler') or '').strip()
                if not SCHED_RE.match(sched):
                    skipped += 1
                    continue
                size = num(r.get('workload.msg_unit'))
                if size is None or size <= 0:
                    nosize += 1
                    continue
                d = num(r.get('workload.d'))
                com = r.get('workload.com')
                if d is not None and d == int(d):
                    case = ((0, int(d), ''), 'd%d' % int(d))
                elif com:
                    case = ((1, 0, mesh_label(com)), mesh_label(com))
                else:
                    case = ((2, 0, ''), 'all')
                rows.append({
                    'family': fam.get((r.get('run') or '').strip(), 'results'),
                    'case': case, 'size': int(size) if size == int(size) else size,
                    'sched': sched, 'seed': (r.get('seed') or '').strip(),
                    'comm': num(r.get('comm_ms')), 'sched_ms': num(r.get('schedule_ms')),
                })
    if skipped:
        warn('%d row(s) skipped: the scheduler name is not [a-z_0-9]+' % skipped)
    if nosize:
        warn('%d row(s) skipped: no positive workload.msg_unit (the sweep needs that axis)' % nosize)
    return rows


def mean(xs):
    return sum(xs) / len(xs) if xs else None


def aggregate(rows):
    """{(family, case, size, sched): stats} with n, comm mean/min/max, schedule
    and total (one use) means. A run without comm_ms (simulate: false) does
    not count; a run without schedule_ms (no cpu_mhz) counts as 0 and is
    flagged."""
    groups, seen, dups = {}, set(), 0
    for r in rows:
        key = (r['family'], r['case'], r['size'], r['sched'])
        if (key, r['seed']) in seen:
            dups += 1
        seen.add((key, r['seed']))
        groups.setdefault(key, []).append(r)
    if dups:
        warn('%d run(s) repeat a (point, seed) already read: all are averaged' % dups)
    stats = {}
    for key, rs in groups.items():
        comm = [r['comm'] for r in rs if r['comm'] is not None]
        if not comm:
            continue
        sms = [r['sched_ms'] if r['sched_ms'] is not None else 0.0
               for r in rs if r['comm'] is not None]
        stats[key] = {
            'n': len(comm), 'comm': mean(comm), 'comm_min': min(comm), 'comm_max': max(comm),
            'sched': mean(sms), 'total': mean([s + c for s, c in zip(sms, comm)]),
            'no_sched_ms': any(r['sched_ms'] is None for r in rs),
        }
    return stats


def sched_sort(names):
    known = [s for s in SCHED_ORDER if s in names]
    return known + sorted(n for n in names if n not in SCHED_ORDER)


def fmt(v):
    if v is None:
        return ''
    if v == 0:
        return '0'
    return '%.4g' % v


def best(stats, fam, case, size, scheds, what):
    cands = [(stats[(fam, case, size, s)][what], s) for s in scheds if (fam, case, size, s) in stats]
    return min(cands) if cands else (None, None)


def breakeven(stats, fam, case, size, once, reuse):
    """Uses k from which the reuse-best beats the once-best:
    S_r / k + C_r < S_o / k + C_o  <=>  k > (S_r - S_o) / (C_o - C_r)."""
    if once == reuse or once is None or reuse is None:
        return '-'
    o, r = stats[(fam, case, size, once)], stats[(fam, case, size, reuse)]
    if o['comm'] <= r['comm']:
        return '-'
    return str(math.floor((r['sched'] - o['sched']) / (o['comm'] - r['comm'])) + 1)


def structure(stats):
    """{family: {case: (sizes, scheds)}} in sorted order."""
    out = {}
    for fam, case, size, sched in stats:
        sz, sc = out.setdefault(fam, {}).setdefault(case, (set(), set()))
        sz.add(size)
        sc.add(sched)
    return {f: {c: (sorted(sz), sched_sort(sc)) for c, (sz, sc) in sorted(cs.items())}
            for f, cs in sorted(out.items())}


def write_summary(stats, outdir):
    lines = ['# Scheduling results: summary', '',
             'Times in ms, over the matrices (seeds) of each point. comm: the communication '
             '(makespan); schedule: computing the schedule on one node processor (0 for ac '
             'and drs_n); total (once): schedule + comm, the schedule used once. '
             'Size: workload.msg_unit in bytes (non-uniform: each message 1..32 units of it). '
             'Best once: lowest mean total; best reused: lowest mean comm, the limit of many '
             'uses; uses: from how many uses of one schedule the reused-best beats the once-best.', '']
    flagged = any(s['no_sched_ms'] for s in stats.values())
    if flagged:
        lines += ['Some runs had no schedule_ms (a machine without cpu_mhz): counted as 0.', '']
    for fam, cases in structure(stats).items():
        lines += ['## %s' % fam, '']
        for (ckey, clabel), (sizes, scheds) in cases.items():
            case = (ckey, clabel)
            lines += ['### %s %s' % (fam, clabel), '',
                      '| size | scheduler | n | comm mean | comm min | comm max | schedule mean | total (once) mean |',
                      '|---:|---|---:|---:|---:|---:|---:|---:|']
            for size in sizes:
                for s in scheds:
                    st = stats.get((fam, case, size, s))
                    if st:
                        lines.append('| %s | %s | %d | %s | %s | %s | %s | %s |' % (
                            size, s, st['n'], fmt(st['comm']), fmt(st['comm_min']),
                            fmt(st['comm_max']), fmt(st['sched']), fmt(st['total'])))
            lines += ['', '| size | best once | total (once) | best reused | comm | uses |',
                      '|---:|---|---:|---|---:|---:|']
            for size in sizes:
                tv, ts = best(stats, fam, case, size, scheds, 'total')
                cv, cs = best(stats, fam, case, size, scheds, 'comm')
                lines.append('| %s | %s | %s | %s | %s | %s |' % (
                    size, ts, fmt(tv), cs, fmt(cv), breakeven(stats, fam, case, size, ts, cs)))
            lines.append('')
    with open(os.path.join(outdir, 'summary.md'), 'w') as f:
        f.write('\n'.join(lines))


def write_plots(stats, outdir, run_gnuplot):
    """One .dat, .gp (and .png) per (family, case, metric). Returns the .gp names."""
    gp = shutil.which('gnuplot') if run_gnuplot else None
    if run_gnuplot and not gp:
        warn('gnuplot not on the PATH: scripts written, no PNGs')
    scripts = []
    for fam, cases in structure(stats).items():
        for (ckey, clabel), (sizes, scheds) in cases.items():
            case = (ckey, clabel)
            for metric, ylabel in (('comm', 'comm_ms (schedule reused)'),
                                   ('total', 'total_ms = schedule_ms + comm_ms (used once)')):
                base = '%s_%s_%s' % (safe_label(fam), safe_label(clabel), metric)
                # columns: size, one per scheduler ('?' = no data), best value, best column
                with open(os.path.join(outdir, base + '.dat'), 'w') as f:
                    f.write('# size ' + ' '.join(scheds) + ' best_value best_index\n')
                    for size in sizes:
                        vals = [stats.get((fam, case, size, s), {}).get(metric) for s in scheds]
                        bv, bs = best(stats, fam, case, size, scheds, metric)
                        f.write('%s %s %s %d\n' % (
                            repr(float(size)), ' '.join('?' if v is None else repr(v) for v in vals),
                            '?' if bv is None else repr(bv), scheds.index(bs) if bs else -1))
                assert all(SCHED_RE.match(s) for s in scheds)
                nb = len(scheds) + 2  # column of the best value
                plots = ["'%s.dat' using 1:%d with linespoints lw 2 pt %d title '%s'"
                         % (base, i + 2, POINT_TYPES[i % len(POINT_TYPES)], s)
                         for i, s in enumerate(scheds)]
                plots.append("'%s.dat' using 1:%d with points pt 6 ps 3 lc rgb 'black' "
                             "title 'best at this size'" % (base, nb))
                for i, s in enumerate(scheds):
                    plots.append("'%s.dat' using 1:($%d == %d ? $%d : NaN):('%s') with labels "
                                 "offset 0,1.6 font ',8' notitle" % (base, nb + 1, i, nb, s))
                text = '\n'.join([
                    '# written by scripts/sched_report.py; data in %s.dat' % base,
                    "set terminal pngcairo size 900,600 noenhanced",
                    "set output '%s.png'" % base,
                    "set datafile missing '?'",
                    "set title '%s %s: %s'" % (safe_label(fam), safe_label(clabel), metric),
                    "set xlabel 'msg_unit (bytes)'",
                    "set ylabel '%s'" % ylabel,
                    'set logscale xy', 'set grid', 'set key left top',
                    'plot ' + ', \\\n     '.join(plots), ''])
                with open(os.path.join(outdir, base + '.gp'), 'w') as f:
                    f.write(text)
                scripts.append(base + '.gp')
                if gp:
                    res = subprocess.run([gp, base + '.gp'], cwd=outdir,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                    if res.returncode:
                        warn('gnuplot failed on %s: %s' % (base + '.gp',
                                                           res.stderr.decode(errors='replace')[-300:]))
    return scripts


def report(paths, outdir, run_gnuplot=True):
    os.makedirs(outdir, exist_ok=True)
    stats = aggregate(load(paths))
    if not stats:
        warn('no usable rows (need workload.scheduler, workload.msg_unit and comm_ms)')
        return 1
    write_summary(stats, outdir)
    write_plots(stats, outdir, run_gnuplot)
    return 0


def selftest():
    """A tiny synthetic csv (and results.json), one hostile row included;
    checks the table, the best choices and the scripts' safety."""
    ok = True

    def check(cond, what):
        nonlocal ok
        if not cond:
            ok = False
            print('selftest FAILED: ' + what, file=sys.stderr)

    with tempfile.TemporaryDirectory() as tmp:
        res = os.path.join(tmp, 'res')
        os.makedirs(res)
        pwned = os.path.join(tmp, 'pwned')
        hdr = ['run', 'workload.d+workload.msg_unit', 'workload.scheduler', 'seed',
               'schedule_ms', 'comm_ms', 'total_ms']
        data = [  # d, size, scheduler, seed, schedule_ms, comm_ms
            (4, 16, 'ac', 1, 0, 3.0), (4, 16, 'ac', 2, 0, 5.0),
            (4, 16, 'cgm', 1, 2.0, 1.0), (4, 16, 'cgm', 2, 2.0, 1.0),
            (4, 1024, 'ac', 1, 0, 30.0), (4, 1024, 'ac', 2, 0, 32.0),
            (4, 1024, 'cgm', 1, 2.0, 10.0), (4, 1024, 'cgm', 2, 2.0, 12.0),
        ]
        runs = []
        with open(os.path.join(res, 'results.csv'), 'w', newline='') as f:
            w = csv.writer(f)
            w.writerow(hdr)
            for i, (d, size, s, seed, sm, cm) in enumerate(data):
                w.writerow([i, '[%d, %d]' % (d, size), s, seed, sm, cm, sm + cm])
                runs.append({'run': i, 'config': {'workload': {'gen': 'random-regular', 'com': ''}}})
            # hostile: a scheduler name that would run a command in a double-quoted string
            w.writerow([len(data), '[4, 16]', "x`touch %s`" % pwned, 1, 0, 0.001, 0.001])
            w.writerow([len(data) + 1, "[4, 16]", "x'; system('touch %s'); '" % pwned, 1, 0, 0.001, 0.001])
        with open(os.path.join(res, 'results.json'), 'w') as f:
            json.dump({'runs': runs}, f)
        out = os.path.join(tmp, 'out')
        rc = report([os.path.join(res, 'results.csv')], out)
        check(rc == 0, 'report returned %d' % rc)
        summ = open(os.path.join(out, 'summary.md')).read()
        check('### uniform d4' in summ, 'family from results.json, case d4')
        # ac at 16 B: comm mean 4, min 3, max 5; total once 4
        check('| 16 | ac | 2 | 4 | 3 | 5 | 0 | 4 |' in summ, 'ac row at 16 B')
        check('| 16 | cgm | 2 | 1 | 1 | 1 | 2 | 3 |' in summ, 'cgm row at 16 B')
        # once: cgm total 3 < ac 4; reused: cgm
        check('| 16 | cgm | 3 | cgm | 1 | - |' in summ, 'best at 16 B')
        # 1 KB: ac total 31 < cgm 13? no: cgm 2 + 11 = 13 -> cgm both
        check('| 1024 | cgm | 13 | cgm | 11 | - |' in summ, 'best at 1 KB')
        check('touch' not in summ and 'pwned' not in summ, 'hostile rows dropped')
        for name in os.listdir(out):
            if name.endswith('.gp'):
                text = open(os.path.join(out, name)).read()
                check('`' not in text and '"' not in text and 'system' not in text,
                      'no backquote, double quote or system in ' + name)
        check(os.path.exists(os.path.join(out, 'uniform_d4_comm.gp')), 'comm script')
        check(os.path.exists(os.path.join(out, 'uniform_d4_total.gp')), 'total script')
        if shutil.which('gnuplot'):
            for m in ('comm', 'total'):
                p = os.path.join(out, 'uniform_d4_%s.png' % m)
                check(os.path.exists(p) and os.path.getsize(p) > 0, 'PNG ' + p)
        else:
            print('selftest: gnuplot not on the PATH, PNGs not checked', file=sys.stderr)
        check(not os.path.exists(pwned), 'no command ran')
        # break-even: once-best lp (S 0, C 10) vs reuse-best cgm (S 5, C 8): k > 2.5 -> 3
        st = {('f', 'c', 1, 'lp'): {'sched': 0.0, 'comm': 10.0},
              ('f', 'c', 1, 'cgm'): {'sched': 5.0, 'comm': 8.0}}
        check(breakeven(st, 'f', 'c', 1, 'lp', 'cgm') == '3', 'break-even uses')
    print('selftest: ' + ('ok' if ok else 'FAILED'))
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('-o', '--outdir', help='output directory (created)')
    ap.add_argument('--no-png', action='store_true', help='write the gnuplot scripts, do not run gnuplot')
    ap.add_argument('--selftest', action='store_true', help='check the script on a synthetic csv; exit 0 if all is well')
    ap.add_argument('csv', nargs='*', help='results.csv of the scheduling experiments')
    a = ap.parse_args()
    if a.selftest:
        return selftest()
    if not a.outdir or not a.csv:
        ap.error('need -o DIR and at least one results.csv')
    try:
        return report(a.csv, a.outdir, not a.no_png)
    except OSError as e:
        warn(str(e))
        return 1


if __name__ == '__main__':
    sys.exit(main())
