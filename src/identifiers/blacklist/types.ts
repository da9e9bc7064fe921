/** Whether a term identifies someone by itself (direct) or by being rare among individuals (indirect). */
export type IdentifierKind = 'direct' | 'indirect';

/** One blacklisted term. */
export interface BlacklistEntry {
  /** Normalised (NFKC, case-folded), whitespace collapsed: the form the matcher compares. */
  term: string;
  kind: IdentifierKind;
  /** The PII type (PERSON, DATE, PHONE, ...), a DeID label, or RARE for an indirect identifier. */
  category: string;
  /** Distinct individuals who used the term in the corpus (0 when unknown, e.g. from a plain list). */
  authors: number;
  occurrences: number;
  /** Provenance: `graph:k=2`, `rule:email`, `model:<name>`, `list:<file>`. */
  sources: readonly string[];
}

export interface BlacklistHeader {
  /** Format version; readers reject newer versions. */
  version: 1;
  /** The k of the author-word graph: terms used by fewer than k individuals are indirect identifiers. */
  k?: number;
  ngrams?: [number, number];
  /** sha256 (first 16 hex digits) of the corpus the list was built from. */
  corpus?: string;
  created?: string;
  /** Other `# key: value` lines, kept on a round trip. */
  extra: Record<string, string>;
}

export interface Blacklist {
  header: BlacklistHeader;
  entries: BlacklistEntry[];
}

export const BLACKLIST_COLUMNS = ['term', 'kind', 'category', 'authors', 'occurrences', 'sources'] as const;
export const BLACKLIST_FORMAT_VERSION = 1;
