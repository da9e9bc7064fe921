import { describe, expect, it } from 'vitest';
import { checkCanaries, plantCanaries, protectedCanaryOccurrences, secretKindOf } from '../../src/experiment/index.js';
import { ConfigError } from '../../src/errors.js';
import type { Blacklist } from '../../src/identifiers/index.js';
import { trainWordPiece } from '../../src/tokenizer/index.js';
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

  it('gives each secret an exposure probe: its training text and fresh values of the same form', () => {
    const members = generateClinicalNotes(5, 6, 4);
    const { docs, probes } = plantCanaries(members, { count: 2, repeats: 3, candidates: 30 });
    expect(probes.map((p) => p.label)).toEqual(['canary 1 name', 'canary 1 reference', 'canary 2 name', 'canary 2 reference']);
    for (const p of probes) {
      expect(docs.some((d) => d.text === p.text)).toBe(true);
      expect(p.text).toContain(p.secret);
      expect(p.candidates).toHaveLength(30);
      expect(p.candidates).not.toContain(p.secret);
      const form = p.label.endsWith('name') ? /^[A-Z][a-z]+ [A-Z][a-z]+$/ : /^\d{8}$/;
      expect(p.secret).toMatch(form);
      for (const c of p.candidates) expect(c).toMatch(form);
      for (const c of p.candidates) expect(docs.every((d) => !d.text.includes(c))).toBe(true);
    }
  });

  it('clusters each probe by the member whose text holds it: a canary\'s two secrets share one', () => {
    const members = generateClinicalNotes(5, 6, 4);
    const { docs, probes, controls } = plantCanaries(members, { count: 8, repeats: 2 });
    for (const set of [probes, controls]) {
      for (let i = 0; i < set.length; i += 2) expect(set[i]!.cluster).toBe(set[i + 1]!.cluster);
      for (const p of set) expect(p.cluster).toMatch(/^member \d+$/);
    }
    // The cluster is the carrier: the probe's text is one of that member's documents.
    const authors = [...new Set(members.map((d) => d.author))].sort();
    for (const p of probes) expect(docs.find((d) => d.text === p.text)!.author).toBe(authors[Number(p.cluster!.slice(7))]);
  });

  it('writes Korean canaries for Korean members: three-syllable Hangul names in a Korean sentence', () => {
    const members = [1, 2, 3].map((i) => ({ id: String(i), author: `a${i}`, text: '피고인은 피해자를 폭행하였다.' }));
    const { docs, probes } = plantCanaries(members, { count: 2, repeats: 2, candidates: 10, language: 'ko' });
    const names = probes.filter((p) => p.label.endsWith('name'));
    for (const p of names) for (const v of [p.secret, ...p.candidates]) expect(v).toMatch(/^[\uac00-\ud7a3]{3}$/);
    expect(docs.filter((d) => d.text.includes(`비상연락처 ${names[0]!.secret}, 참조번호`))).toHaveLength(1);
    expect(() => plantCanaries(members, { count: 1, repeats: 1, language: 'fr' as 'ko' })).toThrow(/unknown language "fr"/);
  });

  it('probes with one copy of the secret when its individual has fewer documents than repeats', () => {
    const members = [1, 2].map((i) => ({ id: String(i), author: `a${i}`, text: `Note ${i}.` }));
    const { docs, probes } = plantCanaries(members, { count: 1, repeats: 3, candidates: 5 });
    const [probe] = probes;
    const copies = (text: string) => text.split(probe!.secret).length - 1;
    expect(docs.map((d) => copies(d.text)).sort()).toEqual([0, 3]);
    expect(copies(probe!.text)).toBe(1);
    expect(docs.some((d) => d.text.startsWith(probe!.text))).toBe(true);
  });

  it('draws as many never-planted control secrets from the same generator, after member documents as trained on', () => {
    const members = generateClinicalNotes(5, 6, 4);
    const { docs, probes, controls } = plantCanaries(members, { count: 3, repeats: 2, candidates: 10 });
    expect(controls.map((p) => p.label)).toEqual(['control 1 name', 'control 1 reference', 'control 2 name', 'control 2 reference', 'control 3 name', 'control 3 reference']);
    const planted = new Set(probes.map((p) => p.secret));
    for (const c of controls) {
      expect(c.secret).toMatch(c.label.endsWith('name') ? /^[A-Z][a-z]+ [A-Z][a-z]+$/ : /^\d{8}$/);
      expect(planted.has(c.secret)).toBe(false);
      expect(docs.every((d) => !d.text.includes(c.secret))).toBe(true);
      expect(docs.some((d) => c.text.startsWith(d.text) && c.text.slice(d.text.length).startsWith(' Emergency contact '))).toBe(true);
      expect(c.candidates).toHaveLength(10);
    }
  });

  it('plans 50 canaries by default and records every planted occurrence and the documents carrying them', () => {
    const members = generateClinicalNotes(5, 6, 4);
    const { docs, spans, carriers, probes } = plantCanaries(members, { candidates: 2 });
    expect(probes).toHaveLength(100);
    // 50 canaries x 5 repeats x (name, reference).
    expect(spans).toHaveLength(500);
    for (const s of spans) expect(docs[s.doc]!.text.slice(s.start, s.end)).toMatch(s.label.endsWith('name') ? /^[A-Z][a-z]+ [A-Z][a-z]+$/ : /^\d{8}$/);
    expect([...carriers].sort((a, b) => a - b)).toEqual([...new Set(spans.map((s) => s.doc))].sort((a, b) => a - b));
  });

  it('stops the experiment when a planted occurrence is not matched and protected', async () => {
    const members = generateClinicalNotes(5, 6, 4);
    const planted = plantCanaries(members, { count: 3, repeats: 2, candidates: 2 });
    const tokenizer = await trainWordPiece(planted.docs.map((d) => d.text), { vocabSize: 300, minFrequency: 2 });
    const blacklist: Blacklist = { header: { version: 1, extra: {} }, entries: planted.entries };
    await expect(checkCanaries(planted, planted.docs, 12, { blacklist, tokenizer })).resolves.toBeUndefined();
    // The second canary's name is missing from the blacklist: its 2 occurrences are neither matched nor protected.
    const without = { ...blacklist, entries: planted.entries.filter((_, i) => i !== 2) };
    const err = await checkCanaries(planted, planted.docs, 12, { blacklist: without, tokenizer }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/^10 of 12 planted canary occurrences are matched and protected \(not: canary 2 name, canary 2 name\)/);
    // A count that disagrees with what was planted stops it too.
    await expect(checkCanaries(planted, planted.docs, 14, { blacklist, tokenizer })).rejects.toThrow(/12 of 14 planted canary occurrences/);
  });

  it('with protect: sentence, blacklists the sentence\'s fixed words too, so that every word of every copy is protected (en and ko)', async () => {
    const members = generateClinicalNotes(5, 6, 4);
    const config = { count: 3, repeats: 2, candidates: 2, protect: 'sentence' as const };
    const planted = plantCanaries(members, config);
    expect(planted.entries.filter((e) => e.category === 'CANARY_CONTEXT').map((e) => e.term)).toEqual(['emergency contact', 'reference']);
    expect(planted.entries.filter((e) => e.category === 'CANARY')).toEqual(plantCanaries(members, { ...config, protect: 'secrets' }).entries);
    expect(protectedCanaryOccurrences(config)).toBe(3 * 2 * 4);
    expect(protectedCanaryOccurrences({ ...config, protect: 'secrets' })).toBe(12);
    const tokenizer = await trainWordPiece(planted.docs.map((d) => d.text), { vocabSize: 300, minFrequency: 2 });
    const blacklist: Blacklist = { header: { version: 1, extra: {} }, entries: planted.entries };
    await expect(checkCanaries(planted, planted.docs, 24, { blacklist, tokenizer })).resolves.toBeUndefined();
    const secretsOnly = { ...blacklist, entries: planted.entries.filter((e) => e.category === 'CANARY') };
    await expect(checkCanaries(planted, planted.docs, 24, { blacklist: secretsOnly, tokenizer })).rejects.toThrow(/^12 of 24 planted canary occurrences .*canary 1 context/);
    const ko = [1, 2, 3].map((i) => ({ id: String(i), author: `a${i}`, text: '피고인은 피해자를 폭행하였다.' }));
    expect(plantCanaries(ko, { count: 1, repeats: 1, language: 'ko', protect: 'sentence' }).entries.filter((e) => e.category === 'CANARY_CONTEXT').map((e) => e.term)).toEqual(['비상연락처', '참조번호']);
  });
});

describe('secretKindOf', () => {
  it('reads the kind of secret from every probe, control and span label, and none from a protected sentence\'s context', () => {
    const members = generateClinicalNotes(5, 6, 4);
    const { probes, controls, spans } = plantCanaries(members, { count: 2, repeats: 2, protect: 'sentence' });
    expect(probes.map((p) => secretKindOf(p.label))).toEqual(['name', 'reference', 'name', 'reference']);
    expect(controls.map((p) => secretKindOf(p.label))).toEqual(['name', 'reference', 'name', 'reference']);
    const kinds = spans.map((s) => secretKindOf(s.label));
    expect(kinds.filter((k) => k === 'name')).toHaveLength(4);
    expect(kinds.filter((k) => k === 'reference')).toHaveLength(4);
    expect(kinds.filter((k) => k === undefined)).toHaveLength(spans.length - 8);
    expect(spans.length).toBeGreaterThan(8);
  });
});
