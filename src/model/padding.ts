/** One sequence of a batch and its prediction targets (positions within the sequence, and label ids). */
export interface BatchRow {
  ids: ArrayLike<number>;
  positions: ArrayLike<number>;
  labels: ArrayLike<number>;
}

/** A padded batch as flat arrays: [batch, seqLen] ids and mask, targets as flat positions (row * seqLen + col). */
export interface PaddedBatch {
  batchSize: number;
  seqLen: number;
  inputIds: Int32Array;
  attentionMask: Int32Array;
  positions: Int32Array;
  labels: Int32Array;
  /**
   * [batch, seqLen], 1 where the token's input word embedding receives no gradient (see
   * `encode`): the token is still read as context, but training cannot move its input embedding row from there.
   */
  frozenInputs?: Uint8Array;
}

/** Pads rows to the longest one; every model head (MLM, token classification, scoring) consumes this. */
export function padBatch(rows: readonly BatchRow[], padId: number): PaddedBatch {
  const seqLen = Math.max(...rows.map((r) => r.ids.length));
  const inputIds = new Int32Array(rows.length * seqLen).fill(padId);
  const attentionMask = new Int32Array(rows.length * seqLen);
  const positions: number[] = [];
  const labels: number[] = [];
  rows.forEach((r, row) => {
    inputIds.set(r.ids, row * seqLen);
    attentionMask.fill(1, row * seqLen, row * seqLen + r.ids.length);
    for (let k = 0; k < r.positions.length; k++) {
      positions.push(row * seqLen + r.positions[k]!);
      labels.push(r.labels[k]!);
    }
  });
  return { batchSize: rows.length, seqLen, inputIds, attentionMask, positions: Int32Array.from(positions), labels: Int32Array.from(labels) };
}

/**
 * Splits a padded batch into consecutive parts of at most `rows` rows (micro-batches), each keeping the
 * batch's sequence length; a part's targets are its rows' targets, re-based to the part.
 */
export function splitBatch(b: PaddedBatch, rows: number): PaddedBatch[] {
  const parts: PaddedBatch[] = [];
  for (let start = 0; start < b.batchSize; start += rows) {
    const batchSize = Math.min(rows, b.batchSize - start);
    const from = start * b.seqLen;
    const to = from + batchSize * b.seqLen;
    const keep: number[] = [];
    b.positions.forEach((p, k) => p >= from && p < to && keep.push(k));
    parts.push({
      batchSize,
      seqLen: b.seqLen,
      inputIds: b.inputIds.slice(from, to),
      attentionMask: b.attentionMask.slice(from, to),
      positions: Int32Array.from(keep, (k) => b.positions[k]! - from),
      labels: Int32Array.from(keep, (k) => b.labels[k]!),
      ...(b.frozenInputs && { frozenInputs: b.frozenInputs.slice(from, to) }),
    });
  }
  return parts;
}
