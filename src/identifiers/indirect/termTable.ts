import { isNgramTerm, nameLikeWord, resolveNgramOptions, type ContentWord, type NgramOptions } from '../../text/index.js';

/** The parent of a unigram in the trie. */
const ROOT = -1;
/** Slot fields: parent node, last word, node + 1 (0 while the slot is free), then the payload. */
const PARENT = 0;
const WORD = 1;
const NODE = 2;
export const PAYLOAD = 3;

/**
 * Interns the n-grams of a corpus as small integers without building their strings: each word gets an id,
 * and each n-gram is a node of a trie keyed by (the node of its first n-1 words, its last word), held in an
 * open-addressing hash in one Int32Array whose slots also carry their user's counters (`payload` fields).
 *
 * Building, hashing and collecting one string per n-gram was most of the time of blacklist building. Here
 * an n-gram costs a few integer operations and one probe, and a document's n-grams are looked up level by
 * level (all unigrams, then all bigrams, ...) so that the probes of one level are independent and the CPU
 * overlaps their cache misses. Only distinct words live in a Map (V8 caps a Map at 2^24 entries).
 */
export class TermTable {
  /** Int32 fields per slot. */
  readonly stride: number;
  private readonly wordIds = new Map<string, number>();
  private readonly wordList: string[] = [];
  /** Per node: its prefix node and last word, for spelling it out. */
  private parents = new Int32Array(1 << 12);
  private lastWords = new Int32Array(1 << 12);
  private table: Int32Array;
  private capacity = 1 << 12;
  private nodes = 0;
  /** Per word: the slot offset of its unigram + 1 (0 before it has one), found without hashing. */
  private unigrams = new Int32Array(1 << 12);
  private docWords = new Int32Array(1 << 10);
  private docNodes = new Int32Array(1 << 10);
  private docChars = new Int32Array(1 << 10);
  private docNumbers = new Uint8Array(1 << 10);
  /** Per word, whether it is an anchor; per start, whether the n-gram so far holds one. */
  private wordAnchors = new Uint8Array(1 << 10);
  private docAnchored = new Uint8Array(1 << 10);
  private docTerms = new Int32Array(1 << 12);

  constructor(readonly payload: number) {
    this.stride = PAYLOAD + payload;
    this.table = new Int32Array(this.capacity * this.stride);
  }

  /** The slots; a slot at offset `at` has its payload at `at + PAYLOAD`. Replaced when the table grows. */
  get slots(): Int32Array {
    return this.table;
  }

  /** Trie nodes: every counted n-gram and its prefixes. */
  get size(): number {
    return this.nodes;
  }

  /** Distinct words, the part of the table held in a Map. */
  get words(): number {
    return this.wordList.length;
  }

  private wordId(norm: string): number {
    let id = this.wordIds.get(norm);
    if (id === undefined) {
      id = this.wordList.length;
      this.wordIds.set(norm, id);
      this.wordList.push(norm);
      if (id === this.unigrams.length) this.unigrams = growTypedArray(this.unigrams, id * 2);
    }
    return id;
  }

  /** The offset of the slot holding (parent, word), or of the free slot where it would go. */
  private slotOf(table: Int32Array, capacity: number, parent: number, word: number): number {
    let h = Math.imul(parent, 0x9e3779b1) ^ Math.imul(word, 0x85ebca77);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 13;
    const mask = capacity - 1;
    const stride = this.stride;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const at = s * stride;
      if (table[at + NODE] === 0 || (table[at + PARENT] === parent && table[at + WORD] === word)) return at;
    }
  }

  /** The slot of (parent, word), created when new; the table has room (see {@link reserve}). */
  private intern(parent: number, word: number): number {
    const table = this.table;
    const at = this.slotOf(table, this.capacity, parent, word);
    if (table[at + NODE] !== 0) return at;
    const id = this.nodes++;
    if (id === this.parents.length) {
      this.parents = growTypedArray(this.parents, id * 2);
      this.lastWords = growTypedArray(this.lastWords, id * 2);
    }
    this.parents[id] = parent;
    this.lastWords[id] = word;
    table[at + PARENT] = parent;
    table[at + WORD] = word;
    table[at + NODE] = id + 1;
    return at;
  }

  /** Grows the table (kept at most 70% full, so probes stay short) so that `more` new nodes fit. */
  private reserve(more: number): void {
    let capacity = this.capacity;
    while ((this.nodes + more) * 10 > capacity * 7) capacity *= 2;
    if (capacity === this.capacity) return;
    const old = this.table;
    const table = new Int32Array(capacity * this.stride);
    const stride = this.stride;
    for (let from = 0; from < old.length; from += stride) {
      if (old[from + NODE] === 0) continue;
      const at = this.slotOf(table, capacity, old[from + PARENT]!, old[from + WORD]!);
      for (let f = 0; f < stride; f++) table[at + f] = old[from + f]!;
      if (old[from + PARENT] === ROOT) this.unigrams[old[from + WORD]!] = at + 1;
    }
    this.table = table;
    this.capacity = capacity;
  }

  /**
   * The slot offsets of a document's terms (its n-grams under `options`, see {@link isNgramTerm}), with
   * repeats, in a buffer that the next call overwrites. Offsets stay valid until the next call.
   */
  documentTerms(words: readonly ContentWord[], options: NgramOptions): Int32Array {
    const rule = resolveNgramOptions(options);
    const len = words.length;
    this.reserve(len * rule.max);
    if (this.docWords.length < len) {
      this.docWords = new Int32Array(len * 2);
      this.docNodes = new Int32Array(len * 2);
      this.docChars = new Int32Array(len * 2);
      this.docNumbers = new Uint8Array(len * 2);
      this.docAnchored = new Uint8Array(len * 2);
      this.wordAnchors = new Uint8Array(len * 2);
    }
    if (this.docTerms.length < len * rule.max) this.docTerms = new Int32Array(len * rule.max * 2);
    const { docWords: ids, docNodes: nodes, docChars: chars, docNumbers: numbers, docAnchored: anchored, wordAnchors, docTerms: out } = this;
    const anchor = rule.anchor;
    let count = 0;
    for (let i = 0; i < len; i++) {
      const w = words[i]!;
      const word = (ids[i] = this.wordId(w.norm));
      let at = this.unigrams[word]! - 1;
      if (at < 0) this.unigrams[word] = (at = this.intern(ROOT, word)) + 1;
      nodes[i] = this.table[at + NODE]! - 1;
      chars[i] = w.norm.length;
      numbers[i] = w.kind === 'number' ? 1 : 0;
      anchored[i] = wordAnchors[i] = anchor === undefined || anchor(w.norm) ? 1 : 0;
      // Bit 2: the word is name-like; an n-gram keeps it while every word so far is.
      if (anchor !== undefined && nameLikeWord(rule, w.norm)) wordAnchors[i] = wordAnchors[i]! | 2;
      anchored[i] = anchored[i]! | (wordAnchors[i]! & 2);
      if (isNgramTerm(rule, 1, chars[i]!, numbers[i] === 1)) out[count++] = at;
    }
    // Level n extends the (n-1)-gram starting at each i; its probes do not depend on one another.
    for (let n = 2; n <= rule.max; n++) {
      for (let i = 0; i + n <= len; i++) {
        const last = i + n - 1;
        const at = this.intern(nodes[i]!, ids[last]!);
        nodes[i] = this.table[at + NODE]! - 1;
        chars[i] = chars[i]! + 1 + words[last]!.norm.length;
        if (words[last]!.kind !== 'number') numbers[i] = 0;
        // Bit 1: some word is an anchor; bit 2: every word is name-like.
        anchored[i] = (anchored[i]! & 1) | (wordAnchors[last]! & 1) | (anchored[i]! & wordAnchors[last]! & 2);
        if (isNgramTerm(rule, n, chars[i]!, numbers[i] === 1, anchor === undefined || anchored[i] === 3)) out[count++] = at;
      }
    }
    return out.subarray(0, count);
  }

  /** The offsets of the occupied slots. */
  *occupied(): Generator<number> {
    const { table, stride } = this;
    for (let at = 0; at < table.length; at += stride) if (table[at + NODE] !== 0) yield at;
  }

  /** The term text of the slot at `at`: its normalised words joined by one space. */
  termAt(at: number): string {
    let text = this.wordList[this.table[at + WORD]!]!;
    for (let t = this.table[at + PARENT]!; t !== ROOT; t = this.parents[t]!) text = `${this.wordList[this.lastWords[t]!]!} ${text}`;
    return text;
  }

  /** The slot offset of a term text, or -1 when the corpus never had it. */
  lookup(term: string): number {
    let node = ROOT;
    let at = -1;
    for (const w of term.split(' ')) {
      const word = this.wordIds.get(w);
      if (word === undefined) return -1;
      at = this.slotOf(this.table, this.capacity, node, word);
      if (this.table[at + NODE] === 0) return -1;
      node = this.table[at + NODE]! - 1;
    }
    return at;
  }

  /** Releases the memory; the table is empty afterwards. */
  clear(): void {
    this.wordIds.clear();
    this.wordList.length = 0;
    this.nodes = 0;
    this.capacity = 1 << 12;
    this.table = new Int32Array(this.capacity * this.stride);
    this.parents = new Int32Array(1 << 12);
    this.lastWords = new Int32Array(1 << 12);
    this.unigrams = new Int32Array(1 << 12);
  }
}

/** A copy of `a` with room for `length` elements. */
function growTypedArray(a: Int32Array<ArrayBuffer>, length: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(length);
  b.set(a);
  return b;
}
