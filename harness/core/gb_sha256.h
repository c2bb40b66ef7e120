/*
 * gb_sha256.h -- SHA-256 (FIPS 180-4), one-shot, incremental and per file.
 *
 * Data structure
 *   A gb_sha256_ctx holds the eight 32-bit chaining words h[0..8), the
 *   total message length in bytes, and a partial block buf[0..nbuf) of
 *   fewer than 64 bytes not yet compressed.
 *
 * Invariants
 *   - 0 <= nbuf < 64 between calls: a full block is compressed at once.
 *   - len counts every byte passed to gb_sha256_update since init; the
 *     padding appended by gb_sha256_final encodes len * 8 (messages shorter
 *     than 2^61 bytes, i.e. every file this project will ever hash).
 *   - after gb_sha256_final the context is wiped; init it again to reuse.
 *
 * Used by `gridbench env` (checksums of the data a measurement ran on),
 * and by the tests that compare the shared Moving AI copies with
 * SHA256SUMS.  No allocation; only gb_sha256_file does I/O.
 */
#ifndef GB_SHA256_H
#define GB_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "gb_diag.h"

#define GB_SHA256_BYTES 32

typedef struct gb_sha256_ctx {
    uint32_t h[8];      /* chaining value H(i) */
    uint64_t len;       /* message bytes consumed so far */
    uint8_t buf[64];    /* pending bytes of the current block */
    size_t nbuf;        /* number of pending bytes, < 64 */
} gb_sha256_ctx;

/* Start a new message: H(0) from FIPS 180-4 section 5.3.3. */
void gb_sha256_init(gb_sha256_ctx *c);

/* Append buf[0..len) to the message (len may be 0; buf may then be NULL). */
void gb_sha256_update(gb_sha256_ctx *c, const void *buf, size_t len);

/* Pad, compress the last block(s) and write the 32-byte digest to out.
 * The context is zeroed afterwards. */
void gb_sha256_final(gb_sha256_ctx *c, uint8_t out[GB_SHA256_BYTES]);

/* Digest of buf[0..len) in one call. */
void gb_sha256(const void *buf, size_t len, uint8_t out[GB_SHA256_BYTES]);

/* Lower-case hex of a digest: 64 characters and a NUL into hex. */
void gb_sha256_hex(const uint8_t dig[GB_SHA256_BYTES], char hex[65]);

/* Hash the regular file at path and write its digest as lower-case hex
 * (64 characters + NUL) into hex.  Returns 0, or fills *d and returns
 * EX_NOINPUT ("expected a readable file, found '<strerror>'", or
 * "expected a regular file, found a directory") or EX_IOERR (read error).
 * On failure hex holds the empty string.  The file is read in 16 KiB
 * chunks on the stack; nothing is allocated. */
int gb_sha256_file(const char *path, char hex[65], gb_diag *d);

/* Same as gb_sha256_file, and stores the number of bytes hashed in
 * *bytes (0 on failure) when bytes is not NULL, so that a size reported
 * next to a checksum is the size of the bytes that were hashed. */
int gb_sha256_file_n(const char *path, char hex[65], uint64_t *bytes, gb_diag *d);

#endif
