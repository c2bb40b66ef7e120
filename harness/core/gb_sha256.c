/*
 * gb_sha256.c -- SHA-256 written from FIPS 180-4 (sections 4.1.2, 4.2.2,
 * 5.1.1, 5.3.3, 6.2).  See gb_sha256.h for the context's invariants.
 *
 * The message is processed in 512-bit blocks, each read as sixteen
 * big-endian 32-bit words.  Padding: one 0x80 byte, zero bytes up to 56
 * mod 64, then the message length in bits as a 64-bit big-endian number.
 *
 * Time complexity: O(len); 64 rounds per 64-byte block.
 */
#include "gb_sha256.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* K: first 32 bits of the fractional parts of the cube roots of the
 * first 64 primes (section 4.2.2). */
static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* H(0): first 32 bits of the fractional parts of the square roots of the
 * first 8 primes (section 5.3.3). */
static const uint32_t H0[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static inline uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }
static inline uint32_t ch(uint32_t x, uint32_t y, uint32_t z) { return (x & y) ^ (~x & z); }
static inline uint32_t maj(uint32_t x, uint32_t y, uint32_t z) { return (x & y) ^ (x & z) ^ (y & z); }
static inline uint32_t big0(uint32_t x) { return rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22); }
static inline uint32_t big1(uint32_t x) { return rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25); }
static inline uint32_t small0(uint32_t x) { return rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3); }
static inline uint32_t small1(uint32_t x) { return rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10); }

/* One application of the compression function to a 64-byte block
 * (section 6.2.2). */
static void compress(uint32_t h[8], const uint8_t *blk)
{
    uint32_t w[64];
    for (int t = 0; t < 16; t++)
        w[t] = (uint32_t)blk[4 * t] << 24 | (uint32_t)blk[4 * t + 1] << 16
             | (uint32_t)blk[4 * t + 2] << 8 | (uint32_t)blk[4 * t + 3];
    for (int t = 16; t < 64; t++)
        w[t] = small1(w[t - 2]) + w[t - 7] + small0(w[t - 15]) + w[t - 16];
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
    uint32_t e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < 64; t++) {
        uint32_t t1 = hh + big1(e) + ch(e, f, g) + K[t] + w[t];
        uint32_t t2 = big0(a) + maj(a, b, c);
        hh = g; g = f; f = e; e = d + t1;
        d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d;
    h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

void gb_sha256_init(gb_sha256_ctx *c)
{
    memcpy(c->h, H0, sizeof H0);
    c->len = 0;
    c->nbuf = 0;
}

void gb_sha256_update(gb_sha256_ctx *c, const void *buf, size_t len)
{
    const uint8_t *p = buf;
    if (len == 0) return;     /* buf may be NULL; memcpy(NULL, 0) is UB */
    c->len += len;
    if (c->nbuf > 0) {
        size_t k = 64 - c->nbuf;
        if (k > len) k = len;
        memcpy(c->buf + c->nbuf, p, k);
        c->nbuf += k;
        p += k;
        len -= k;
        if (c->nbuf < 64) return;
        compress(c->h, c->buf);
        c->nbuf = 0;
    }
    for (; len >= 64; p += 64, len -= 64)
        compress(c->h, p);
    if (len > 0) {
        memcpy(c->buf, p, len);
        c->nbuf = len;
    }
}

void gb_sha256_final(gb_sha256_ctx *c, uint8_t out[GB_SHA256_BYTES])
{
    uint64_t bits = c->len * 8u;
    c->buf[c->nbuf++] = 0x80;
    if (c->nbuf > 56) {
        memset(c->buf + c->nbuf, 0, 64 - c->nbuf);
        compress(c->h, c->buf);
        c->nbuf = 0;
    }
    memset(c->buf + c->nbuf, 0, 56 - c->nbuf);
    for (int i = 0; i < 8; i++)
        c->buf[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
    compress(c->h, c->buf);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(c->h[i] >> 24);
        out[4 * i + 1] = (uint8_t)(c->h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(c->h[i] >> 8);
        out[4 * i + 3] = (uint8_t)c->h[i];
    }
    memset(c, 0, sizeof *c);
}

void gb_sha256(const void *buf, size_t len, uint8_t out[GB_SHA256_BYTES])
{
    gb_sha256_ctx c;
    gb_sha256_init(&c);
    gb_sha256_update(&c, buf, len);
    gb_sha256_final(&c, out);
}

void gb_sha256_hex(const uint8_t dig[GB_SHA256_BYTES], char hex[65])
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < GB_SHA256_BYTES; i++) {
        hex[2 * i] = digits[dig[i] >> 4];
        hex[2 * i + 1] = digits[dig[i] & 15];
    }
    hex[64] = '\0';
}

int gb_sha256_file_n(const char *path, char hex[65], uint64_t *bytes, gb_diag *d)
{
    hex[0] = '\0';
    if (bytes) *bytes = 0;
    FILE *f = gb_open_regular(path, NULL, d);
    if (!f) return d->code;
    gb_sha256_ctx c;
    gb_sha256_init(&c);
    uint8_t chunk[16384];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        gb_sha256_update(&c, chunk, got);
    if (ferror(f)) {
        int e = errno;
        uint64_t n = c.len;
        fclose(f);
        return gb_diag_set(d, EX_IOERR, path, 0, 0,
                           "expected to read the whole file, found read error '%s' "
                           "after %llu bytes", e ? strerror(e) : "unknown",
                           (unsigned long long)n);
    }
    fclose(f);
    uint64_t n = c.len;
    uint8_t dig[GB_SHA256_BYTES];
    gb_sha256_final(&c, dig);
    gb_sha256_hex(dig, hex);
    if (bytes) *bytes = n;
    return 0;
}

int gb_sha256_file(const char *path, char hex[65], gb_diag *d)
{
    return gb_sha256_file_n(path, hex, NULL, d);
}
