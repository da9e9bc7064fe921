import { UsageError } from '../errors.js';
import type { EncoderConfig } from './config.js';
import { parameterShapes } from './params.js';
import { trainingHeapLimit, trainingTensorLimit } from '../engine/backend.js';
import { onDevice } from '../engine/heapView.js';

/** The shape of the batches a training run feeds the model. */
export interface TrainingShape {
  /** Windows per forward pass (a micro-batch when gradients are accumulated). */
  batchSize: number;
  seqLen: number;
  /** Share of positions that are prediction targets (0.15 for MLM, 1 for token classification). */
  targetShare: number;
  /** Rows of the output layer the loss is computed over (the vocabulary for MLM, the labels otherwise). */
  outputs: number;
  /**
   * DP-SGD: each window is differentiated on its own (segment by segment like any batch), and JS memory
   * also holds the sampled unit's gradient sum and the release's sum of clipped contributions, two more
   * parameter-sized copies beside the optimizer's (privacy/dpsgd.ts).
   */
  perExampleGradients?: boolean;
}

/** Estimated memory of one training step, in bytes. */
export interface TrainingMemory {
  parameters: number;
  /** The backend's heap (a GPU's memory on a device): parameters and the largest transient of a step, and on a device also the gradient sums and AdamW's moments. */
  heap: number;
  /** JavaScript memory: AdamW's two moments and the gradient sums (on a device: the moments' copies for checkpoints). */
  host: number;
  /** The largest single tensor of a step, in bytes (a GPU binds each tensor as one buffer). */
  largestTensor: number;
  /** Whether gradients and optimizer state live on the device (a GPU backend). */
  onDevice: boolean;
  /** Whether the estimate assumes activation checkpointing. */
  recompute: boolean;
  /** Windows per forward pass: the batch size, or less when the batch runs as micro-batches (exact gradient accumulation). */
  microBatch: number;
  perExampleGradients: boolean;
}

/** Above this much estimated tape, training recomputes activations: the extra forward pass then pays for itself. */
const RECOMPUTE_ABOVE = 1.25 * 2 ** 30;
/** Allocator slack: the measured BERT-base heap against the floats counted here. */
const SLACK = 1.1;

/**
 * Floats alive per block during its backward pass, counted from the ops of {@link encode} (forward
 * outputs the tape keeps, plus the gradients tfjs holds until the block's backward ends) and checked
 * against measured heaps (250 MB per BERT-base layer at batch 8 x 128 without checkpointing).
 */
function blockFloats(config: EncoderConfig, shape: TrainingShape) {
  const tokens = shape.batchSize * shape.seqLen;
  const th = tokens * config.hidden_size;
  const scores = shape.batchSize * config.num_attention_heads * shape.seqLen * shape.seqLen;
  const targets = Math.ceil(shape.targetShare * tokens);
  const table = shape.outputs * config.hidden_size;
  return {
    attention: 14 * th + 8 * scores,
    feedForward: 10 * tokens * config.intermediate_size + 6 * th,
    // Logits and their softmax gradient, and the [outputs, hidden] gradient of a tied decoder.
    head: 12 * targets * shape.outputs + 2 * table,
    // The embedding table's gradient (a segment sum over the whole vocabulary).
    embeddings: config.vocab_size * config.hidden_size + 10 * th,
    // The largest single tensors: the embedding table (and its gradient), the logits, the feed-forward's inner activations, the attention scores.
    largest: Math.max(table, config.vocab_size * config.hidden_size, targets * shape.outputs, tokens * config.intermediate_size, scores),
  };
}

/**
 * Estimates the memory of training `config` on batches of `shape`, with activation checkpointing or
 * without, with the gradient sums and AdamW moments in JavaScript memory (wasm, cpu) or on the device.
 */
export function trainingMemory(config: EncoderConfig, shape: TrainingShape, recompute: boolean, device = false): TrainingMemory {
  let parameters = 0;
  for (const dims of parameterShapes(config).values()) parameters += dims.reduce((a, d) => a * d, 1);
  const f = blockFloats(config, shape);
  const layers = config.num_hidden_layers;
  const transient = recompute
    ? Math.max(f.attention, f.feedForward, f.head, f.embeddings) + 2 * layers * shape.batchSize * shape.seqLen * config.hidden_size
    : layers * (f.attention + f.feedForward) + f.head + f.embeddings;
  const perExampleGradients = shape.perExampleGradients === true;
  // On a device: the gradient sums and both moments beside the weights, and with DP the unit's sum and the
  // release's total; JS keeps the moments' checkpoint copies.
  // On the host: moments and gradient sums, and with DP the per-unit gradient and its clipped copy.
  const state = device ? (perExampleGradients ? 5 : 3) * parameters : 0;
  const host = device ? 2 : perExampleGradients ? 5 : 3;
  return { parameters: 4 * parameters, heap: SLACK * 4 * (parameters + state + transient), host: host * 4 * parameters, largestTensor: 4 * f.largest, recompute, microBatch: shape.batchSize, perExampleGradients, onDevice: device };
}

/**
 * How a batch whose tape is too large is trained: whole with activation checkpointing (the default), or as
 * micro-batches small enough to keep their tapes, which skips the second forward pass but holds a
 * micro-batch's whole tape and every gradient at once. Measured on BERT-base at 8 x 128 (micro-batches of
 * 2): steps no faster once GELU and LayerNorm were fused (0.99x; 1.10x before), peak RSS 3.9–4.2 GB
 * against 2.4 GB; so the default keeps checkpointing, and the bench measures both (`npm run bench --
 * real-models`).
 */
export type LargeBatchStrategy = 'micro-batches' | 'recompute';

/** What a memory plan is made for; each defaults to the backend in use. */
export interface MemoryPlanOptions {
  /** Bytes the backend's memory holds (wasm32's 4 GiB: {@link trainingHeapLimit}). */
  heapLimit?: number;
  /** Whether training state stays on a GPU device (its optimizer state then counts too). */
  device?: boolean;
  /** The largest tensor the backend binds at once (a WebGPU adapter's limit). */
  tensorLimit?: number;
  /** What runs a batch whose tape is large: checkpointing (the default) or micro-batches that keep their tapes. */
  large?: LargeBatchStrategy;
}

/**
 * Plans a training run's memory: the whole batch on one tape when that is small; otherwise activation
 * checkpointing (or, asked for, micro-batches that keep their tapes); and a batch too large even
 * checkpointed runs as checkpointed micro-batches with exact gradient accumulation, the fewest that fit.
 * `fits` says whether the plan fits the backend's heap at all (wasm32's 4 GiB by default: see
 * {@link trainingHeapLimit}).
 */
export function planTrainingMemory(config: EncoderConfig, shape: TrainingShape, options: MemoryPlanOptions = {}): TrainingMemory & { fits: boolean; heapLimit: number; tensorLimit: number } {
  const { heapLimit = trainingHeapLimit(), device = onDevice(), tensorLimit = trainingTensorLimit(), large = 'recompute' } = options;
  const fitting = (m: TrainingMemory) => m.heap <= heapLimit && m.largestTensor <= tensorLimit;
  // The tape is what checkpointing and micro-batches shrink: the weights (and on a device the optimizer state) stay.
  const state = device ? SLACK * 3 * trainingMemory(config, shape, false, device).parameters : 0;
  const small = (m: TrainingMemory) => m.heap - m.parameters - state <= RECOMPUTE_ABOVE && fitting(m);
  const result = (plan: TrainingMemory) => ({ ...plan, fits: fitting(plan), heapLimit, tensorLimit });
  // The fewest micro-batches (DP-SGD differentiates one window at a time already) whose plan passes `ok`.
  const microBatches = (recompute: boolean, ok: (m: TrainingMemory) => boolean) => {
    if (shape.perExampleGradients) return undefined;
    for (let parts = 2; parts <= shape.batchSize; parts++) {
      const micro = trainingMemory(config, { ...shape, batchSize: Math.ceil(shape.batchSize / parts) }, recompute, device);
      if (ok(micro)) return micro;
    }
    return undefined;
  };
  const whole = trainingMemory(config, shape, false, device);
  if (small(whole)) return result(whole);
  const kept = large === 'micro-batches' ? microBatches(false, small) : undefined;
  if (kept) return result(kept);
  const checkpointed = trainingMemory(config, shape, true, device);
  if (fitting(checkpointed)) return result(checkpointed);
  // Nothing fits: the plan of one window at a time, the least a batch can need, is what the refusal reports.
  return result(microBatches(true, fitting) ?? (shape.perExampleGradients ? checkpointed : trainingMemory(config, { ...shape, batchSize: 1 }, true, device)));
}

const gb = (bytes: number) => (bytes / 2 ** 30).toFixed(1);

/**
 * The memory plan of a training run, refused before any step when it cannot fit: a one-line error with
 * the estimate and the flags that shrink it, instead of a run that stalls or dies at the heap's limit.
 */
export function checkTrainingMemory(config: EncoderConfig, shape: TrainingShape, large?: LargeBatchStrategy): TrainingMemory {
  const plan = planTrainingMemory(config, shape, { large });
  if (plan.largestTensor > plan.tensorLimit) {
    throw new UsageError(
      `training this model (${(plan.parameters / 4 / 1e6).toFixed(0)}M parameters) on windows of ${shape.seqLen} tokens needs a tensor of about ${gb(plan.largestTensor)} GiB even in forward passes of ${plan.microBatch} window${plan.microBatch === 1 ? '' : 's'}, ` +
        `larger than the ${gb(plan.tensorLimit)} GiB this GPU adapter binds at once (see ppmlm info); lower --seq-len if the tensor is an activation, or use --backend wasm`,
    );
  }
  if (!plan.fits) {
    throw new UsageError(
      `training this model (${(plan.parameters / 4 / 1e6).toFixed(0)}M parameters) on windows of ${shape.seqLen} tokens needs about ${gb(plan.heap)} GiB of the wasm heap even in forward passes of ${plan.microBatch} window${plan.microBatch === 1 ? '' : 's'}, ` +
        `which holds ${gb(plan.heapLimit)} GiB; lower --seq-len, or use a GPU backend (--backend webgpu or tensorflow)`,
    );
  }
  return plan;
}

/** A one-line description of a plan for progress messages. */
export function describeTrainingMemory(plan: TrainingMemory): string {
  const how = plan.perExampleGradients
    ? 'per-example gradients (DP-SGD), no activation checkpointing'
    : `activation checkpointing ${plan.recompute ? 'on' : 'off'}; forward passes of ${plan.microBatch} window${plan.microBatch === 1 ? '' : 's'}`;
  if (plan.onDevice) return `memory: ~${gb(plan.heap)} GiB on the GPU (weights, gradients, optimizer state, activations) + ${gb(plan.host)} GiB of optimizer state copies for checkpoints in JS; ${how}`;
  return `memory: ~${gb(plan.heap)} GiB backend heap + ${gb(plan.host)} GiB optimizer state and gradients in JS; ${how}`;
}
