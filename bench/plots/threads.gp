# SPDX-License-Identifier: GPL-3.0-or-later
# threads.gp: fastwc throughput by --jobs, one line per mode, with GNU wc (default mode) and the bare read()
# loop as horizontal references. Input threads.dat (bench/studies/scaling.py): a header line, then jobs and
# GB/s per mode. Variables: title, ncols (modes), gnu_rate, loop_rate.
set terminal pngcairo size 1000,560 font "DejaVu Sans,11" noenhanced
set output 'threads.png'
set title title
set xlabel "--jobs (counting threads)"
set ylabel "GB/s (10^9 bytes per second)"
set yrange [0:*]
set xtics 1
set grid
set key right center box opaque
set border 3
set xtics nomirror
set ytics nomirror
set linetype 1 lc rgb "#1b9e77"
set linetype 2 lc rgb "#d95f02"
set linetype 3 lc rgb "#e7298a"
plot for [i=2:1+ncols] 'threads.dat' using 1:i with linespoints lw 2 pt 7 title columnheader(i), \
     loop_rate with lines dt 2 lw 2 lc rgb "#999999" title sprintf("read() loop, 1 MiB (%.2f GB/s)", loop_rate), \
     gnu_rate with lines dt 3 lw 2 lc rgb "#7570b3" title sprintf("GNU wc, default mode (%.2f GB/s)", gnu_rate)
