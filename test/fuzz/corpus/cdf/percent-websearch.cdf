# Web search flow sizes (Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010), as shipped with the HPCC
# simulator (Li et al., SIGCOMM 2019, Fig. 11): alibaba-edu/High-Precision-Congestion-Control
# traffic_gen/WebSearch_distribution.txt, commit a246886; data lines copied unchanged. It is the distribution
# of the benchmark flow files in bench/ (hpcc-websearch-320h-*).
# Format: size percent (bytes, cumulative percent 0..100), linear interpolation. Mean 1,711,250 B.
# Split: 15.0% <= 10 KB, 54.2% <= 100 KB, 70.0% <= 1 MB, 30.0% > 1 MB.
0 0
10000 15
20000 20
30000 30
50000 40
80000 53
200000 60
1000000 70
2000000 80
5000000 90
10000000 97
30000000 100
