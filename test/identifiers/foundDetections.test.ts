import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/engine/index.js';
import { FoundDetections, type FoundDetection } from '../../src/identifiers/foundDetections.js';

describe('FoundDetections', () => {
  it("gives back each document the detections added for it, past their arrays' first sizes (property)", () => {
    const rng = new Rng(11);
    const terms = ['john smith', 'smith', 'boston', '3/12', 'mercy hospital'];
    const labels = ['PERSON', 'LOCATION', 'DATE'];
    const added: FoundDetection[][] = [];
    const store = new FoundDetections();
    // 3,000 documents, up to 6 detections each: both the detections' and the documents' arrays grow.
    for (let doc = 0; doc < 3000; doc++) {
      const n = Math.floor(rng.next() * 7);
      const ds = Array.from({ length: n }, (_, k) => {
        const start = k * 40 + Math.floor(rng.next() * 20);
        return { start, end: start + 1 + Math.floor(rng.next() * 15), term: terms[Math.floor(rng.next() * terms.length)]!, label: labels[Math.floor(rng.next() * labels.length)]!, byCapital: rng.next() < 0.3 };
      });
      added.push(ds);
      store.add(ds);
    }
    expect(store.length).toBe(3000);
    for (const [doc, ds] of added.entries()) expect(store.of(doc)).toEqual(ds);
    expect(store.of(3000)).toEqual([]);
    expect(store.of(-1)).toEqual([]);
  });
});
