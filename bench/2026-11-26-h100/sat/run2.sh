#!/bin/bash
# Run 2: polling traffic and the window's own cost. Repolls of the nearest
# missing strip only (SAT_WIN_REPOLL1, now the default) against all of them,
# a probe of strip q - 1 before the first window, window depths 8 and 32,
# and a timing-only form that never waits (SAT_WIN_NOWAIT: wrong sums).
. bench/2026-11-26-h100/sat/common.sh
W="-D SAT_WINDOW=1"
D=CLPRIM_SAT_CHAINED=0
sat_test window_probe "CLPRIM_BUILD_OPTIONS=$W -D SAT_WIN_PROBE=1" $D
bench_variant a_today
bench_variant b_win_repollall "CLPRIM_BUILD_OPTIONS=$W -D SAT_WIN_REPOLL1=0" $D
bench_variant c_win_repoll1 "CLPRIM_BUILD_OPTIONS=$W" $D
bench_variant d_win_probe "CLPRIM_BUILD_OPTIONS=$W -D SAT_WIN_PROBE=1" $D
bench_variant e_win_nowait "CLPRIM_BUILD_OPTIONS=$W -D SAT_WIN_NOWAIT=1" $D
bench_variant f_win_depth8 "CLPRIM_BUILD_OPTIONS=$W -D SAT_WIN_DEPTH=8" $D
bench_variant g_win_depth32 "CLPRIM_BUILD_OPTIONS=$W -D SAT_WIN_DEPTH=32" $D
bench_variant h_win_probe_c2 "CLPRIM_BUILD_OPTIONS=$W -D SAT_WIN_PROBE=1" $D CLPRIM_SAT_COLS=2
bench_variant i_today_again
finish run2
