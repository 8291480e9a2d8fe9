# SPDX-License-Identifier: GPL-3.0-or-later
# modes.gp: throughput per counting mode and tool, clustered bars on a log scale.
# Input modes.dat (written by bench/run): a header line "mode locale TOOL...", then one line per mode:
# its label, its locale, and GB/s per tool (NaN when not measured). Variables: title, ntools.
# Run in the results directory: gnuplot -e "title='...'; ntools=4" bench/plots/modes.gp
set terminal pngcairo size 1100,560 font "DejaVu Sans,11" noenhanced
set output 'modes.png'
set title title
set style data histogram
set style histogram clustered gap 1.5
set style fill solid 0.85 border rgb "#333333"
set boxwidth 0.95
set logscale y
set format y "%g"
set yrange [0.05:*]
set ylabel "GB/s (10^9 bytes per second, log scale)"
set grid ytics
set key top right box opaque autotitle columnheader
set xtics nomirror scale 0
set ytics nomirror
set border 3
set linetype 1 lc rgb "#1b9e77"
set linetype 2 lc rgb "#7570b3"
set linetype 3 lc rgb "#d95f02"
set linetype 4 lc rgb "#e7298a"
set bmargin 4.5
gap = 1.5
# The fastwc bar (first tool) of cluster $0 sits at $0 + (0 - (ntools-1)/2) / (ntools + gap); label it
# with its speed-up over GNU wc (second tool).
fastwc_x(n) = n - ((ntools - 1) / 2.0) / (ntools + gap)
plot for [i=3:2+ntools] 'modes.dat' using i:xtic(1), \
     '' using (fastwc_x($0)):($3 * 1.35):(sprintf("%.2g×", $3 / $4)) with labels font ",10" notitle
