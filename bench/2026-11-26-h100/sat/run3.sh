#!/bin/bash
# Run 3: run 2 found shallower windows faster (depth 32 / 16 / 8 strips per
# lane: 0.284 / 0.496 / 0.567 at 16384^2); depths 1, 2 and 4, with 16 and 8
# rows per warp and two columns per lane, beside today's row.
. bench/2026-11-26-h100/sat/common.sh
W="-D SAT_WINDOW=1"
D=CLPRIM_SAT_CHAINED=0
bench_variant a_today
bench_variant b_win_depth8 "CLPRIM_BUILD_OPTIONS=$W -D SAT_WIN_DEPTH=8" $D
bench_variant c_win_depth4 "CLPRIM_BUILD_OPTIONS=$W -D SAT_WIN_DEPTH=4" $D
bench_variant d_win_depth2 "CLPRIM_BUILD_OPTIONS=$W -D SAT_WIN_DEPTH=2" $D
bench_variant e_win_depth1 "CLPRIM_BUILD_OPTIONS=$W -D SAT_WIN_DEPTH=1" $D
bench_variant f_win_r8_depth2 "CLPRIM_BUILD_OPTIONS=$W -D SAT_WIN_DEPTH=2" $D CLPRIM_SAT_ROWS=8
bench_variant g_win_r8_depth4 "CLPRIM_BUILD_OPTIONS=$W -D SAT_WIN_DEPTH=4" $D CLPRIM_SAT_ROWS=8
bench_variant h_win_c2_depth4 "CLPRIM_BUILD_OPTIONS=$W -D SAT_WIN_DEPTH=4" $D CLPRIM_SAT_COLS=2
bench_variant i_win_depth4_repollall "CLPRIM_BUILD_OPTIONS=$W -D SAT_WIN_DEPTH=4 -D SAT_WIN_REPOLL1=0" $D
bench_variant j_today_again
sat_test window_depth2 "CLPRIM_BUILD_OPTIONS=$W -D SAT_WIN_DEPTH=2" $D
finish run3
