# Alibaba storage flow sizes (2019), as shipped with the HPCC simulator (Li et al., SIGCOMM 2019):
# alibaba-edu/High-Precision-Congestion-Control traffic_gen/AliStorage2019.txt, commit a246886;
# data lines copied unchanged.
# Format: size percent (bytes, cumulative percent 0..100), linear interpolation. Mean 40,869.8 B.
# Split: 72.1% <= 10 KB, 95.4% <= 100 KB, 98.6% <= 1 MB, 1.4% > 1 MB.
0 0
4000 22.93
8000 69.21
16000 80.61
32000 90.47
64000 93.53
128000 96.77
256000 97.53
2000000 100
