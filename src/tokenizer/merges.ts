/**
 * Learns merges the way BPE and WordPiece trainers do: count adjacent symbol pairs over words (weighted by
 * word frequency), merge the most frequent (ties broken by the pair's text, for determinism), and update the
 * counts of the affected words only, until `budget` merges or no pair reaches `minFrequency`.
 *
 * @param join how a pair becomes one symbol (WordPiece drops the `##` of the right part; BPE concatenates).
 * @param allow whether a merged symbol may exist (e.g. not a blacklisted word); a refused pair stays split
 *   in every word and the next most frequent pair is merged instead.
 */
export function learnMerges(
  words: string[][],
  freqs: readonly number[],
  budget: number,
  minFrequency: number,
  join: (a: string, b: string) => string,
  onMerge?: (merged: string, a: string, b: string) => void,
  allow: (merged: string) => boolean = () => true,
): [string, string][] {
  const key = (a: string, b: string) => `${a}\u0000${b}`;
  const pairCount = new Map<string, number>();
  const pairWords = new Map<string, Set<number>>();
  const countWord = (wi: number, sign: 1 | -1) => {
    const s = words[wi]!;
    for (let i = 0; i + 1 < s.length; i++) {
      const k = key(s[i]!, s[i + 1]!);
      pairCount.set(k, (pairCount.get(k) ?? 0) + sign * freqs[wi]!);
      if (sign === 1) {
        let set = pairWords.get(k);
        if (!set) pairWords.set(k, (set = new Set()));
        set.add(wi);
      }
    }
  };
  words.forEach((_, wi) => countWord(wi, 1));
  const merges: [string, string][] = [];
  const refused = new Set<string>();
  while (merges.length < budget) {
    let best: string | undefined;
    let bestCount = minFrequency - 1;
    for (const [k, c] of pairCount) if (!refused.has(k) && (c > bestCount || (c === bestCount && best !== undefined && k < best))) [best, bestCount] = [k, c];
    if (best === undefined || bestCount < minFrequency) break;
    const [a, b] = best.split('\u0000') as [string, string];
    const merged = join(a, b);
    if (!allow(merged)) {
      refused.add(best);
      continue;
    }
    merges.push([a, b]);
    onMerge?.(merged, a, b);
    for (const wi of pairWords.get(best) ?? []) {
      const s = words[wi]!;
      countWord(wi, -1);
      const next: string[] = [];
      for (let i = 0; i < s.length; i++) {
        if (i + 1 < s.length && s[i] === a && s[i + 1] === b) {
          next.push(merged);
          i++;
        } else next.push(s[i]!);
      }
      words[wi] = next;
      countWord(wi, 1);
    }
    pairCount.delete(best);
    pairWords.delete(best);
  }
  return merges;
}
