# Facebook Cache_Follower flow sizes (Roy et al., "Inside the Social Network's (Datacenter) Network", SIGCOMM 2015),
# as shipped by the SRNIC authors: HKUST-SING/srnic-simulation-public traffic_gen/CacheFollower_distribution.txt,
# commit 9c1f651 (blob 0bc4ea8); data lines copied unchanged.
# Format: size percent (bytes, cumulative percent 0..100), linear interpolation. Mean 712,570 B.
# Split: 52.0% <= 100 KB, 18.0% in (100 KB, 1 MB], 30.0% > 1 MB. This is the file of SRNIC Fig. 12.
0 0
70 1
150 4
300 8
350 19
450 20
500 28
600 30
700 35
1100 40
2000 42
10000 48
30000 50
100000 52
200000 60
400000 68
600000 70
1500000 70.1
2000000 80
2400000 90
3000000 100