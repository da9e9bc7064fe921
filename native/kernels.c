/*
 * ppmlm's hand-written wasm SIMD kernels for the tfjs wasm backend (see README.md beside this file).
 *
 * They run inside tfjs's own linear memory (the module imports it), on tensors in place, so they must
 * never touch memory they are not given: no static data, no stack (nothing address-taken, no arrays),
 * no libc. build.sh checks the built module for data segments and stack-pointer use.
 */
#include <wasm_simd128.h>

typedef int i32;

/*
 * c + a * b, four lanes. Built with -mrelaxed-simd it is relaxed SIMD's fused multiply-add (one rounding
 * where the CPU has FMA, which is why results differ from the plain build in the last bits); the plain
 * build is for engines without relaxed SIMD.
 */
#ifdef __wasm_relaxed_simd__
/* clang 16's wasm_simd128.h has no relaxed intrinsics yet; its builtin is the same instruction. */
typedef float f32x4 __attribute__((vector_size(16)));
#define MADD(a, b, c) ((v128_t)__builtin_wasm_relaxed_madd_f32x4((f32x4)(a), (f32x4)(b), (f32x4)(c)))
#else
#define MADD(a, b, c) wasm_f32x4_add(c, wasm_f32x4_mul(a, b))
#endif

/* Rows and columns of C computed per microkernel call: 4 x 8 = 8 accumulators of 4 lanes. */
#define MR 4
#define NR 8

/* Element (r, c) of an operand is x[r * rs + c * cs]: one layout for plain and transposed operands. */

/* Packs op(A) [m, k] into panels of MR rows, k-major within a panel, zero rows past m. */
static void pack_a(const float *a, i32 rs, i32 cs, i32 m, i32 k, float *out) {
  for (i32 i = 0; i < m; i += MR) {
    i32 rows = m - i < MR ? m - i : MR;
    const float *base = a + i * rs;
    if (rows == MR) {
      for (i32 p = 0; p < k; p++) {
        const float *col = base + p * cs;
        out[0] = col[0];
        out[1] = col[rs];
        out[2] = col[2 * rs];
        out[3] = col[3 * rs];
        out += MR;
      }
    } else {
      for (i32 p = 0; p < k; p++) {
        for (i32 r = 0; r < MR; r++) out[r] = r < rows ? base[r * rs + p * cs] : 0.0f;
        out += MR;
      }
    }
  }
}

/* Packs op(B) [k, n] into panels of NR columns, k-major within a panel, zero columns past n. */
static void pack_b(const float *b, i32 rs, i32 cs, i32 k, i32 n, float *out) {
  for (i32 j = 0; j < n; j += NR) {
    i32 cols = n - j < NR ? n - j : NR;
    const float *base = b + j * cs;
    if (cols == NR && cs == 1) {
      for (i32 p = 0; p < k; p++) {
        const float *row = base + p * rs;
        wasm_v128_store(out, wasm_v128_load(row));
        wasm_v128_store(out + 4, wasm_v128_load(row + 4));
        out += NR;
      }
    } else {
      for (i32 p = 0; p < k; p++) {
        for (i32 c = 0; c < NR; c++) out[c] = c < cols ? base[p * rs + c * cs] : 0.0f;
        out += NR;
      }
    }
  }
}

/* Loads the first n (1..4) lanes at p, zeros elsewhere. */
static inline v128_t load_lanes(const float *p, i32 n) {
  if (n >= 4) return wasm_v128_load(p);
  v128_t v = wasm_f32x4_splat(0);
  v = wasm_f32x4_replace_lane(v, 0, p[0]);
  if (n > 1) v = wasm_f32x4_replace_lane(v, 1, p[1]);
  if (n > 2) v = wasm_f32x4_replace_lane(v, 2, p[2]);
  return v;
}

/* Stores the first n (1..4) lanes of v at p. */
static inline void store_lanes(float *p, v128_t v, i32 n) {
  if (n >= 4) {
    wasm_v128_store(p, v);
    return;
  }
  p[0] = wasm_f32x4_extract_lane(v, 0);
  if (n > 1) p[1] = wasm_f32x4_extract_lane(v, 1);
  if (n > 2) p[2] = wasm_f32x4_extract_lane(v, 2);
}

/* Adds row r of C (cols wide) to the accumulators lo, hi. */
static inline void add_row(const float *p, v128_t *lo, v128_t *hi, i32 cols) {
  *lo = wasm_f32x4_add(*lo, load_lanes(p, cols < 4 ? cols : 4));
  if (cols > 4) *hi = wasm_f32x4_add(*hi, load_lanes(p + 4, cols - 4));
}

static inline void store_row(float *p, v128_t lo, v128_t hi, i32 cols) {
  store_lanes(p, lo, cols < 4 ? cols : 4);
  if (cols > 4) store_lanes(p + 4, hi, cols - 4);
}

/* C[rows, cols] (row stride ldc) = (C if accumulate) + one packed A panel times one packed B panel over k. */
static void microkernel(const float *ap, const float *bp, i32 k, float *c, i32 ldc, i32 rows, i32 cols, i32 accumulate) {
  v128_t c00 = wasm_f32x4_splat(0), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  for (i32 p = 0; p < k; p++) {
    v128_t b0 = wasm_v128_load(bp), b1 = wasm_v128_load(bp + 4);
    v128_t a0 = wasm_f32x4_splat(ap[0]), a1 = wasm_f32x4_splat(ap[1]), a2 = wasm_f32x4_splat(ap[2]), a3 = wasm_f32x4_splat(ap[3]);
    c00 = MADD(a0, b0, c00);
    c01 = MADD(a0, b1, c01);
    c10 = MADD(a1, b0, c10);
    c11 = MADD(a1, b1, c11);
    c20 = MADD(a2, b0, c20);
    c21 = MADD(a2, b1, c21);
    c30 = MADD(a3, b0, c30);
    c31 = MADD(a3, b1, c31);
    ap += MR;
    bp += NR;
  }
  if (accumulate) {
    add_row(c, &c00, &c01, cols);
    if (rows > 1) add_row(c + ldc, &c10, &c11, cols);
    if (rows > 2) add_row(c + 2 * ldc, &c20, &c21, cols);
    if (rows > 3) add_row(c + 3 * ldc, &c30, &c31, cols);
  }
  store_row(c, c00, c01, cols);
  if (rows > 1) store_row(c + ldc, c10, c11, cols);
  if (rows > 2) store_row(c + 2 * ldc, c20, c21, cols);
  if (rows > 3) store_row(c + 3 * ldc, c30, c31, cols);
}

/*
 * Cache blocking (Goto's GEMM): a KC x NC block of B, packed, stays in L2 while MC x KC blocks of A
 * (packed, in L1/L2) sweep it; long inner dimensions are cut into KC slices that accumulate into C.
 */
#define MC 64
#define KC 256
#define NC 512

static inline i32 min(i32 a, i32 b) { return a < b ? a : b; }
static inline i32 round_up(i32 x, i32 to) { return (x + to - 1) / to * to; }

/* Floats of scratch bmm needs for an [m, k] . [k, n] product: one packed block of A and one of B. */
__attribute__((export_name("bmm_scratch")))
i32 bmm_scratch(i32 m, i32 n, i32 k) {
  return round_up(min(m, MC), MR) * min(k, KC) + round_up(min(n, NC), NR) * min(k, KC);
}

/*
 * C[t] = op(A[t]) . op(B[t]) for t < batch, C dense [batch, m, n]. Operand t starts at x + t * bs
 * (bs 0 broadcasts one operand over the batch); scratch holds bmm_scratch(m, n, k) floats.
 */
__attribute__((export_name("bmm")))
void bmm(const float *a, const float *b, float *c, float *scratch, i32 batch, i32 m, i32 n, i32 k,
         i32 a_rs, i32 a_cs, i32 a_bs, i32 b_rs, i32 b_cs, i32 b_bs) {
  float *pa = scratch;
  float *pb = scratch + round_up(min(m, MC), MR) * min(k, KC);
  for (i32 t = 0; t < batch; t++) {
    const float *at = a + t * a_bs, *bt = b + t * b_bs;
    float *ct = c + t * m * n;
    for (i32 jc = 0; jc < n; jc += NC) {
      i32 nc = min(NC, n - jc);
      for (i32 pc = 0; pc < k; pc += KC) {
        i32 kc = min(KC, k - pc);
        pack_b(bt + pc * b_rs + jc * b_cs, b_rs, b_cs, kc, nc, pb);
        for (i32 ic = 0; ic < m; ic += MC) {
          i32 mc = min(MC, m - ic);
          pack_a(at + ic * a_rs + pc * a_cs, a_rs, a_cs, mc, kc, pa);
          for (i32 jr = 0; jr < nc; jr += NR)
            for (i32 ir = 0; ir < mc; ir += MR)
              microkernel(pa + ir * kc, pb + jr * kc, kc, ct + (ic + ir) * n + jc + jr, n, min(MR, mc - ir), min(NR, nc - jr), pc > 0);
        }
      }
    }
  }
}

/* out[c] = sum over r of x[r * cols + c]: a sum over the leading axes, a cache line of columns at a time. */
__attribute__((export_name("column_sum")))
void column_sum(const float *x, float *out, i32 rows, i32 cols) {
  i32 c = 0;
  for (; c + 16 <= cols; c += 16) {
    v128_t s0 = wasm_f32x4_splat(0), s1 = s0, s2 = s0, s3 = s0;
    for (i32 r = 0; r < rows; r++) {
      const float *p = x + r * cols + c;
      s0 = wasm_f32x4_add(s0, wasm_v128_load(p));
      s1 = wasm_f32x4_add(s1, wasm_v128_load(p + 4));
      s2 = wasm_f32x4_add(s2, wasm_v128_load(p + 8));
      s3 = wasm_f32x4_add(s3, wasm_v128_load(p + 12));
    }
    wasm_v128_store(out + c, s0);
    wasm_v128_store(out + c + 4, s1);
    wasm_v128_store(out + c + 8, s2);
    wasm_v128_store(out + c + 12, s3);
  }
  for (; c + 4 <= cols; c += 4) {
    v128_t acc = wasm_f32x4_splat(0);
    for (i32 r = 0; r < rows; r++) acc = wasm_f32x4_add(acc, wasm_v128_load(x + r * cols + c));
    wasm_v128_store(out + c, acc);
  }
  for (; c < cols; c++) {
    float acc = 0;
    for (i32 r = 0; r < rows; r++) acc += x[r * cols + c];
    out[c] = acc;
  }
}
