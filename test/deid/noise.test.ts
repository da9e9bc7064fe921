import { describe, expect, it } from 'vitest';
import { noisyOutside } from '../../src/deid/index.js';
import { Rng } from '../../src/engine/random.js';

describe('noisyOutside', () => {
  const O = 0;
  const window = { doc: 0, ids: Int32Array.from({ length: 2000 }, (_, i) => 10 + (i % 7)), labels: Int32Array.from({ length: 2000 }, (_, i) => (i === 0 || i === 1999 ? -1 : i % 4 === 0 ? 2 : O)) };
  const replacements = Int32Array.from([100, 101, 102]);

  it('replaces about the given share of "O" tokens by the given ids, and nothing else, labels kept', () => {
    const noisy = noisyOutside(window, 0.2, O, replacements, new Rng(3));
    expect(noisy.labels).toBe(window.labels);
    let outside = 0;
    let replaced = 0;
    noisy.ids.forEach((id, i) => {
      if (id === window.ids[i]) return;
      expect(window.labels[i], `position ${i}`).toBe(O);
      expect([100, 101, 102]).toContain(id);
      replaced++;
    });
    window.labels.forEach((l) => void (l === O && outside++));
    expect(replaced / outside).toBeGreaterThan(0.17);
    expect(replaced / outside).toBeLessThan(0.23);
    expect([...noisyOutside(window, 0.2, O, replacements, new Rng(3)).ids]).toEqual([...noisy.ids]);
    expect(noisyOutside(window, 0, O, replacements, new Rng(3))).toBe(window);
  });
});
