#!/bin/bash
# Run 4: the window at depth 1 (now SAT_WIN_DEPTH's default: one load per
# round, 32 / SAT_ROWS strips of the whole row block) with 16 / 8 / 32 rows
# per warp, two columns per lane and 128 work-items, repeated, beside
# today's row; float at 16384^2 both ways; NVIDIA's test_sat with the
# window at 16 rows and at 8 rows x 2 columns.
. bench/2026-11-26-h100/sat/common.sh
W="CLPRIM_BUILD_OPTIONS=-D SAT_WINDOW=1"
D=CLPRIM_SAT_CHAINED=0
sat_test window_r16c4 "$W" $D
bench_variant a_today
bench_variant b_win_r16c4 "$W" $D
bench_variant c_win_r8c4 "$W" $D CLPRIM_SAT_ROWS=8
bench_variant d_win_r16c2 "$W" $D CLPRIM_SAT_COLS=2
bench_variant e_win_r32c4 "$W" $D CLPRIM_SAT_ROWS=32
bench_variant f_win_r16c4_wg128 "$W" $D CLPRIM_SAT_WG_SIZE=128
bench_variant g_win_r16c4_again "$W" $D
bench_variant h_today_again
env "$W" $D timeout 40 /tmp/b/tools/clprim-bench --sat float --sat-sides 16384 --reps 5 > $R/float_win.txt 2>&1
timeout 40 /tmp/b/tools/clprim-bench --sat float --sat-sides 16384 --reps 5 > $R/float_today.txt 2>&1
sat_test window_r8c2 "$W" $D CLPRIM_SAT_ROWS=8 CLPRIM_SAT_COLS=2
finish run4
