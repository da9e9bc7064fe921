import type { Document } from '../corpus/index.js';
import { Rng } from '../engine/random.js';
import { canonicalTerm, type BlacklistEntry } from '../identifiers/index.js';

export interface CanaryConfig {
  /** How many canaries to plant. */
  count: number;
  /** How many member documents of one individual each canary is planted in. */
  repeats: number;
  seed?: number;
}

const SYLLABLES = ['zor', 'quen', 'vath', 'mir', 'tal', 'ox', 'bre', 'dun', 'kai', 'lev', 'nor', 'phi', 'rus', 'sel', 'tov', 'wix'];

/**
 * Secret-Sharer-style positive controls: invented identifiers (a name and a reference number) planted
 * several times in the documents of one member each. A strategy that memorises will regurgitate them; one
 * that protects identifiers must not. They are blacklisted as direct identifiers of category CANARY.
 */
export function plantCanaries(members: readonly Document[], config: CanaryConfig): { docs: Document[]; entries: BlacklistEntry[] } {
  const rng = new Rng(config.seed ?? 20240601);
  const docs = members.map((d) => ({ ...d }));
  const byAuthor = new Map<string, number[]>();
  docs.forEach((d, i) => byAuthor.set(d.author, [...(byAuthor.get(d.author) ?? []), i]));
  const authors = [...byAuthor.keys()].sort();
  const entries: BlacklistEntry[] = [];
  const word = () => {
    const w = Array.from({ length: 2 + rng.int(2) }, () => rng.pick(SYLLABLES)).join('');
    return w[0]!.toUpperCase() + w.slice(1);
  };
  for (let c = 0; c < config.count; c++) {
    const name = `${word()} ${word()}`;
    const code = String(10_000_000 + rng.int(90_000_000));
    const author = rng.pick(authors);
    const own = byAuthor.get(author)!;
    for (let r = 0; r < config.repeats; r++) {
      const i = own[r % own.length]!;
      docs[i]!.text = `${docs[i]!.text} Emergency contact ${name}, reference ${code}.`;
    }
    for (const term of [name, code]) entries.push({ term: canonicalTerm(term), kind: 'direct', category: 'CANARY', authors: 1, occurrences: config.repeats, sources: ['canary'] });
  }
  return { docs, entries };
}
