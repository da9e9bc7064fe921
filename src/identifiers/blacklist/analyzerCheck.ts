import { UsageError } from '../../errors.js';
import type { Blacklist } from './types.js';

const HANGUL = /\p{Script=Hangul}/u;

/**
 * Refuses to match a blacklist on Korean text with another Korean analyser than the one that built it
 * (recorded in its header as `analyzer`). Terms and matching are cut into content morphemes by the
 * analyser: mecab and the rule analyser cut some words differently, and a word one of them cut as the
 * blacklist was built may go unmatched, and so unprotected, under the other (20 of 100 canary
 * occurrences were once trained as targets so). Text without Hangul is cut by neither, and a plain term
 * list records no analyser: both pass.
 *
 * @example
 * assertSameAnalyzer(blacklist, analyzer, docs.map((d) => d.text));
 */
export function assertSameAnalyzer(blacklist: Blacklist, analyzer: { name: string } | undefined, texts: Iterable<string>): void {
  const built = blacklist.header.extra.analyzer;
  const run = analyzer?.name ?? 'none';
  if (built === undefined || built === run) return;
  for (const text of texts) {
    if (!HANGUL.test(text)) continue;
    // A run without an analyser reads Korean as English (--lang en): the language is what to change.
    const analyzerFlag = `--analyzer ${built}${built === 'mecab' ? ' (install it: apt-get install mecab)' : ''}`;
    const fix = built === 'none' ? 'use --lang en as the blacklist was built' : run === 'none' ? `use --lang ko (or auto) with ${analyzerFlag}` : `use ${analyzerFlag}`;
    throw new UsageError(`the blacklist was built with the Korean analyser "${built}" but this run cuts Korean text with "${run}": terms cut one way go unmatched, and unprotected, the other way; ${fix}, or rebuild the blacklist with this run's analyser`);
  }
}
