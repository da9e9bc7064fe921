/** A direct detection as the build tallied it in one document (`keepDetections`): its span widened to words, and its term. */
export interface FoundDetection {
  start: number;
  end: number;
  label: string;
  term: string;
  /** Only rules resting on a capital found it (`CAPITAL_ONLY_SOURCES`). */
  byCapital: boolean;
}

/** Int32 cells a detection takes: start, end, its term's number, and its label's number with the capital flag in the lowest bit. */
const CELLS = 4;

/**
 * Each document's direct detections, in corpus order, kept by a build for its silver labels: packed in
 * typed arrays, 16 bytes a detection and 4 a document (up to twice that while the arrays grow by
 * doubling), terms and labels held once each, so a corpus of
 * millions of notes keeps its detections in memory as the blacklist it builds keeps its terms. The
 * detections are personal data: they live in memory only, never in a file of their own.
 */
export class FoundDetections {
  private readonly terms: string[] = [];
  private readonly termIds = new Map<string, number>();
  private readonly labels: string[] = [];
  private readonly labelIds = new Map<string, number>();
  private cells = new Int32Array(CELLS * 1024);
  private used = 0;
  /** Where each document's detections end, in detections. */
  private ends = new Int32Array(1024);
  private documents = 0;

  /** The documents added so far. */
  get length(): number {
    return this.documents;
  }

  /** Adds the next document's detections. */
  add(detections: readonly FoundDetection[]): void {
    if (this.used + detections.length * CELLS > this.cells.length) this.cells = grown(this.cells, this.used + detections.length * CELLS);
    for (const d of detections) {
      const c = this.cells;
      c[this.used] = d.start;
      c[this.used + 1] = d.end;
      c[this.used + 2] = intern(d.term, this.terms, this.termIds);
      c[this.used + 3] = (intern(d.label, this.labels, this.labelIds) << 1) | (d.byCapital ? 1 : 0);
      this.used += CELLS;
    }
    if (this.documents === this.ends.length) this.ends = grown(this.ends, this.documents + 1);
    this.ends[this.documents++] = this.used / CELLS;
  }

  /** The detections of the `doc`-th document added (none past the last). */
  of(doc: number): FoundDetection[] {
    if (doc < 0 || doc >= this.documents) return [];
    const out: FoundDetection[] = [];
    for (let k = doc === 0 ? 0 : this.ends[doc - 1]!; k < this.ends[doc]!; k++) {
      const at = k * CELLS;
      const packed = this.cells[at + 3]!;
      out.push({ start: this.cells[at]!, end: this.cells[at + 1]!, term: this.terms[this.cells[at + 2]!]!, label: this.labels[packed >> 1]!, byCapital: (packed & 1) === 1 });
    }
    return out;
  }
}

function intern(value: string, values: string[], ids: Map<string, number>): number {
  let id = ids.get(value);
  if (id === undefined) {
    id = values.length;
    values.push(value);
    ids.set(value, id);
  }
  return id;
}

/** A copy of `a` with room for at least `needed` cells, doubling. */
function grown(a: Int32Array<ArrayBuffer>, needed: number): Int32Array<ArrayBuffer> {
  const out = new Int32Array(Math.max(needed, a.length * 2));
  out.set(a);
  return out;
}
