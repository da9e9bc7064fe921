import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { decodeUtf8Strict, fileSystemError } from '../../io/index.js';
import { contentWords, type MorphAnalyzer } from '../../text/index.js';
import { BlacklistMatcher } from '../blacklist/matcher.js';
import { canonicalTerm } from '../blacklist/read.js';
import type { Detection, Recognizer } from './recognizer.js';

export interface GazetteerOptions {
  category: string;
  /** Provenance written to blacklists, e.g. `list:female_names.txt`. */
  source: string;
  /**
   * In scripts with case, match only words written with an initial capital in the text: name lists
   * contain common words (Will, May, Rose) that are names only when capitalised. Default true.
   */
  requireCapitalized?: boolean;
  /** When set, a match counts only with one of these words within `contextWindow` words around it. */
  contextWords?: string[];
  contextWindow?: number;
  analyzer?: MorphAnalyzer;
}

/** Finds the terms of a list (names, places, companies) at word boundaries, through the blacklist matcher. */
export class GazetteerRecognizer implements Recognizer {
  readonly name: string;
  private readonly matcher: BlacklistMatcher;
  private readonly context: Set<string> | undefined;

  constructor(
    terms: readonly string[],
    private readonly options: GazetteerOptions,
  ) {
    this.name = options.source;
    this.matcher = new BlacklistMatcher(terms.map((term) => ({ term: canonicalTerm(term) })));
    this.context = options.contextWords ? new Set(options.contextWords.map(canonicalTerm)) : undefined;
  }

  async find(text: string): Promise<Detection[]> {
    const words = await contentWords(text, this.options.analyzer, { readings: true });
    const out: Detection[] = [];
    const window = this.options.contextWindow ?? 3;
    const firstWord = new Map(words.map((w, i) => [w.start, i]));
    for (const m of this.matcher.matchWords(words)) {
      const span = text.slice(m.start, m.end);
      if ((this.options.requireCapitalized ?? true) && !capitalized(span)) continue;
      if (this.context) {
        const i = firstWord.get(m.start) ?? 0;
        const near = words.slice(Math.max(0, i - window), i + window + 1);
        if (!near.some((w) => this.context!.has(w.norm))) continue;
      }
      out.push({ start: m.start, end: m.end, category: this.options.category, source: this.options.source });
    }
    return out;
  }
}

/** Every word that has case starts with an upper-case letter. */
function capitalized(span: string): boolean {
  return span.split(/[\s-]+/).every((w) => {
    const first = w.charAt(0);
    return first.toLowerCase() === first.toUpperCase() || first === first.toUpperCase();
  });
}

/**
 * Reads a gazetteer file: one term per line, `#` comments. Files of the PhysioNet deid lists, whose lines
 * may carry extra columns, keep the first column.
 */
export async function readGazetteer(path: string): Promise<string[]> {
  const bytes = await readFile(path).catch((err: unknown) => {
    throw fileSystemError(err, path, 'check the --gazetteer path');
  });
  return decodeUtf8Strict(bytes, path)
    .split('\n')
    .map((line) => line.split('\t')[0]!.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** The category a gazetteer file name suggests (names → PERSON, places → LOCATION, companies → ORGANIZATION). */
export function categoryForList(path: string): string {
  const name = basename(path).toLowerCase();
  if (/name/.test(name)) return 'PERSON';
  if (/place|location|countr|cit(y|ies)|street|address/.test(name)) return 'LOCATION';
  if (/compan|organi[sz]ation|hospital/.test(name)) return 'ORGANIZATION';
  return 'LIST';
}
