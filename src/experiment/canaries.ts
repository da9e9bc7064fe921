import type { Document } from '../corpus/index.js';
import { Rng } from '../engine/random.js';
import type { ExposureProbe } from '../audit/index.js';
import { canonicalTerm, type BlacklistEntry } from '../identifiers/index.js';

export interface CanaryConfig {
  /** How many canaries to plant. */
  count: number;
  /** How many member documents of one individual each canary is planted in. */
  repeats: number;
  /** Fresh values each secret is ranked against for its exposure (default 100). */
  candidates?: number;
  seed?: number;
}

const SYLLABLES = ['zor', 'quen', 'vath', 'mir', 'tal', 'ox', 'bre', 'dun', 'kai', 'lev', 'nor', 'phi', 'rus', 'sel', 'tov', 'wix'];

/** A random canary name (two invented words) and reference number, from `rng`. */
function canaryValues(rng: Rng): { name: string; code: string } {
  const word = () => {
    const w = Array.from({ length: 2 + rng.int(2) }, () => rng.pick(SYLLABLES)).join('');
    return w[0]!.toUpperCase() + w.slice(1);
  };
  return { name: `${word()} ${word()}`, code: String(10_000_000 + rng.int(90_000_000)) };
}

/**
 * Secret-Sharer-style positive controls: invented identifiers (a name and a reference number) planted
 * several times in the documents of one member each. A strategy that memorises will regurgitate them; one
 * that protects identifiers must not. They are blacklisted as direct identifiers of category CANARY, and
 * each comes with an exposure probe: the secret against fresh values from the same generator.
 */
export function plantCanaries(members: readonly Document[], config: CanaryConfig): { docs: Document[]; entries: BlacklistEntry[]; probes: ExposureProbe[] } {
  const rng = new Rng(config.seed ?? 20240601);
  const fresh = rng.fork(1);
  const docs = members.map((d) => ({ ...d }));
  const byAuthor = new Map<string, number[]>();
  docs.forEach((d, i) => byAuthor.set(d.author, [...(byAuthor.get(d.author) ?? []), i]));
  const authors = [...byAuthor.keys()].sort();
  const entries: BlacklistEntry[] = [];
  const pending: { c: number; doc: number; name: string; code: string; others: { name: string; code: string }[] }[] = [];
  for (let c = 0; c < config.count; c++) {
    const { name, code } = canaryValues(rng);
    const author = rng.pick(authors);
    const own = byAuthor.get(author)!;
    for (let r = 0; r < config.repeats; r++) {
      const i = own[r % own.length]!;
      docs[i]!.text = `${docs[i]!.text} Emergency contact ${name}, reference ${code}.`;
    }
    for (const term of [name, code]) entries.push({ term: canonicalTerm(term), kind: 'direct', category: 'CANARY', authors: 1, occurrences: config.repeats, sources: ['canary'] });
    pending.push({ c, doc: own[0]!, name, code, others: Array.from({ length: config.candidates ?? 100 }, () => canaryValues(fresh)) });
  }
  // Probes read the documents as trained on, with every canary in place.
  const probes = pending.flatMap(({ c, doc, name, code, others }): ExposureProbe[] => [
    { label: `canary ${c + 1} name`, text: docs[doc]!.text, secret: name, candidates: others.map((o) => o.name) },
    { label: `canary ${c + 1} reference`, text: docs[doc]!.text, secret: code, candidates: others.map((o) => o.code) },
  ]);
  return { docs, entries, probes };
}
