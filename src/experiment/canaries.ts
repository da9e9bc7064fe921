import type { Document } from '../corpus/index.js';
import { Rng } from '../engine/random.js';
import type { ExposureProbe } from '../audit/index.js';
import { ConfigError } from '../errors.js';
import { canonicalTerm, type BlacklistEntry } from '../identifiers/index.js';

export interface CanaryConfig {
  /** How many canaries to plant (default 50: with fewer, the exposure's standard error exceeds ~0.2 bits). */
  count?: number;
  /** How many member documents of one individual each canary is planted in (default 5). */
  repeats?: number;
  /** Fresh values each secret is ranked against for its exposure (default 100). */
  candidates?: number;
  seed?: number;
  /** The language of the members: canaries are written as their names and sentences look (default en). */
  language?: CanaryLanguage;
  /**
   * What is blacklisted: the two secrets (default), or the whole sentence, its fixed words too, so that
   * no token of a planted sentence is ever a target (#19's ablation D).
   */
  protect?: CanaryProtection;
}

export type CanaryProtection = 'secrets' | 'sentence';
export const CANARY_PROTECTIONS: readonly CanaryProtection[] = ['secrets', 'sentence'];

export type CanaryLanguage = 'en' | 'ko';

/** Syllables of invented names, and the sentence a canary is planted in, per language. */
const FORMS: Record<CanaryLanguage, { syllables: string[]; words: [number, number]; sentence: (name: string, code: string) => string; context: string[] }> = {
  en: {
    syllables: ['zor', 'quen', 'vath', 'mir', 'tal', 'ox', 'bre', 'dun', 'kai', 'lev', 'nor', 'phi', 'rus', 'sel', 'tov', 'wix'],
    words: [2, 3],
    sentence: (name, code) => ` Emergency contact ${name}, reference ${code}.`,
    context: ['Emergency contact', 'reference'],
  },
  // Common name syllables, so that a Korean vocabulary has them as tokens; a surname-like syllable first.
  ko: {
    syllables: ['민', '서', '준', '하', '윤', '지', '현', '우', '수', '연', '도', '예', '은', '채', '시', '유'],
    words: [3, 3],
    sentence: (name, code) => ` 비상연락처 ${name}, 참조번호 ${code}.`,
    context: ['비상연락처', '참조번호'],
  },
};

export const CANARY_LANGUAGES = Object.keys(FORMS) as CanaryLanguage[];

/** The two secrets of a canary. Probe, span and exposure labels end with the kind: `canary 3 reference`. */
export const CANARY_SECRET_KINDS = ['name', 'reference'] as const;
export type CanarySecretKind = (typeof CANARY_SECRET_KINDS)[number];

/** Which secret a canary label names; undefined for the context words of a protected sentence. */
export function secretKindOf(label: string): CanarySecretKind | undefined {
  const last = label.slice(label.lastIndexOf(' ') + 1);
  return CANARY_SECRET_KINDS.find((k) => k === last);
}

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

/** Where a canary's secret was written: a member document and the character span of the secret. */
export interface PlantedSpan {
  doc: number;
  start: number;
  end: number;
  /** Which canary, and which of its secrets. */
  label: string;
}

export interface PlantedCanaries {
  docs: Document[];
  entries: BlacklistEntry[];
  /** One probe per planted secret. */
  probes: ExposureProbe[];
  /** One probe per control secret: same generator, same sentence, same kind of document, never planted. */
  controls: ExposureProbe[];
  /** Every planted occurrence (count × repeats of each secret kind), to check that training protects them. */
  spans: PlantedSpan[];
  /** Member documents carrying a canary (left out of membership inference). */
  carriers: Set<number>;
}

/** The defaults a canary config leaves out. */
export function canaryCounts(config: CanaryConfig): { count: number; repeats: number } {
  return { count: config.count ?? 50, repeats: config.repeats ?? 5 };
}

/** How many occurrences planting writes that the blacklist must protect: both secrets, and with `protect: sentence` its fixed words, of every copy. */
export function protectedCanaryOccurrences(config: CanaryConfig): number {
  const { count, repeats } = canaryCounts(config);
  return count * repeats * (2 + (config.protect === 'sentence' ? FORMS[config.language ?? 'en'].context.length : 0));
}

/**
 * Secret-Sharer-style positive controls: invented identifiers (a name and a reference number) planted
 * several times in the documents of one member each. A strategy that memorises will regurgitate them; one
 * that protects identifiers must not. They are blacklisted as direct identifiers of category CANARY, and
 * each comes with an exposure probe: the secret against fresh values from the same generator. As many
 * control secrets, drawn from the same generator and put in the same sentence after a member document
 * but never trained on, give the exposure a model shows without memorisation: the null.
 */
export function plantCanaries(members: readonly Document[], config: CanaryConfig): PlantedCanaries {
  const language = config.language ?? 'en';
  if (!CANARY_LANGUAGES.includes(language)) throw new RangeError(`canaries: unknown language "${language}"; use ${CANARY_LANGUAGES.join(' or ')}`);
  const { count, repeats } = canaryCounts(config);
  const rng = new Rng(config.seed ?? 20240601);
  const fresh = rng.fork(1);
  const controlRng = rng.fork(2);
  const byAuthor = new Map<string, number[]>();
  members.forEach((d, i) => byAuthor.set(d.author, [...(byAuthor.get(d.author) ?? []), i]));
  const authors = [...byAuthor.keys()].sort();
  /** The canary sentences appended to each document, in order, by canary. */
  const planted = members.map((): { c: number; sentence: string; name: string; code: string }[] => []);
  const entries: BlacklistEntry[] = [];
  const candidates = () => Array.from({ length: config.candidates ?? 100 }, () => canaryValues(fresh, language));
  const pending: { c: number; doc: number; carrier: number; name: string; code: string; others: { name: string; code: string }[] }[] = [];
  const context = config.protect === 'sentence' ? FORMS[language].context : [];
  for (const term of context) entries.push({ term: canonicalTerm(term), kind: 'indirect', category: 'CANARY_CONTEXT', authors: 1, occurrences: count * repeats, sources: ['canary'] });
  for (let c = 0; c < count; c++) {
    const { name, code } = canaryValues(rng, language);
    const author = rng.pick(authors);
    const own = byAuthor.get(author)!;
    for (let r = 0; r < repeats; r++) planted[own[r % own.length]!]!.push({ c, sentence: FORMS[language].sentence(name, code), name, code });
    for (const term of [name, code]) entries.push({ term: canonicalTerm(term), kind: 'direct', category: 'CANARY', authors: 1, occurrences: repeats, sources: ['canary'] });
    pending.push({ c, doc: own[0]!, carrier: authors.indexOf(author), name, code, others: candidates() });
  }
  const spans: PlantedSpan[] = [];
  const withCanaries = (i: number, keep: (c: number, seen: boolean) => boolean, record = false) => {
    const seen = new Set<number>();
    let text = members[i]!.text;
    for (const { c, sentence, name, code } of planted[i]!) {
      if (keep(c, seen.has(c))) {
        if (record) {
          for (const [secret, kind] of [[name, 'name'], [code, 'reference'], ...context.map((w) => [w, 'context'] as const)] as const) {
            const start = text.length + sentence.indexOf(secret);
            spans.push({ doc: i, start, end: start + secret.length, label: `canary ${c + 1} ${kind}` });
          }
        }
        text += sentence;
      }
      seen.add(c);
    }
    return text;
  };
  const docs = members.map((d, i) => ({ ...d, text: withCanaries(i, () => true, true) }));
  // A probe's error is clustered by the member whose text holds it: a canary's two secrets share a
  // sentence, and canaries drawn for one member share that member's text (the audit's standard errors).
  const probeOf = (c: string, text: string, name: string, code: string, others: { name: string; code: string }[], member: number): ExposureProbe[] => [
    { label: `${c} name`, text, secret: name, candidates: others.map((o) => o.name), cluster: `member ${member}` },
    { label: `${c} reference`, text, secret: code, candidates: others.map((o) => o.code), cluster: `member ${member}` },
  ];
  // Probes read a document as trained on, with every canary in place except further copies of the probed
  // one: an individual with fewer documents than repeats carries several copies in one document, and a
  // model can then fill a masked copy in from the next one without having memorised anything.
  const probes = pending.flatMap(({ c, doc, carrier, name, code, others }) => probeOf(`canary ${c + 1}`, withCanaries(doc, (other, seen) => other !== c || !seen), name, code, others, carrier));
  // Controls: the same sentence after a member document as trained on, with a secret never planted.
  const controls = Array.from({ length: count }, (_, c) => {
    const { name, code } = canaryValues(controlRng, language);
    const doc = controlRng.int(members.length);
    return probeOf(`control ${c + 1}`, docs[doc]!.text + FORMS[language].sentence(name, code), name, code, candidates(), authors.indexOf(members[doc]!.author));
  }).flat();
  return { docs, entries, probes, controls, spans, carriers: new Set(planted.flatMap((p, i) => (p.length ? [i] : []))) };
}

/**
 * Stops an experiment whose canaries would not measure what they claim: every planted occurrence must be
 * matched by the blacklist and all its tokens protected (the positions fine-tuning excludes), else a
 * constrained model's score on them says nothing. `expected` = canaries × repeats × 2 secrets (name and
 * reference); `isProtected` applies the protected-position definition fine-tuning uses.
 */
export function assertCanariesProtected(spans: readonly PlantedSpan[], expected: number, isProtected: (span: PlantedSpan) => boolean, file?: string): void {
  const missed = spans.filter((s) => !isProtected(s));
  if (spans.length !== expected || missed.length > 0) {
    const which = missed.slice(0, 3).map((s) => s.label).join(', ');
    throw new ConfigError(`${spans.length - missed.length} of ${expected} planted canary occurrences are matched and protected${which ? ` (not: ${which}${missed.length > 3 ? ', ...' : ''})` : ''}; check "canaries.language" and "lang" against the members' language`, { file });
  }
}
