#!/bin/bash
# Run 1: the windowed look-back (SAT_WINDOW=1, decoupled) against today's
# chained row, and NVIDIA's test_sat with the window forced on.
. bench/2026-11-26-h100/sat/common.sh
W="CLPRIM_BUILD_OPTIONS=-D SAT_WINDOW=1"
sat_test window_r16c4 "$W" CLPRIM_SAT_CHAINED=0
bench_variant a_today
bench_variant b_win_r16c4 "$W" CLPRIM_SAT_CHAINED=0 CLPRIM_CACHE_DIR=$R/cache
bench_variant c_win_r8c4 "$W" CLPRIM_SAT_CHAINED=0 CLPRIM_SAT_ROWS=8
bench_variant d_win_r16c2 "$W" CLPRIM_SAT_CHAINED=0 CLPRIM_SAT_COLS=2
bench_variant e_win_r8c2 "$W" CLPRIM_SAT_CHAINED=0 CLPRIM_SAT_ROWS=8 CLPRIM_SAT_COLS=2
bench_variant f_win_r16c4_chained "$W"
bench_variant g_today_again
sat_test window_r8c2 "$W" CLPRIM_SAT_CHAINED=0 CLPRIM_SAT_ROWS=8 CLPRIM_SAT_COLS=2
finish run1
