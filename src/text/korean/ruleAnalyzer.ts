import { segmentWords, isHangulWord } from '../segment.js';
import { splitParticle } from './josa.js';
import type { Morpheme, MorphAnalyzer } from './morpheme.js';

/**
 * The built-in fallback when no mecab is installed: each word is split into a stem (tagged NN) and, when
 * the word ends in a particle that agrees with the stem, that particle (tagged J). It knows no verb
 * morphology; its accuracy on gold segmentations is in docs/blacklists.md.
 */
export class RuleAnalyzer implements MorphAnalyzer {
  readonly name = 'rule';

  async analyze(text: string): Promise<Morpheme[]> {
    return analyzeByRule(text);
  }

  async close(): Promise<void> {}
}

export function analyzeByRule(text: string): Morpheme[] {
  const out: Morpheme[] = [];
  for (const w of segmentWords(text)) {
    if (!isHangulWord(w.surface)) {
      out.push({ surface: w.surface, tag: w.kind === 'number' ? 'SN' : 'SL', start: w.start, end: w.end });
      continue;
    }
    const [stem, particle] = splitParticle(w.surface);
    out.push({ surface: stem, tag: 'NN', start: w.start, end: w.start + stem.length });
    if (particle) out.push({ surface: particle, tag: 'J', start: w.start + stem.length, end: w.end });
  }
  return out;
}
