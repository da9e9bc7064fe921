import { describe, expect, it } from 'vitest';
import { plantCanaries } from '../../src/experiment/index.js';
import { generateClinicalNotes } from '../../examples/clinical-en/generate.js';

describe('plantCanaries', () => {
  it('plants each canary `repeats` times in one individual\'s documents and blacklists it as CANARY', () => {
    const members = generateClinicalNotes(5, 6, 4);
    const { docs, entries } = plantCanaries(members, { count: 3, repeats: 4 });
    expect(entries).toHaveLength(6);
    expect(entries.every((e) => e.kind === 'direct' && e.category === 'CANARY')).toBe(true);
    const [name] = entries;
    const carrying = docs.filter((d) => d.text.toLowerCase().includes(name!.term));
    expect(carrying).toHaveLength(4);
    expect(new Set(carrying.map((d) => d.author)).size).toBe(1);
    expect(members.every((d) => !d.text.includes('Emergency contact'))).toBe(true);
    expect(plantCanaries(members, { count: 3, repeats: 4 }).entries).toEqual(entries);
  });
});
