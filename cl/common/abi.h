/* SPDX-License-Identifier: MIT */
/* Host/kernel contract of the single-pass machinery (lookback.clh), valid C
 * and OpenCL C alike: src/ includes it to size and describe the state that
 * cl/common/lookback.clh reads and writes, so the two cannot drift apart.
 * Macros only.
 *
 * Tile state: a header of counters (ticket, tiles finished, two spare
 * words), then per tile either LB_WORDS 64-bit status words (the value
 * travels in the word: 1 packed, 2 split) or, with LB_WORDS 0, one 32-bit
 * state word per tile followed, at the next multiple of 128 bytes (any
 * type's alignment), by two value slots per tile (aggregate, prefix). */
#ifndef CLPRIM_ABI_H
#define CLPRIM_ABI_H

#define CLPRIM_TILE_HEADER_BYTES 16
/* the state of a tile's status (0: nothing yet): its own total, or the
 * total of every tile up to and including it */
#define TILE_AGGREGATE 1u
#define TILE_PREFIX 2u
#define CLPRIM_TILE_SLOT_ALIGN 128
/* a state word holds (generation << 2 | state): generations below 2^30 */
#define CLPRIM_TILE_GENERATION_LIMIT (1u << 30)

/* Byte offset of the value slots (LB_WORDS 0) for `tiles` tiles. */
#define CLPRIM_TILE_SLOTS_OFFSET(tiles)                                          \
    ((CLPRIM_TILE_HEADER_BYTES + (tiles) * 4 + CLPRIM_TILE_SLOT_ALIGN - 1) /      \
     CLPRIM_TILE_SLOT_ALIGN * CLPRIM_TILE_SLOT_ALIGN)

/* Bytes of tile state for `tiles` tiles carrying values of value_size bytes
 * in `words` status words per tile (0: state words and value slots). */
#define CLPRIM_TILE_STATE_BYTES(tiles, words, value_size)                         \
    ((words) ? CLPRIM_TILE_HEADER_BYTES + (tiles) * 8 * (words)                   \
             : CLPRIM_TILE_SLOTS_OFFSET(tiles) + 2 * (tiles) * (value_size))

#endif /* CLPRIM_ABI_H */
