/**
 * In-place iterative radix-2 FFT of a complex signal held as two Float64Arrays (length a power of 2).
 * `inverse` computes the unnormalised inverse; the caller divides by the length.
 */
export function fft(re: Float64Array, im: Float64Array, inverse = false): void {
  const n = re.length;
  if (n !== im.length || (n & (n - 1)) !== 0) throw new RangeError(`fft needs two arrays of one power-of-2 length, got ${n} and ${im.length}`);
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const angle = ((inverse ? 2 : -2) * Math.PI) / len;
    const half = len >> 1;
    // Twiddles computed directly (not by repeated multiplication): no error growth over long transforms.
    const wr = new Float64Array(half);
    const wi = new Float64Array(half);
    for (let k = 0; k < half; k++) {
      wr[k] = Math.cos(angle * k);
      wi[k] = Math.sin(angle * k);
    }
    for (let start = 0; start < n; start += len) {
      for (let k = 0; k < half; k++) {
        const a = start + k;
        const b = a + half;
        const xr = re[b]! * wr[k]! - im[b]! * wi[k]!;
        const xi = re[b]! * wi[k]! + im[b]! * wr[k]!;
        re[b] = re[a]! - xr;
        im[b] = im[a]! - xi;
        re[a]! += xr;
        im[a]! += xi;
      }
    }
  }
}
