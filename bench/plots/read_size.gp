# SPDX-License-Identifier: GPL-3.0-or-later
# read_size.gp: fastwc -l throughput by read size, io_uring, read() and pread() backends, next to the bare
# read() loop and GNU wc -l. Input read_size.dat (bench/studies/read_size.py): read size in bytes, then GB/s
# of fastwc --io=uring, fastwc --io=read, read() loop, fastwc --io=pread. Variables: title, gnu_rate (GB/s
# of GNU wc -l).
set terminal pngcairo size 1000,560 font "DejaVu Sans,11" noenhanced
set output 'read_size.png'
set title title
set logscale x 2
set xrange [2048:32<<20]
set xtics ("4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, \
           "4 MiB" 4194304, "16 MiB" 16777216)
set xlabel "bytes per read (--read-size)"
set ylabel "GB/s (10^9 bytes per second)"
set yrange [0:*]
set grid
set key bottom right box opaque
set border 3
set xtics nomirror
set ytics nomirror
plot 'read_size.dat' using 1:4 with linespoints lw 2 pt 6 lc rgb "#999999" title "read() loop, nothing counted", \
     '' using 1:2 with linespoints lw 2 pt 7 lc rgb "#1b9e77" title "fastwc --io=uring -l", \
     '' using 1:3 with linespoints lw 2 pt 5 lc rgb "#d95f02" title "fastwc --io=read -l", \
     '' using 1:5 with linespoints lw 2 pt 9 lc rgb "#e7298a" title "fastwc --io=pread -l (the default for -l)", \
     gnu_rate with lines dt 2 lw 2 lc rgb "#7570b3" title sprintf("GNU wc -l (%.2f GB/s)", gnu_rate)
