# Written by `mppnet plot`: draws routing-adaptive-torus-tornado.png from routing-adaptive-torus-tornado.dat; run it with gnuplot in this directory.
# Data: one block per curve (index 0, 1, ...): x y saturated rows.
if (!exists("outfile")) outfile = 'routing-adaptive-torus-tornado.png'
datafile = 'routing-adaptive-torus-tornado.dat'
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 900,600 noenhanced
} else {
    set terminal png size 900,600 noenhanced
}
set output outfile
set title '8x8 torus, tornado: latency against offered load'
set xlabel 'workload.rate'
set ylabel 'latency_mean'
set logscale y
set grid
set key top left
plot \
    datafile index 0 using 1:2 with linespoints lc 1 pt 7 ps 1 title 'network.router=ecube', \
    datafile index 0 using 1:($3 > 0 ? $2 : NaN) with points lc 1 pt 6 ps 2.5 notitle, \
    datafile index 1 using 1:2 with linespoints lc 2 pt 7 ps 1 title 'network.router=adaptive', \
    datafile index 1 using 1:($3 > 0 ? $2 : NaN) with points lc 2 pt 6 ps 2.5 notitle, \
    datafile index 2 using 1:2 with linespoints lc 3 pt 7 ps 1 title 'network.router=valiant', \
    datafile index 2 using 1:($3 > 0 ? $2 : NaN) with points lc 3 pt 6 ps 2.5 notitle, \
    datafile index 3 using 1:2 with linespoints lc 4 pt 7 ps 1 title 'network.router=misroute', \
    datafile index 3 using 1:($3 > 0 ? $2 : NaN) with points lc 4 pt 6 ps 2.5 notitle, \
    NaN with points lc rgb "black" pt 6 ps 2.5 title "saturated"
