/**
 * Learns merges the way BPE and WordPiece trainers do: count adjacent symbol pairs over words (weighted by
 * word frequency), merge the most frequent (ties broken by the pair's text, for determinism), and update the
 * counts of the affected words only, until `budget` merges or no pair reaches `minFrequency`.
 *
 * The most frequent pair comes from a max-heap with lazy updates, as in Hugging Face's trainers: a merge
 * only lowers the counts of existing pairs, so a popped entry whose count is stale is an overestimate,
 * re-queued with its current count; pairs a merge creates are queued when it is done. Symbols and pairs
 * are interned as small integers, so no string or boxed number is built per pair.
 *
 * @param join how a pair becomes one symbol (WordPiece drops the `##` of the right part; BPE concatenates).
 * @param allow whether a merged symbol may exist (e.g. not a blacklisted word); a refused pair stays split
 *   in every word and the next most frequent pair is merged instead.
 */
export function learnMerges(
  words: readonly (readonly string[])[],
  freqs: readonly number[],
  budget: number,
  minFrequency: number,
  join: (a: string, b: string) => string,
  onMerge?: (merged: string, a: string, b: string) => void,
  allow: (merged: string) => boolean = () => true,
): [string, string][] {
  const symbols: string[] = [];
  const symbolIds = new Map<string, number>();
  const intern = (s: string) => {
    let id = symbolIds.get(s);
    if (id === undefined) symbolIds.set(s, (id = symbols.push(s) - 1));
    return id;
  };
  const seqs = words.map((w) => w.map(intern));

  // Pairs are small integers: pairIndex[a].get(b) is the id of (a, b), with its symbols, count and words.
  const pairIndex: Map<number, number>[] = [];
  const left: number[] = [];
  const right: number[] = [];
  const count: number[] = [];
  const wordsWith: number[][] = [];
  const grown = new Set<number>();
  const pairId = (a: number, b: number) => {
    const row = (pairIndex[a] ??= new Map());
    let id = row.get(b);
    if (id === undefined) {
      row.set(b, (id = left.length));
      left.push(a);
      right.push(b);
      count.push(0);
      wordsWith.push([]);
    }
    return id;
  };
  const add = (a: number, b: number, wi: number, f: number) => {
    const id = pairId(a, b);
    count[id]! += f;
    if (f > 0) {
      const list = wordsWith[id]!;
      if (list[list.length - 1] !== wi) list.push(wi);
      grown.add(id);
    }
  };
  seqs.forEach((s, wi) => {
    for (let i = 0; i + 1 < s.length; i++) add(s[i]!, s[i + 1]!, wi, freqs[wi]!);
  });

  const heap = new PairHeap((id) => symbols[left[id]!]!, (id) => symbols[right[id]!]!);
  const queueGrown = () => {
    for (const id of grown) if (count[id]! > 0) heap.push(id, count[id]!);
    grown.clear();
  };
  queueGrown();

  const merges: [string, string][] = [];
  while (merges.length < budget && heap.size > 0) {
    const [id, queued] = heap.pop();
    if (count[id] !== queued) {
      if (count[id]! > 0) heap.push(id, count[id]!);
      continue;
    }
    if (queued < minFrequency || queued <= 0) break;
    const [a, b] = [left[id]!, right[id]!];
    const merged = join(symbols[a]!, symbols[b]!);
    // A refused pair leaves the queue for good, so it is never merged.
    if (!allow(merged)) continue;
    merges.push([symbols[a]!, symbols[b]!]);
    onMerge?.(merged, symbols[a]!, symbols[b]!);
    const m = intern(merged);
    for (const wi of wordsWith[id]!) seqs[wi] = mergeInWord(seqs[wi]!, a, b, m, (x, y, f) => add(x, y, wi, f), freqs[wi]!);
    wordsWith[id] = [];
    queueGrown();
  }
  return merges;
}

/**
 * Replaces (a, b) by m left to right in one word and reports the pair counts that change around each
 * occurrence (Hugging Face's `Word::merge`), so no other pair of the word is touched.
 */
function mergeInWord(s: readonly number[], a: number, b: number, m: number, add: (x: number, y: number, f: number) => void, f: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (i + 1 < s.length && s[i] === a && s[i + 1] === b) {
      add(a, b, -f);
      if (out.length > 0) {
        add(out[out.length - 1]!, a, -f);
        add(out[out.length - 1]!, m, f);
      }
      if (i + 2 < s.length) {
        add(b, s[i + 2]!, -f);
        add(m, s[i + 2]!, f);
      }
      out.push(m);
      i++;
    } else out.push(s[i]!);
  }
  return out;
}

/** A binary max-heap of pairs by count, ties by the pair's text (left symbol, then right), smallest first. */
class PairHeap {
  private readonly keys: number[] = [];
  private readonly counts: number[] = [];

  constructor(
    private readonly left: (k: number) => string,
    private readonly right: (k: number) => string,
  ) {}

  get size(): number {
    return this.keys.length;
  }

  /** Whether entry i comes before entry j. */
  private before(i: number, j: number): boolean {
    const ci = this.counts[i]!;
    const cj = this.counts[j]!;
    if (ci !== cj) return ci > cj;
    const [ki, kj] = [this.keys[i]!, this.keys[j]!];
    const li = this.left(ki);
    const lj = this.left(kj);
    if (li !== lj) return li < lj;
    return this.right(ki) < this.right(kj);
  }

  private swap(i: number, j: number): void {
    [this.keys[i], this.keys[j]] = [this.keys[j]!, this.keys[i]!];
    [this.counts[i], this.counts[j]] = [this.counts[j]!, this.counts[i]!];
  }

  push(key: number, count: number): void {
    this.keys.push(key);
    this.counts.push(count);
    for (let i = this.keys.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  pop(): [key: number, count: number] {
    const top: [number, number] = [this.keys[0]!, this.counts[0]!];
    const lastKey = this.keys.pop()!;
    const lastCount = this.counts.pop()!;
    if (this.keys.length > 0) {
      this.keys[0] = lastKey;
      this.counts[0] = lastCount;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let best = i;
        if (l < this.keys.length && this.before(l, best)) best = l;
        if (r < this.keys.length && this.before(r, best)) best = r;
        if (best === i) break;
        this.swap(i, best);
        i = best;
      }
    }
    return top;
  }
}
