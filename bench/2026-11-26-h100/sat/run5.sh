#!/bin/bash
# Run 5: NVIDIA's test_sat on the default path (SAT_WINDOW 0: the row
# layout through the new status-index helpers), the depth-1 window again
# beside today's row, a pause of 32 or 128 ns between its polls
# (SAT_WIN_PAUSE), and uint8 -> uint32 both ways.
. bench/2026-11-26-h100/sat/common.sh
W="-D SAT_WINDOW=1"
D=CLPRIM_SAT_CHAINED=0
sat_test default
bench_variant a_today
bench_variant b_win "CLPRIM_BUILD_OPTIONS=$W" $D
bench_variant c_win_pause32 "CLPRIM_BUILD_OPTIONS=$W -D SAT_WIN_PAUSE=32" $D
bench_variant d_win_pause128 "CLPRIM_BUILD_OPTIONS=$W -D SAT_WIN_PAUSE=128" $D
bench_variant e_win_again "CLPRIM_BUILD_OPTIONS=$W" $D
bench_variant f_today_again
env "CLPRIM_BUILD_OPTIONS=$W" $D timeout 40 /tmp/b/tools/clprim-bench --sat uint8 --sat-sides 4096,16384 --reps 5 > $R/uint8_win.txt 2>&1
timeout 40 /tmp/b/tools/clprim-bench --sat uint8 --sat-sides 4096,16384 --reps 5 > $R/uint8_today.txt 2>&1
finish run5
