#!/usr/bin/env python3
"""Markdown tables and plots of the s-to-p broadcasting experiments
(experiments/broadcast/*.yaml; docs/broadcast.md, "Experiments") and of
the collective experiments (experiments/collectives/*.yaml, with
--by workload.collective or workload.alg and --value coll_ms;
docs/collectives.md, "Experiments").

    scripts/bcast_report.py RESULTS.csv [--by COL[,COL]] [--value COL] [--where COL=V,V...]
                            [--show COL] [--also COL] [--ratio A,B] [--parts]
                            [--plot OUT.png [--x COL] [--logx] [--logy] [--title T]
                                            [--key 'left top'|'right bottom'|outside]]
    scripts/bcast_report.py --selftest

Reads the results.csv of one run of such an experiment and prints a
markdown table on stdout, times in ms.

Default (a pivot table): one row per point of the sweep axes other than
--by (default workload.algorithm; a zipped axis such as
network.mesh+workload.s is split into its keys), one column per value of
--by in the order of the sweep, the cell the time (--value, default
bcast_ms) in ms with two decimals (a column not ending in _ms, e.g. the
ratio vs_bound, as it is): the mean over the seeds, followed by
[min, max] when the seeds differ (a random distribution). Then the
fastest column of the row. --show COL adds a column (e.g. nodes) with the
row's value of COL, --ratio A,B a column mean(A) / mean(B) (e.g.
repos,br_xy_source). --by A,B takes the columns from several axes at once,
one per combination, titled by the values joined by '/' (e.g.
--by workload.collective,node.ports: binomial/one, ..., msbt/all).
--also COL (repeatable) adds, after the --by columns, the mean of COL for
each --by value, as --value is shown (e.g. bound_ms beside coll_ms); a
column of COL equal in every row to an earlier one is merged into it and
titled by the values it stands for ('bound_ms binomial/one=msbt/one', or
just 'bound_ms' when it stands for all of them). The fastest column looks
at the --by columns only (titled 'lowest' when --value is not a time).

--parts: one row per point and value of --by, with the number of seeds and
the mean of bcast_ms and of its parts part_redist_ms, part_bcast_ms and
part_exchange_ms ('-' when the algorithm has no such part).

--where COL=V1,V2,... keeps the rows whose COL is one of the values
(numbers compare by value); repeatable, every COL must match. Rows keep
the order of the sweep.

--plot OUT.png writes OUT.dat and OUT.gp beside OUT.png and runs gnuplot
(when it is on the PATH) to draw it: with --x COL (an axis or a result
column such as nodes, numeric; sizes such as 16KiB are read in bytes), or
when the rows are the values of one numeric axis, one line per column of
the table against x (the --also columns dashed; --key puts the key),
otherwise a clustered bar chart, one group per row; with --parts, one
stacked bar of the parts per row. The PNG path is printed on stderr.

Safety: text from the csv never reaches gnuplot as a command. Numbers are
parsed as numbers; labels (axis values, algorithm names, the title) are
reduced to [A-Za-z0-9_.,:=+ /-] and written in single-quoted gnuplot
strings (gnuplot expands backquotes only inside double quotes); the data go
to the .dat file. Standard library only.
"""
import argparse
import csv
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

LABEL_BAD = re.compile(r'[^A-Za-z0-9_.,:=+ /-]')
PARTS = ['part_redist_ms', 'part_bcast_ms', 'part_exchange_ms']
POINT_TYPES = [1, 2, 3, 4, 6, 8, 10, 12, 14]
KEYS = {'left top': 'left top', 'right bottom': 'right bottom', 'outside': 'outside right top'}


def warn(msg):
    print('bcast_report: ' + msg, file=sys.stderr)


def safe_label(text):
    """A string safe in a single-quoted gnuplot string and a markdown cell."""
    return LABEL_BAD.sub('_', str(text))[:80] or '_'


def num(text):
    """A finite float, or None for an empty or unparsable cell."""
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


SIZE = re.compile(r'^\s*([0-9]+(?:\.[0-9]*)?)\s*(KiB|MiB|GiB)\s*$')


def xnum(text):
    """num(), and a size such as 16KiB (an axis of bytes) in bytes."""
    m = SIZE.match(str(text or ''))
    if m:
        return float(m.group(1)) * 1024 ** ('KMG'.index(m.group(2)[0]) + 1)
    return num(text)


def short(col):
    """Column title: the last component of a key path."""
    return col.rsplit('.', 1)[-1]


def split_zipped(row, axes):
    """Columns 'a+b' holding '[x, y]' become columns a and b. Returns the
    row and the list of axis names with zipped axes replaced by their keys."""
    out, names = dict(row), []
    for key in axes:
        if '+' not in key:
            names.append(key)
            continue
        keys = key.split('+')
        vals = [v.strip().strip('"\'') for v in (row.get(key) or '').strip().strip('[]').split(',')]
        if len(vals) == len(keys):
            for k, v in zip(keys, vals):
                out[k] = v
            names.extend(keys)
        else:
            names.append(key)
    return out, names


def load(path):
    """(rows, axis names): rows as dicts with zipped axes split; the axis
    names are the columns between 'run' and 'seed' (formats.md)."""
    with open(path, newline='') as f:
        rd = csv.DictReader(f)
        hdr = rd.fieldnames or []
        if 'run' not in hdr or 'seed' not in hdr:
            raise ValueError('%s is not a results.csv (no run or seed column)' % path)
        axes = hdr[hdr.index('run') + 1:hdr.index('seed')]
        rows, names = [], None
        for raw in rd:
            r, n = split_zipped(raw, axes)
            rows.append(r)
            if names is None or len(n) > len(names):
                names = n
    return rows, names or [k for k in axes if '+' not in k]


def same(a, b):
    x, y = num(a), num(b)
    if x is not None and y is not None:
        return x == y
    return (a or '').strip() == (b or '').strip()


def apply_where(rows, where):
    """where: list of 'COL=V1,V2'."""
    for w in where:
        if '=' not in w:
            raise ValueError("--where needs COL=VALUE[,VALUE...], not '%s'" % w)
        col, vals = w.split('=', 1)
        vals = [v.strip() for v in vals.split(',')]
        if rows and col not in rows[0]:
            raise ValueError("--where: no column '%s'" % col)
        rows = [r for r in rows if any(same(r.get(col), v) for v in vals)]
    return rows


def group(rows, keys, by, value):
    """{'order': [row keys in sweep order], 'cols': [by values in order],
    'cells': {(rowkey, col): [values over seeds]}, 'first': {rowkey: row}}.
    by: a list of columns (their values joined by '/'), or None."""
    order, cols, cells, first = [], [], {}, {}
    for r in rows:
        rk = tuple((r.get(k) or '').strip() for k in keys)
        c = '/'.join((r.get(b) or '').strip() for b in by) if by else value
        if rk not in first:
            first[rk] = r
            order.append(rk)
        if c not in cols:
            cols.append(c)
        v = num(r.get(value))
        if v is not None:
            cells.setdefault((rk, c), []).append(v)
    return {'order': order, 'cols': cols, 'cells': cells, 'first': first}


def mean(xs):
    return sum(xs) / len(xs) if xs else None


def fmt(v):
    return '-' if v is None else '%.2f' % v


def fmt_cell(vs):
    if not vs:
        return '-'
    m, lo, hi = mean(vs), min(vs), max(vs)
    if '%.2f' % lo == '%.2f' % hi:
        return fmt(m)
    return '%s [%s, %s]' % (fmt(m), fmt(lo), fmt(hi))


def also_columns(g, also, rows, keys, by):
    """The --also columns: [(title, {rowkey: mean})], a column equal in
    every row to an earlier one of the same COL merged into it."""
    out = []
    for col in also:
        ga = group(rows, keys, by, col)
        merged = []  # [[by values], {rowkey: mean}]
        for c in g['cols']:
            ms = {rk: mean(ga['cells'].get((rk, c), [])) for rk in g['order']}
            for m in merged:
                if m[1] == ms:
                    m[0].append(c)
                    break
            else:
                merged.append([[c], ms])
        for cs, ms in merged:
            whole = len(merged) == 1 or not by
            out.append((col if whole else '%s %s' % (col, '='.join(cs)), ms))
    return out


def pivot_table(rows, axes, by, value, show, ratio, also=()):
    keys = [a for a in axes if a not in (by or [])]
    g = group(rows, keys, by, value)
    cols = g['cols']
    extra = also_columns(g, also, rows, keys, by)
    g['extra'] = extra
    head = [short(k) for k in keys] + [safe_label(s) for s in show] + \
        [safe_label(c) for c in cols] + [safe_label(t) for t, _ in extra]
    if len(cols) > 1:
        head.append('fastest' if value.endswith('_ms') else 'lowest')
    if ratio:
        head.append('%s / %s' % (safe_label(ratio[0]), safe_label(ratio[1])))
    nums = len(show) + len(cols) + len(extra) + (1 if ratio else 0)
    lines = ['| ' + ' | '.join(head) + ' |',
             '|' + '---|' * len(keys) + '---:|' * (nums - (1 if ratio else 0))
             + ('---|' if len(cols) > 1 else '') + ('---:|' if ratio else '')]
    seeds = sorted({(r.get('seed') or '').strip() for r in rows}, key=lambda s: (num(s) or 0, s))
    for rk in g['order']:
        cells = [safe_label(v) for v in rk]
        cells += [safe_label(g['first'][rk].get(s, '')) for s in show]
        means = {}
        for c in cols:
            vs = g['cells'].get((rk, c), [])
            means[c] = mean(vs)
            cells.append(fmt_cell(vs))
        cells += [fmt(ms[rk]) for _, ms in extra]
        if len(cols) > 1:
            have = [(means[c], c) for c in cols if means[c] is not None]
            cells.append(safe_label(min(have)[1]) if have else '-')
        if ratio:
            a, b = means.get(ratio[0]), means.get(ratio[1])
            cells.append('%.2f' % (a / b) if a is not None and b else '-')
        lines.append('| ' + ' | '.join(cells) + ' |')
    note = ', '.join([value] + list(also)) + (' in ms' if value.endswith('_ms') else '')
    if len(seeds) > 1:
        note += ', mean over seeds %s ([min, max] where they differ)' % ', '.join(seeds)
    return lines, note, g, keys


def parts_table(rows, axes, by):
    keys = [a for a in axes if a not in (by or [])]
    gs = {v: group(rows, keys + (by or []), None, v) for v in ['bcast_ms'] + PARTS}
    g = gs['bcast_ms']
    head = [short(k) for k in keys] + [short(b) for b in by or []] + \
        ['n', 'bcast_ms', 'redist', 'bcast part', 'exchange']
    lines = ['| ' + ' | '.join(head) + ' |',
             '|' + '---|' * (len(head) - 5) + '---:|' * 5]
    data = []
    for rk in g['order']:
        vals = [mean(gs[v]['cells'].get((rk, v), [])) for v in ['bcast_ms'] + PARTS]
        n = len(g['cells'].get((rk, 'bcast_ms'), []))
        lines.append('| ' + ' | '.join([safe_label(x) for x in rk] + [str(n)] +
                                       [fmt(v) for v in vals]) + ' |')
        data.append((rk, vals))
    return lines, 'times in ms, means over seeds; the parts add up to bcast_ms', data


def gp_text(base, title, xlabel, ylabel, logx, logy, body):
    return '\n'.join(['# written by scripts/bcast_report.py; data in %s.dat' % base,
                      'set terminal pngcairo size 900,600 noenhanced',
                      "set output '%s.png'" % base,
                      "set datafile missing '?'",
                      "set title '%s'" % safe_label(title),
                      "set xlabel '%s'" % (safe_label(xlabel) if xlabel else ''),
                      "set ylabel '%s'" % safe_label(ylabel),
                      'set grid'] +
                     (['set logscale x'] if logx else []) +
                     (['set logscale y'] if logy else []) + body + [''])


def run_gnuplot(outdir, base):
    gp = shutil.which('gnuplot')
    if not gp:
        warn('gnuplot not on the PATH: %s.gp and %s.dat written, no PNG' % (base, base))
        return
    res = subprocess.run([gp, base + '.gp'], cwd=outdir or '.',
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if res.returncode:
        warn('gnuplot failed on %s.gp: %s' % (base, res.stderr.decode(errors='replace')[-300:]))
    else:
        print('bcast_report: wrote ' + os.path.join(outdir, base + '.png'), file=sys.stderr)


def plot_pivot(out, g, keys, xcol, value, title, logx, logy, key='left top'):
    outdir, fname = os.path.split(out)
    base = fname[:-4] if fname.endswith('.png') else fname
    if outdir:
        os.makedirs(outdir, exist_ok=True)
    extra = g.get('extra', [])
    cols = g['cols'] + [t for t, _ in extra]
    if xcol is None and len(keys) == 1 and all(xnum(rk[0]) is not None for rk in g['order']):
        xcol = keys[0]
    means = [[mean(g['cells'].get((rk, c), [])) for c in g['cols']] + [ms[rk] for _, ms in extra]
             for rk in g['order']]
    with open(os.path.join(outdir, base + '.dat'), 'w') as f:
        f.write('# %s %s\n' % ('x' if xcol else 'label', ' '.join(safe_label(c).replace(' ', '_')
                                                                  for c in cols)))
        for rk, ms in zip(g['order'], means):
            if xcol:
                x = xnum(g['first'][rk].get(xcol))
                first = '?' if x is None else repr(x)
            else:
                first = '"%s"' % safe_label('/'.join(rk)).replace(' ', '_')
            f.write(first + ' ' + ' '.join('?' if v is None else repr(v) for v in ms) + '\n')
    if xcol:
        body = ['set key ' + KEYS[key],
                'plot ' + ', \\\n     '.join(
                    "'%s.dat' using 1:%d with linespoints lw 2 pt %d%s title '%s'"
                    % (base, i + 2, POINT_TYPES[i % len(POINT_TYPES)],
                       ' dt 2' if i >= len(g['cols']) else '', safe_label(c))
                    for i, c in enumerate(cols))]
        xlabel = short(xcol)
    else:
        body = ['set style data histograms', 'set style histogram clustered gap 1',
                'set style fill solid 0.8 border -1', 'set boxwidth 0.9', 'set key left top',
                'set yrange [0:*]', 'set xtics rotate by -30',
                'plot ' + ', \\\n     '.join(
                    "'%s.dat' using %d:xtic(1) title '%s'" % (base, i + 2, safe_label(c))
                    for i, c in enumerate(cols))]
        xlabel = ' / '.join(short(k) for k in keys)
    with open(os.path.join(outdir, base + '.gp'), 'w') as f:
        f.write(gp_text(base, title, xlabel, value + (', ms' if value.endswith('_ms') else ''),
                        logx, logy, body))
    run_gnuplot(outdir, base)


def plot_parts(out, data, title):
    outdir, fname = os.path.split(out)
    base = fname[:-4] if fname.endswith('.png') else fname
    if outdir:
        os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, base + '.dat'), 'w') as f:
        f.write('# label redist bcast exchange\n')
        for rk, vals in data:
            f.write('"%s" %s\n' % (safe_label('/'.join(rk)).replace(' ', '_'),
                                   ' '.join('0' if v is None else repr(v) for v in vals[1:])))
    body = ['set style data histograms', 'set style histogram rowstacked',
            'set style fill solid 0.8 border -1', 'set boxwidth 0.6', 'set key left top',
            'set yrange [0:*]',
            'plot ' + ', \\\n     '.join(
                "'%s.dat' using %d%s title '%s'" % (base, i + 2, ':xtic(1)' if i == 0 else '', t)
                for i, t in enumerate(['redistribution', 'broadcast', 'exchange']))]
    with open(os.path.join(outdir, base + '.gp'), 'w') as f:
        f.write(gp_text(base, title, '', 'ms', False, False, body))
    run_gnuplot(outdir, base)


def report(path, a, out=sys.stdout):
    rows, axes = load(path)
    rows = apply_where(rows, a.where or [])
    if not rows:
        warn('no rows (after --where)')
        return 1
    bys = [b.strip() for b in (a.by or '').split(',') if b.strip()]
    by = bys if bys and all(b in axes for b in bys) else None
    if a.by and not by and a.by != 'workload.algorithm':
        raise ValueError("--by: '%s' is not a sweep axis (axes: %s)" % (a.by, ', '.join(axes)))
    for c in [a.value] + (a.show or []) + (a.also or []) + ([a.x] if a.x else []):
        if c not in rows[0]:
            raise ValueError("no column '%s'" % c)
    ratio = a.ratio.split(',') if a.ratio else None
    if ratio and len(ratio) != 2:
        raise ValueError('--ratio needs A,B')
    if a.parts:
        lines, note, data = parts_table(rows, axes, by)
    else:
        lines, note, g, keys = pivot_table(rows, axes, by, a.value, a.show or [], ratio,
                                           a.also or [])
    out.write('\n'.join(lines) + '\n\n' + note + '\n')
    if a.plot:
        title = a.title or os.path.basename(os.path.dirname(os.path.abspath(path)))
        if a.parts:
            plot_parts(a.plot, data, title)
        else:
            plot_pivot(a.plot, g, keys, a.x, a.value, title, a.logx, a.logy, a.key)
    return 0


def parse(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('csv', nargs='?', help='results.csv of a broadcast experiment')
    ap.add_argument('--by', default='workload.algorithm',
                    help='the axis (or axes A,B) whose values are the columns '
                    '(default workload.algorithm)')
    ap.add_argument('--value', default='bcast_ms', help='the time column (default bcast_ms)')
    ap.add_argument('--where', action='append', metavar='COL=V,V...', help='keep these rows')
    ap.add_argument('--show', action='append', metavar='COL', help='add the value of COL per row')
    ap.add_argument('--also', action='append', metavar='COL',
                    help='add the mean of COL per --by value (e.g. bound_ms), equal columns merged')
    ap.add_argument('--ratio', metavar='A,B', help='add mean(A) / mean(B)')
    ap.add_argument('--parts', action='store_true', help='bcast_ms and its parts, one row per run point')
    ap.add_argument('--plot', metavar='OUT.png', help='draw the table (gnuplot)')
    ap.add_argument('--x', metavar='COL', help='numeric x column of the plot (lines)')
    ap.add_argument('--logx', action='store_true')
    ap.add_argument('--logy', action='store_true')
    ap.add_argument('--title', help='plot title')
    ap.add_argument('--key', choices=sorted(KEYS), default='left top',
                    help='where a line plot puts its key (default left top)')
    ap.add_argument('--selftest', action='store_true',
                    help='check the script on a synthetic csv; exit 0 if all is well')
    return ap, ap.parse_args(argv)


def selftest():
    """A small synthetic results.csv: a zipped axis, two seeds (one point
    with different values), parts, a hostile algorithm name."""
    ok = True

    def check(cond, what):
        nonlocal ok
        if not cond:
            ok = False
            print('selftest FAILED: ' + what, file=sys.stderr)

    import io
    with tempfile.TemporaryDirectory() as tmp:
        pwned = os.path.join(tmp, 'pwned')
        path = os.path.join(tmp, 'results.csv')
        hdr = ['run', 'network.mesh+workload.s', 'workload.algorithm', 'seed', 'nodes',
               'bcast_ms', 'part_redist_ms', 'part_bcast_ms', 'part_exchange_ms']
        data = [  # mesh, s, algorithm, seed, nodes, bcast, redist, bcast part, exchange
            ('4x4', 4, 'br_lin', 1, 16, 2.0, '', 2.0, ''),
            ('4x4', 4, 'br_lin', 2, 16, 2.0, '', 2.0, ''),
            ('4x4', 4, 'repos', 1, 16, 3.0, 1.0, 2.0, ''),
            ('4x4', 4, 'repos', 2, 16, 1.0, 0.5, 0.5, ''),
            ('8x8', 8, 'br_lin', 1, 64, 6.0, '', 6.0, ''),
            ('8x8', 8, 'br_lin', 2, 64, 6.0, '', 6.0, ''),
            ('8x8', 8, 'repos', 1, 64, 3.0, 0.5, 1.5, 1.0),
            ('8x8', 8, 'repos', 2, 64, 3.0, 0.5, 1.5, 1.0),
        ]
        with open(path, 'w', newline='') as f:
            w = csv.writer(f)
            w.writerow(hdr)
            for i, (m, s, alg, seed, n, b, r, bp, e) in enumerate(data):
                w.writerow([i, '[%s, %d]' % (m, s), alg, seed, n, b, r, bp, e])
            w.writerow([len(data), '[8x8, 8]', "x`touch %s`" % pwned, 1, 64, 9.0, '', 9.0, ''])
            w.writerow([len(data) + 1, '[8x8, 8]', "x'; system('touch %s'); '" % pwned, 1, 64,
                        9.0, '', 9.0, ''])

        def run(args):
            _, a = parse([path] + args)
            buf = io.StringIO()
            rc = report(path, a, buf)
            return rc, buf.getvalue()

        rc, text = run(['--where', 'workload.algorithm=br_lin,repos', '--show', 'nodes',
                        '--ratio', 'repos,br_lin', '--plot', os.path.join(tmp, 'img', 'p.png'),
                        '--x', 'nodes', '--title', "t`touch %s`" % pwned])
        check(rc == 0, 'pivot returned %d' % rc)
        check('| mesh | s | nodes | br_lin | repos | fastest | repos / br_lin |' in text,
              'pivot header:\n' + text)
        check('| 4x4 | 4 | 16 | 2.00 | 2.00 [1.00, 3.00] | br_lin | 1.00 |' in text,
              'row 4x4 (mean and range over seeds, tie -> first sorted):\n' + text)
        check('| 8x8 | 8 | 64 | 6.00 | 3.00 | repos | 0.50 |' in text, 'row 8x8:\n' + text)
        check('mean over seeds 1, 2' in text, 'seed note')
        rc, text = run(['--parts', '--where', 'network.mesh=8x8', '--where',
                        'workload.algorithm=repos', '--plot', os.path.join(tmp, 'parts.png')])
        check(rc == 0, 'parts returned %d' % rc)
        check('| 8x8 | 8 | repos | 2 | 3.00 | 0.50 | 1.50 | 1.00 |' in text, 'parts row:\n' + text)
        check(sum(l.startswith('| ') for l in text.splitlines()) == 2, 'one row after --where:\n' + text)
        rc, text = run(['--where', 'workload.algorithm=br_lin,repos', '--by',
                        'workload.algorithm,workload.s', '--also', 'nodes'])
        check('| mesh | br_lin/4 | repos/4 | br_lin/8 | repos/8 | nodes br_lin/4=repos/4 '
              '| nodes br_lin/8=repos/8 | fastest |' in text, '--by A,B --also header:\n' + text)
        check('| 4x4 | 2.00 | 2.00 [1.00, 3.00] | - | - | 16.00 | - | br_lin/4 |' in text,
              '--by A,B --also row:\n' + text)
        rc, text = run(['--where', 'workload.algorithm=br_lin,repos', '--also', 'nodes'])
        check('| 8x8 | 8 | 6.00 | 3.00 | 64.00 | repos |' in text, '--also merged:\n' + text)
        rc, text = run(['--where', 'workload.s=4.0'])
        check('| 4x4 | 4 |' in text and '8x8' not in text, 'numeric --where:\n' + text)
        rc, text = run([])
        check('`' not in text and "'" not in text and 'system(' not in text,
              'hostile names reduced:\n' + text)
        for d in (tmp, os.path.join(tmp, 'img')):
            for name in os.listdir(d):
                if name.endswith('.gp'):
                    t = open(os.path.join(d, name)).read()
                    check('`' not in t and '"' not in t and 'system' not in t,
                          'no backquote, double quote or system in ' + name)
        check(os.path.exists(os.path.join(tmp, 'img', 'p.gp')), 'line plot script')
        check(os.path.exists(os.path.join(tmp, 'parts.gp')), 'parts plot script')
        dat = open(os.path.join(tmp, 'img', 'p.dat')).read().splitlines()
        check(dat[1:] == ['16.0 2.0 2.0', '64.0 6.0 3.0'], 'line plot data: %r' % dat)
        check([xnum(t) for t in ('16KiB', '1.5MiB', '512', 'KiB', '4 KB')] ==
              [16384.0, 1572864.0, 512.0, None, None], 'sizes read as x')
        if shutil.which('gnuplot'):
            for p in (os.path.join(tmp, 'img', 'p.png'), os.path.join(tmp, 'parts.png')):
                check(os.path.exists(p) and os.path.getsize(p) > 0, 'PNG ' + p)
        else:
            print('selftest: gnuplot not on the PATH, PNGs not checked', file=sys.stderr)
        check(not os.path.exists(pwned), 'no command ran')
        try:
            run(['--value', 'nosuch'])
            check(False, 'unknown column accepted')
        except ValueError:
            pass
    print('selftest: ' + ('ok' if ok else 'FAILED'))
    return 0 if ok else 1


def main():
    ap, a = parse(sys.argv[1:])
    if a.selftest:
        return selftest()
    if not a.csv:
        ap.error('need a results.csv')
    try:
        return report(a.csv, a)
    except (OSError, ValueError) as e:
        warn(str(e))
        return 2


if __name__ == '__main__':
    sys.exit(main())
