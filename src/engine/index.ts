export { selectBackend, currentBackend, BACKEND_REQUESTS } from './backend.js';
export type { BackendRequest, BackendName, BackendAttempt, BackendChoice } from './backend.js';
export { Rng } from './random.js';
export { registerKernels } from './register.js';
export { AdamW, clipByGlobalNorm, defaultNoDecay } from './adamw.js';
export type { AdamWOptions } from './adamw.js';
export { warmupCosine } from './schedule.js';
export { train, readCheckpointState, checkpointModelDir } from './trainer.js';
export type { TrainerTask, TrainerState, TrainOptions, LogEntry, BatchStep } from './trainer.js';
