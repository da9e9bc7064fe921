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

/*
 * Exact GELU, x · Φ(x) with Φ(x) = (1 + erf(x / √2)) / 2, and its derivative Φ(x) + x · φ(x), one pass
 * each instead of the five and seven tensor ops they take composed. erf is Abramowitz and Stegun's 7.1.26
 * (absolute error below 1.5e-7), exp a Cody-Waite reduction with a degree-6 polynomial.
 */

/* e^x for x <= 0 (the only arguments here): x = n·ln2 + r with |r| <= ln2 / 2, e^x = 2^n · e^r. */
static inline v128_t exp_nonpositive(v128_t x) {
  v128_t clamped = wasm_f32x4_max(x, wasm_f32x4_splat(-87.0f));
  v128_t n = wasm_f32x4_nearest(wasm_f32x4_mul(clamped, wasm_f32x4_splat(1.44269504088896341f)));
  /* ln 2 in two parts, so that r keeps its low bits. */
  v128_t r = wasm_f32x4_sub(clamped, wasm_f32x4_mul(n, wasm_f32x4_splat(0.693359375f)));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(n, wasm_f32x4_splat(-2.12194440e-4f)));
  v128_t p = wasm_f32x4_splat(1.0f / 720);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 120));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 24));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 6));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0.5f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f));
  /* 2^n as a float's exponent bits; n >= -126 after the clamp above. */
  v128_t two_n = wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(n), wasm_i32x4_splat(127)), 23);
  /* Below the clamp e^x is under float32's smallest normal: 0, as an attention mask's -1e9 must give. */
  return wasm_v128_andnot(wasm_f32x4_mul(p, two_n), wasm_f32x4_lt(x, wasm_f32x4_splat(-87.0f)));
}

/* e^(-x²/2), which φ and erf both need. */
static inline v128_t gaussian(v128_t x) {
  return exp_nonpositive(wasm_f32x4_mul(wasm_f32x4_mul(x, x), wasm_f32x4_splat(-0.5f)));
}

/* Φ(x), the standard normal's distribution function, given gauss = e^(-x²/2). */
static inline v128_t normal_cdf(v128_t x, v128_t gauss) {
  /* erf(|z|) with z = x / √2: 1 - t · poly(t) · e^(-z²), t = 1 / (1 + p|z|). */
  v128_t z = wasm_f32x4_abs(wasm_f32x4_mul(x, wasm_f32x4_splat(0.70710678118654752f)));
  v128_t t = wasm_f32x4_div(wasm_f32x4_splat(1.0f), wasm_f32x4_add(wasm_f32x4_splat(1.0f), wasm_f32x4_mul(z, wasm_f32x4_splat(0.3275911f))));
  v128_t poly = wasm_f32x4_splat(1.061405429f);
  poly = wasm_f32x4_add(wasm_f32x4_mul(poly, t), wasm_f32x4_splat(-1.453152027f));
  poly = wasm_f32x4_add(wasm_f32x4_mul(poly, t), wasm_f32x4_splat(1.421413741f));
  poly = wasm_f32x4_add(wasm_f32x4_mul(poly, t), wasm_f32x4_splat(-0.284496736f));
  poly = wasm_f32x4_add(wasm_f32x4_mul(poly, t), wasm_f32x4_splat(0.254829592f));
  v128_t erf_abs = wasm_f32x4_sub(wasm_f32x4_splat(1.0f), wasm_f32x4_mul(wasm_f32x4_mul(poly, t), gauss));
  /* erf is odd: Φ(x) = (1 ± erf(|z|)) / 2 by the sign of x. */
  v128_t half = wasm_f32x4_mul(erf_abs, wasm_f32x4_splat(0.5f));
  v128_t negative = wasm_f32x4_lt(x, wasm_f32x4_splat(0.0f));
  return wasm_v128_bitselect(wasm_f32x4_sub(wasm_f32x4_splat(0.5f), half), wasm_f32x4_add(wasm_f32x4_splat(0.5f), half), negative);
}

/* out[i] = x[i] · Φ(x[i]) for i < n. */
__attribute__((export_name("gelu")))
void gelu(const float *x, float *out, i32 n) {
  for (i32 i = 0; i < n; i += 4) {
    i32 lanes = min(4, n - i);
    v128_t v = load_lanes(x + i, lanes);
    store_lanes(out + i, wasm_f32x4_mul(v, normal_cdf(v, gaussian(v))), lanes);
  }
}

/* dx[i] = dy[i] · (Φ(x[i]) + x[i] · φ(x[i])) for i < n, φ(x) = e^(-x²/2) / √(2π). */
__attribute__((export_name("gelu_grad")))
void gelu_grad(const float *x, const float *dy, float *dx, i32 n) {
  for (i32 i = 0; i < n; i += 4) {
    i32 lanes = min(4, n - i);
    v128_t v = load_lanes(x + i, lanes), gauss = gaussian(v);
    v128_t cdf = normal_cdf(v, gauss);
    v128_t pdf = wasm_f32x4_mul(gauss, wasm_f32x4_splat(0.39894228040143268f));
    store_lanes(dx + i, wasm_f32x4_mul(load_lanes(dy + i, lanes), wasm_f32x4_add(cdf, wasm_f32x4_mul(v, pdf))), lanes);
  }
}

/* The sum of a vector's four lanes. */
static inline float lane_sum(v128_t v) {
  return (wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1)) + (wasm_f32x4_extract_lane(v, 2) + wasm_f32x4_extract_lane(v, 3));
}

/*
 * LayerNorm over rows of `cols` floats: out = (x - mean) · rstd · gain + shift with rstd = 1 / √(var + eps),
 * one row at a time (mean, then the centred variance, then the output: three passes over a row that stays
 * in cache, where tfjs runs about eight kernels over the whole tensor). stats[2r], stats[2r + 1] receive
 * the row's mean and rstd for the backward pass, which recomputes x̂ from x instead of keeping it.
 */
__attribute__((export_name("layer_norm")))
void layer_norm(const float *x, const float *gain, const float *shift, float *out, float *stats, i32 rows, i32 cols, float eps) {
  for (i32 r = 0; r < rows; r++) {
    const float *xr = x + r * cols;
    float *yr = out + r * cols;
    v128_t acc = wasm_f32x4_splat(0);
    for (i32 c = 0; c < cols; c += 4) acc = wasm_f32x4_add(acc, load_lanes(xr + c, min(4, cols - c)));
    float mean = lane_sum(acc) / cols;
    v128_t m = wasm_f32x4_splat(mean);
    acc = wasm_f32x4_splat(0);
    for (i32 c = 0; c < cols; c += 4) {
      i32 lanes = min(4, cols - c);
      /* Zeroed lanes past the row would add mean² each: mask them back to zero. */
      v128_t d = wasm_f32x4_sub(load_lanes(xr + c, lanes), m);
      if (lanes < 4) d = wasm_v128_and(d, wasm_i32x4_lt(wasm_i32x4_make(0, 1, 2, 3), wasm_i32x4_splat(lanes)));
      acc = wasm_f32x4_add(acc, wasm_f32x4_mul(d, d));
    }
    float rstd = 1.0f / __builtin_sqrtf(lane_sum(acc) / cols + eps);
    v128_t s = wasm_f32x4_splat(rstd);
    for (i32 c = 0; c < cols; c += 4) {
      i32 lanes = min(4, cols - c);
      v128_t xhat = wasm_f32x4_mul(wasm_f32x4_sub(load_lanes(xr + c, lanes), m), s);
      store_lanes(yr + c, wasm_f32x4_add(wasm_f32x4_mul(xhat, load_lanes(gain + c, lanes)), load_lanes(shift + c, lanes)), lanes);
    }
    stats[2 * r] = mean;
    stats[2 * r + 1] = rstd;
  }
}

/*
 * LayerNorm's gradient from the forward pass's stats: with x̂ = (x - mean) · rstd and dx̂ = dy · gain,
 * dx = rstd · (dx̂ - mean(dx̂) - x̂ · mean(dx̂ · x̂)) row by row, while dgain = Σ_rows dy · x̂ and
 * dshift = Σ_rows dy accumulate in the same pass (both `cols` long, overwritten).
 */
__attribute__((export_name("layer_norm_grad")))
void layer_norm_grad(const float *x, const float *gain, const float *dy, const float *stats, float *dx, float *dgain, float *dshift, i32 rows, i32 cols) {
  for (i32 c = 0; c < cols; c += 4) {
    i32 lanes = min(4, cols - c);
    store_lanes(dgain + c, wasm_f32x4_splat(0), lanes);
    store_lanes(dshift + c, wasm_f32x4_splat(0), lanes);
  }
  for (i32 r = 0; r < rows; r++) {
    const float *xr = x + r * cols, *dyr = dy + r * cols;
    v128_t m = wasm_f32x4_splat(stats[2 * r]), s = wasm_f32x4_splat(stats[2 * r + 1]);
    v128_t sum_dxhat = wasm_f32x4_splat(0), sum_dxhat_xhat = wasm_f32x4_splat(0);
    for (i32 c = 0; c < cols; c += 4) {
      i32 lanes = min(4, cols - c);
      v128_t g = load_lanes(dyr + c, lanes);
      v128_t xhat = wasm_f32x4_mul(wasm_f32x4_sub(load_lanes(xr + c, lanes), m), s);
      v128_t dxhat = wasm_f32x4_mul(g, load_lanes(gain + c, lanes));
      /* Past the row dy is zero, so these lanes add nothing. */
      sum_dxhat = wasm_f32x4_add(sum_dxhat, dxhat);
      sum_dxhat_xhat = wasm_f32x4_add(sum_dxhat_xhat, wasm_f32x4_mul(dxhat, xhat));
      store_lanes(dgain + c, wasm_f32x4_add(load_lanes(dgain + c, lanes), wasm_f32x4_mul(g, xhat)), lanes);
      store_lanes(dshift + c, wasm_f32x4_add(load_lanes(dshift + c, lanes), g), lanes);
    }
    v128_t a = wasm_f32x4_splat(lane_sum(sum_dxhat) / cols), b = wasm_f32x4_splat(lane_sum(sum_dxhat_xhat) / cols);
    for (i32 c = 0; c < cols; c += 4) {
      i32 lanes = min(4, cols - c);
      v128_t xhat = wasm_f32x4_mul(wasm_f32x4_sub(load_lanes(xr + c, lanes), m), s);
      v128_t dxhat = wasm_f32x4_mul(load_lanes(dyr + c, lanes), load_lanes(gain + c, lanes));
      store_lanes(dx + r * cols + c, wasm_f32x4_mul(s, wasm_f32x4_sub(wasm_f32x4_sub(dxhat, a), wasm_f32x4_mul(xhat, b))), lanes);
    }
  }
}

/* The largest of a vector's four lanes. */
static inline float lane_max(v128_t v) {
  float a = wasm_f32x4_extract_lane(v, 0), b = wasm_f32x4_extract_lane(v, 1), c = wasm_f32x4_extract_lane(v, 2), d = wasm_f32x4_extract_lane(v, 3);
  float ab = a > b ? a : b, cd = c > d ? c : d;
  return ab > cd ? ab : cd;
}

/*
 * Softmax cross-entropy of `rows` rows of `cols` logits against int32 labels, without the [rows, cols]
 * temporaries tfjs makes (shifted logits, exponentials, a one-hot): per row, stats[3r..3r+2] receive the
 * row's max, Σ e^(x - max) and x[label] - max, from which the caller takes log Σ - (x[label] - max).
 */
__attribute__((export_name("cross_entropy")))
void cross_entropy(const float *logits, const i32 *labels, float *stats, i32 rows, i32 cols) {
  for (i32 r = 0; r < rows; r++) {
    const float *xr = logits + r * cols;
    v128_t top = wasm_f32x4_splat(-3.4028234663852886e38f);
    for (i32 c = 0; c < cols; c += 4) {
      i32 lanes = min(4, cols - c);
      v128_t v = load_lanes(xr + c, lanes);
      /* Lanes past the row load as 0: keep them out of the max. */
      if (lanes < 4) v = wasm_v128_bitselect(v, top, wasm_i32x4_lt(wasm_i32x4_make(0, 1, 2, 3), wasm_i32x4_splat(lanes)));
      top = wasm_f32x4_max(top, v);
    }
    float max = lane_max(top);
    v128_t m = wasm_f32x4_splat(max), sum = wasm_f32x4_splat(0);
    for (i32 c = 0; c < cols; c += 4) {
      i32 lanes = min(4, cols - c);
      v128_t e = exp_nonpositive(wasm_f32x4_sub(load_lanes(xr + c, lanes), m));
      if (lanes < 4) e = wasm_v128_and(e, wasm_i32x4_lt(wasm_i32x4_make(0, 1, 2, 3), wasm_i32x4_splat(lanes)));
      sum = wasm_f32x4_add(sum, e);
    }
    stats[3 * r] = max;
    stats[3 * r + 1] = lane_sum(sum);
    /* A label outside the row must not read outside it: its loss is NaN, which stops training. */
    i32 label = labels[r];
    stats[3 * r + 2] = label >= 0 && label < cols ? xr[label] - max : __builtin_nanf("");
  }
}

/* Its gradient: dx = (e^(x - max) / Σ - one-hot(label)) · scale[0], row by row from the forward pass's stats. */
__attribute__((export_name("cross_entropy_grad")))
void cross_entropy_grad(const float *logits, const i32 *labels, const float *stats, const float *scale, float *dx, i32 rows, i32 cols) {
  for (i32 r = 0; r < rows; r++) {
    const float *xr = logits + r * cols;
    float *dr = dx + r * cols;
    v128_t m = wasm_f32x4_splat(stats[3 * r]), s = wasm_f32x4_splat(scale[0] / stats[3 * r + 1]);
    for (i32 c = 0; c < cols; c += 4) {
      i32 lanes = min(4, cols - c);
      store_lanes(dr + c, wasm_f32x4_mul(exp_nonpositive(wasm_f32x4_sub(load_lanes(xr + c, lanes), m)), s), lanes);
    }
    if (labels[r] >= 0 && labels[r] < cols) dr[labels[r]] -= scale[0];
  }
}

/*
 * out[r, c] = x[r, c] + bias[c] over `rows` rows of `cols`: a dense layer's bias, which tfjs's wasm Add
 * broadcasts element by element through index arithmetic (about ten times a plain add).
 */
__attribute__((export_name("add_rows")))
void add_rows(const float *x, const float *bias, float *out, i32 rows, i32 cols) {
  for (i32 r = 0; r < rows; r++) {
    const float *xr = x + r * cols;
    float *yr = out + r * cols;
    for (i32 c = 0; c < cols; c += 4) {
      i32 lanes = min(4, cols - c);
      store_lanes(yr + c, wasm_f32x4_add(load_lanes(xr + c, lanes), load_lanes(bias + c, lanes)), lanes);
    }
  }
}

/*
 * Attention's softmax with its scale and additive mask folded in, `rows` rows of `cols` scores:
 * out[r, c] = softmax over c of x[r, c] · scale + bias[((first + r) / rows_per_bias) · cols + c], where
 * bias is [batch, cols] (0 attended, a large negative number at padding) broadcast over a window's heads
 * and queries, and `first` is the first row's index in the whole tensor (a thread gets a range of rows).
 * One row at a time, in cache: tfjs runs a multiply, a broadcast add and its softmax over the whole
 * tensor. scale comes as its float32 bits, since the helper threads pass their arguments as int32.
 */
__attribute__((export_name("attention_softmax")))
void attention_softmax(const float *x, const float *bias, float *out, i32 rows, i32 cols, i32 rows_per_bias, i32 first, i32 scale_bits) {
  v128_t scale = wasm_f32x4_splat(__builtin_bit_cast(float, scale_bits));
  for (i32 r = 0; r < rows; r++) {
    const float *xr = x + r * cols, *br = bias + ((first + r) / rows_per_bias) * cols;
    float *yr = out + r * cols;
    v128_t top = wasm_f32x4_splat(-3.4028234663852886e38f);
    for (i32 c = 0; c < cols; c += 4) {
      i32 lanes = min(4, cols - c);
      v128_t z = MADD(load_lanes(xr + c, lanes), scale, load_lanes(br + c, lanes));
      store_lanes(yr + c, z, lanes);
      if (lanes < 4) z = wasm_v128_bitselect(z, top, wasm_i32x4_lt(wasm_i32x4_make(0, 1, 2, 3), wasm_i32x4_splat(lanes)));
      top = wasm_f32x4_max(top, z);
    }
    v128_t m = wasm_f32x4_splat(lane_max(top)), sum = wasm_f32x4_splat(0);
    for (i32 c = 0; c < cols; c += 4) {
      i32 lanes = min(4, cols - c);
      v128_t e = exp_nonpositive(wasm_f32x4_sub(load_lanes(yr + c, lanes), m));
      if (lanes < 4) e = wasm_v128_and(e, wasm_i32x4_lt(wasm_i32x4_make(0, 1, 2, 3), wasm_i32x4_splat(lanes)));
      store_lanes(yr + c, e, lanes);
      sum = wasm_f32x4_add(sum, e);
    }
    v128_t inv = wasm_f32x4_splat(1.0f / lane_sum(sum));
    for (i32 c = 0; c < cols; c += 4) {
      i32 lanes = min(4, cols - c);
      store_lanes(yr + c, wasm_f32x4_mul(load_lanes(yr + c, lanes), inv), lanes);
    }
  }
}

/* Its gradient with respect to x from the output y: dx = scale · y · (dy - Σ_c dy · y), row by row. */
__attribute__((export_name("attention_softmax_grad")))
void attention_softmax_grad(const float *y, const float *dy, float *dx, i32 rows, i32 cols, i32 scale_bits) {
  float scale = __builtin_bit_cast(float, scale_bits);
  for (i32 r = 0; r < rows; r++) {
    const float *yr = y + r * cols, *gr = dy + r * cols;
    v128_t acc = wasm_f32x4_splat(0);
    /* Past the row both load as zero, so those lanes add nothing. */
    for (i32 c = 0; c < cols; c += 4) {
      i32 lanes = min(4, cols - c);
      acc = MADD(load_lanes(gr + c, lanes), load_lanes(yr + c, lanes), acc);
    }
    v128_t dot = wasm_f32x4_splat(lane_sum(acc)), s = wasm_f32x4_splat(scale);
    for (i32 c = 0; c < cols; c += 4) {
      i32 lanes = min(4, cols - c);
      v128_t yv = load_lanes(yr + c, lanes);
      store_lanes(dx + r * cols + c, wasm_f32x4_mul(wasm_f32x4_mul(yv, s), wasm_f32x4_sub(load_lanes(gr + c, lanes), dot)), lanes);
    }
  }
}
