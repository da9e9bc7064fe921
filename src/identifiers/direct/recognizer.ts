/** A direct-identifier occurrence: characters [start, end) of a text. */
export interface Detection {
  start: number;
  end: number;
  /** PII type: EMAIL, PHONE, DATE, PERSON, ... or a DeID model's label. */
  category: string;
  /** Provenance as written in blacklists: `rule:email`, `list:names.txt`, `model:<dir>`. */
  source: string;
  /**
   * The whole mention around the identifier, protected with it where written so: a title before a name and
   * the credentials after it ("Dr. Brenda Eldarkhanov PhD"), an address's building number (서울시 강서구
   * 다솜로 12). The identifier alone (start..end) stays a term of its own, protected wherever written, and is
   * what silver labels and precision count.
   */
  mention?: { start: number; end: number };
  /**
   * The family name inside a full name ("Dole" in "Bob Dole"): a term of its own, since the person is
   * most often named by it alone once introduced ("Dole said").
   */
  surname?: { start: number; end: number };
  /** The sources of the other recognisers that found the same span, which `detectDirect` kept as one. */
  alsoFoundBy?: string[];
}

/**
 * The source of a mention's term (`mr. joshua okamoto md`, `서울시 강서구 다솜로 12`). Fine-tuning protects
 * it; an audit does not score it, since its name or street is a term of its own, scored there, and a title
 * recovered says nothing of the person.
 */
export const MENTION_SOURCE = 'context:mention';

/** The source of a family name's term, taken from a full name found ({@link Detection.surname}); one of `CAPITAL_ONLY_SOURCES`. */
export const SURNAME_SOURCE = 'context:surname';

/** The spans a detection makes terms of, with their sources: the identifier, its whole mention and its family name where it has them. */
export function protectedSpans(d: Detection): { start: number; end: number; source: string }[] {
  const spans = [{ start: d.start, end: d.end, source: d.source }];
  if (d.mention !== undefined) spans.push({ ...d.mention, source: MENTION_SOURCE });
  if (d.surname !== undefined) spans.push({ ...d.surname, source: SURNAME_SOURCE });
  return spans;
}

/** The source prefix of a term fewer than k individuals used (`graph:k=2`), from the author-term graph. */
export const GRAPH_SOURCE = 'graph:';

/**
 * Whether a blacklist term only protects a mention around identifiers scored on their own. Its rarity
 * among individuals (a graph source, added to any direct term few used) makes it no identifier.
 */
export function mentionOnly(entry: { sources: readonly string[] }): boolean {
  const found = entry.sources.filter((s) => !s.startsWith(GRAPH_SOURCE));
  return found.length > 0 && found.every((s) => s === MENTION_SOURCE);
}

/**
 * Anything that finds direct identifiers in a text: patterns, gazetteers, a trained token classifier.
 * The DeID model plugs in through this interface (`model:<dir>`), so identifiers/ never imports it.
 */
export interface Recognizer {
  readonly name: string;
  find(text: string): Detection[] | Promise<Detection[]>;
  /** Frees what the recogniser holds (a model's weights); it finds nothing after. */
  close?(): Promise<void>;
}

/** Closes every recogniser that holds something, all of them even when one fails (the first failure is thrown). */
export async function closeRecognizers(recognizers: readonly Recognizer[]): Promise<void> {
  const closed = await Promise.allSettled(recognizers.map((r) => r.close?.()));
  const failed = closed.find((c): c is PromiseRejectedResult => c.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}

/**
 * The source prefix of a learned recogniser's detections (a token classifier: `model:<dir>`). Each is a
 * judgement in one context, which one occurrence may get wrong; a blacklist weighs them by how often the
 * model agreed with itself across the corpus (see `modelAgreement` of `buildBlacklist`).
 */
export const MODEL_SOURCE = 'model:';
