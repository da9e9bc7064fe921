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
  /** The language of the members: canaries are written as their names and sentences look (default en). */
  language?: CanaryLanguage;
}

export type CanaryLanguage = 'en' | 'ko';

/** Syllables of invented names, and the sentence a canary is planted in, per language. */
const FORMS: Record<CanaryLanguage, { syllables: string[]; words: [number, number]; sentence: (name: string, code: string) => string }> = {
  en: {
    syllables: ['zor', 'quen', 'vath', 'mir', 'tal', 'ox', 'bre', 'dun', 'kai', 'lev', 'nor', 'phi', 'rus', 'sel', 'tov', 'wix'],
    words: [2, 3],
    sentence: (name, code) => ` Emergency contact ${name}, reference ${code}.`,
  },
  // Common name syllables, so that a Korean vocabulary has them as tokens; a surname-like syllable first.
  ko: {
    syllables: ['민', '서', '준', '하', '윤', '지', '현', '우', '수', '연', '도', '예', '은', '채', '시', '유'],
    words: [3, 3],
    sentence: (name, code) => ` 비상연락처 ${name}, 참조번호 ${code}.`,
  },
};

export const CANARY_LANGUAGES = Object.keys(FORMS) as CanaryLanguage[];

/** A random canary name and reference number of `language`, from `rng`. */
function canaryValues(rng: Rng, language: CanaryLanguage): { name: string; code: string } {
  const { syllables, words: [shortest, longest] } = FORMS[language];
  const word = () => {
    const w = Array.from({ length: shortest + rng.int(longest - shortest + 1) }, () => rng.pick(syllables)).join('');
    return w[0]!.toUpperCase() + w.slice(1);
  };
  const name = language === 'ko' ? word() : `${word()} ${word()}`;
  return { name, code: String(10_000_000 + rng.int(90_000_000)) };
}

/**
 * Secret-Sharer-style positive controls: invented identifiers (a name and a reference number) planted
 * several times in the documents of one member each. A strategy that memorises will regurgitate them; one
 * that protects identifiers must not. They are blacklisted as direct identifiers of category CANARY, and
 * each comes with an exposure probe: the secret against fresh values from the same generator.
 */
export function plantCanaries(members: readonly Document[], config: CanaryConfig): { docs: Document[]; entries: BlacklistEntry[]; probes: ExposureProbe[] } {
  const language = config.language ?? 'en';
  if (!CANARY_LANGUAGES.includes(language)) throw new RangeError(`canaries: unknown language "${language}"; use ${CANARY_LANGUAGES.join(' or ')}`);
  const rng = new Rng(config.seed ?? 20240601);
  const fresh = rng.fork(1);
  const byAuthor = new Map<string, number[]>();
  members.forEach((d, i) => byAuthor.set(d.author, [...(byAuthor.get(d.author) ?? []), i]));
  const authors = [...byAuthor.keys()].sort();
  /** The canary sentences appended to each document, in order, by canary. */
  const planted = members.map((): { c: number; sentence: string }[] => []);
  const entries: BlacklistEntry[] = [];
  const pending: { c: number; doc: number; name: string; code: string; others: { name: string; code: string }[] }[] = [];
  for (let c = 0; c < config.count; c++) {
    const { name, code } = canaryValues(rng, language);
    const author = rng.pick(authors);
    const own = byAuthor.get(author)!;
    for (let r = 0; r < config.repeats; r++) planted[own[r % own.length]!]!.push({ c, sentence: FORMS[language].sentence(name, code) });
    for (const term of [name, code]) entries.push({ term: canonicalTerm(term), kind: 'direct', category: 'CANARY', authors: 1, occurrences: config.repeats, sources: ['canary'] });
    pending.push({ c, doc: own[0]!, name, code, others: Array.from({ length: config.candidates ?? 100 }, () => canaryValues(fresh, language)) });
  }
  const withCanaries = (i: number, keep: (c: number, seen: boolean) => boolean) => {
    const seen = new Set<number>();
    let text = members[i]!.text;
    for (const { c, sentence } of planted[i]!) {
      if (keep(c, seen.has(c))) text += sentence;
      seen.add(c);
    }
    return text;
  };
  const docs = members.map((d, i) => ({ ...d, text: withCanaries(i, () => true) }));
  // Probes read a document as trained on, with every canary in place except further copies of the probed
  // one: an individual with fewer documents than repeats carries several copies in one document, and a
  // model can then fill a masked copy in from the next one without having memorised anything.
  const probes = pending.flatMap(({ c, doc, name, code, others }): ExposureProbe[] => {
    const text = withCanaries(doc, (other, seen) => other !== c || !seen);
    return [
      { label: `canary ${c + 1} name`, text, secret: name, candidates: others.map((o) => o.name) },
      { label: `canary ${c + 1} reference`, text, secret: code, candidates: others.map((o) => o.code) },
    ];
  });
  return { docs, entries, probes };
}
