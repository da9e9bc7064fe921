import type { Encoding } from '../tokenizer/index.js';
import { isHangulWord, splitParticle } from '../text/index.js';
import { agreeParticle } from './surrogates.js';

/** A detected entity: characters [start, end) of the original text, with its label. */
export interface EntitySpan {
  start: number;
  end: number;
  label: string;
}

const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;

/**
 * Widens a span to the whole word it sits in, so a name is never half replaced (김민B); a Korean particle
 * after the word stays outside (김민서에게 → 김민서).
 */
function toWordBoundaries(text: string, span: EntitySpan): EntitySpan {
  let { start, end } = span;
  while (start > 0 && WORD_CHAR.test(text[start - 1]!)) start--;
  let wordEnd = end;
  while (wordEnd < text.length && WORD_CHAR.test(text[wordEnd]!)) wordEnd++;
  if (wordEnd > end) {
    const word = text.slice(start, wordEnd);
    const [stem] = isHangulWord(word) ? splitParticle(word) : [word];
    end = Math.max(end, start + stem.length);
  }
  return { ...span, start, end };
}

/**
 * Merges runs of tokens with the same non-O label into entity spans (tokens separated by spaces only),
 * widened to whole words.
 */
export function entitySpans(text: string, encoding: Encoding, predicted: readonly string[]): EntitySpan[] {
  const out: EntitySpan[] = [];
  const content = encoding.offsets.map((o, i) => ({ o, special: encoding.special[i] })).filter((x) => !x.special);
  content.forEach(({ o: [s, e] }, i) => {
    const label = predicted[i] ?? 'O';
    if (label === 'O') return;
    const last = out.at(-1);
    if (last && last.label === label && /^\s*$/.test(text.slice(last.end, s))) last.end = e;
    else out.push({ start: s, end: e, label });
  });
  const widened = out.map((span) => toWordBoundaries(text, span));
  return widened.filter((span, i) => i === 0 || span.start >= widened[i - 1]!.end);
}

/** A, B, ..., Z, AA, AB, ... as courts letter the parties. */
export function letterFor(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

export type ReplaceStyle = 'letter' | 'tag';

/**
 * Rewrites a text with each distinct entity (label + surface) replaced by a consistent letter (A, B, ...)
 * or a category tag (`[내국인이름]`), and the particle after it made to agree with the replacement.
 */
export function replaceEntities(text: string, spans: readonly EntitySpan[], style: ReplaceStyle = 'letter'): { text: string; replacements: (EntitySpan & { surface: string; replacement: string })[] } {
  const ids = new Map<string, string>();
  const replacements: (EntitySpan & { surface: string; replacement: string })[] = [];
  let out = '';
  let at = 0;
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  for (const [i, span] of sorted.entries()) {
    if (span.start < at) continue;
    const surface = text.slice(span.start, span.end);
    const key = `${span.label}\u0000${surface}`;
    let replacement = ids.get(key);
    if (replacement === undefined) {
      replacement = style === 'tag' ? `[${span.label}]` : letterFor(ids.size);
      ids.set(key, replacement);
    }
    out += text.slice(at, span.start) + replacement;
    at = span.end;
    // The particle can only sit in the text before the next entity.
    const nextStart = sorted.slice(i + 1).find((s) => s.start >= at)?.start ?? text.length;
    const tail = text.slice(at, nextStart);
    // A tag is read as its label: [내국인이름]은.
    const fixed = agreeParticle(replacement.replace(/[[\]]/g, ''), tail);
    out += fixed;
    at += tail.length;
    replacements.push({ ...span, surface, replacement });
  }
  return { text: out + text.slice(at), replacements };
}
