import { open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FormatError, UsageError } from '../errors.js';
import { recoverAtomicPath } from '../io/index.js';
import type { AdamWState } from './adamw.js';
import { diffRunConfig, type RunConfig } from './runConfig.js';
import { checkResumePoint, parseTrainerState, type TrainingPlan } from './trainerState.js';
import type { TrainerState } from './trainer.js';

/*
 * A checkpoint folder (`<out>.checkpoint/`) holds train_log.jsonl, `checkpoint/` (the model files,
 * optimizer.json + optimizer.bin, trainer_state.json, run_config.json) and, with keepBest, `best/`.
 */
const CHECKPOINT = 'checkpoint';
const BEST = 'best';
/** The trainer's log (one JSON line per logged step and evaluation), beside the checkpoint. */
export const TRAIN_LOG = 'train_log.jsonl';
const STATE = 'trainer_state.json';
const RUN_CONFIG = 'run_config.json';

/** The checkpoint folder of a run writing the model folder `out`. */
export const checkpointDirFor = (out: string) => `${out}.checkpoint`;

/** The model folder inside a checkpoint, for loading the parameters to resume from. */
export const checkpointModelDir = (checkpointDir: string) => join(checkpointDir, CHECKPOINT);

/** The model folder of the best evaluation so far (TrainOptions.keepBest), inside a checkpoint folder. */
export const bestModelDir = (checkpointDir: string) => join(checkpointDir, BEST);

/** The two ways out of a checkpoint that cannot be resumed, for the end of every such message. */
const startOver = (checkpointDir: string) => `delete ${checkpointDir} or run with --force instead of --resume to start over`;

/** Whether a checkpoint folder holds a checkpoint to resume (its trainer state), valid or not. */
export const hasCheckpoint = (checkpointDir: string) =>
  stat(join(checkpointModelDir(checkpointDir), STATE)).then(
    () => true,
    () => false,
  );

/**
 * Writes the trainer's part of a checkpoint into its (temp) model folder: optimizer moments as raw float32
 * (m then v of each parameter, in the order of optimizer.json), parameter by parameter so that no second
 * copy is made; the trainer state; the run configuration it is resumed against.
 */
export async function writeCheckpointFiles(dir: string, opt: AdamWState, state: TrainerState, runConfig: RunConfig | undefined): Promise<void> {
  const names = [...opt.m.keys()];
  const file = await open(join(dir, 'optimizer.bin'), 'w', 0o600);
  try {
    for (const n of names) {
      for (const values of [opt.m.get(n)!, opt.v.get(n)!]) await file.write(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
    }
  } finally {
    await file.close();
  }
  await writeFile(join(dir, 'optimizer.json'), JSON.stringify({ names, step: opt.step }));
  await writeFile(join(dir, STATE), JSON.stringify(state, null, 2));
  if (runConfig) await writeFile(join(dir, RUN_CONFIG), JSON.stringify(runConfig, null, 2));
}

/**
 * Loads optimizer moments into `opt` after checking optimizer.json (the model's parameter names exactly,
 * the step of the trainer state) and optimizer.bin (exactly 2 × 4 bytes per parameter value).
 */
async function loadOptimizer(checkpointDir: string, opt: AdamWState, step: number): Promise<void> {
  const dir = checkpointModelDir(checkpointDir);
  const metaFile = join(dir, 'optimizer.json');
  const binFile = join(dir, 'optimizer.bin');
  const bad = (file: string, why: string) => new FormatError(`${why}; ${startOver(checkpointDir)}`, { file });
  const text = await readFile(metaFile, 'utf8').catch(() => undefined);
  if (text === undefined) throw bad(metaFile, 'optimizer state is missing, the checkpoint is incomplete');
  let meta: { names?: unknown; step?: unknown };
  try {
    meta = JSON.parse(text) as typeof meta;
  } catch {
    throw bad(metaFile, 'optimizer state is not valid JSON, the checkpoint is corrupt');
  }
  const names = meta?.names;
  if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) throw bad(metaFile, '"names" must be an array of parameter names');
  if (meta.step !== step) throw bad(metaFile, `"step" is ${JSON.stringify(meta.step)} but the trainer state is at step ${step}`);
  const foreign = names.find((n) => !opt.m.has(n));
  if (foreign !== undefined) throw bad(metaFile, `names parameter ${foreign} that the model lacks; the checkpoint belongs to another model`);
  const missing = [...opt.m.keys()].find((n) => !names.includes(n));
  if (missing !== undefined) throw bad(metaFile, `lacks parameter ${missing} of the model; the checkpoint belongs to another model`);
  if (names.length !== opt.m.size) throw bad(metaFile, '"names" lists a parameter twice, the checkpoint is corrupt');
  const expected = names.reduce((bytes, n) => bytes + 2 * opt.m.get(n)!.byteLength, 0);
  const size = await stat(binFile).then(
    (s) => s.size,
    () => undefined,
  );
  if (size === undefined) throw bad(binFile, 'optimizer moments are missing, the checkpoint is incomplete');
  if (size !== expected) throw bad(binFile, `optimizer moments take ${size} bytes, the model's parameters ${expected} (2 × 4 bytes each)`);
  const file = await open(binFile, 'r');
  try {
    let at = 0;
    for (const n of names) {
      for (const values of [opt.m.get(n)!, opt.v.get(n)!]) {
        await file.read(new Uint8Array(values.buffer, values.byteOffset, values.byteLength), 0, values.byteLength, at);
        at += values.byteLength;
      }
    }
  } finally {
    await file.close();
  }
  opt.step = step;
}

/**
 * Reads and checks the trainer state of a checkpoint folder, or undefined when there is none. With
 * `runConfig`, the checkpoint must have been written with the same run configuration: a difference, or a
 * checkpoint from before run configurations were recorded, is a UsageError naming the settings.
 */
export async function readCheckpointState(checkpointDir: string, runConfig?: RunConfig): Promise<TrainerState | undefined> {
  const dir = checkpointModelDir(checkpointDir);
  const file = join(dir, STATE);
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  if (runConfig === undefined) return parseTrainerState(text, file, startOver(checkpointDir));
  // Before the trainer state: the checkpoints of older versions lack fields it now requires.
  const savedText = await readFile(join(dir, RUN_CONFIG), 'utf8').catch(() => undefined);
  if (savedText === undefined) throw new UsageError(`the checkpoint in ${checkpointDir} predates configuration checks, so it cannot be resumed safely; run with --force instead of --resume to start over`);
  const state = parseTrainerState(text, file, startOver(checkpointDir));
  let saved: RunConfig;
  try {
    saved = JSON.parse(savedText) as RunConfig;
  } catch {
    throw new FormatError(`not valid JSON, the checkpoint is corrupt; ${startOver(checkpointDir)}`, { file: join(dir, RUN_CONFIG) });
  }
  const differences = diffRunConfig(saved ?? {}, runConfig);
  if (differences.length > 0) throw new UsageError(`the checkpoint in ${checkpointDir} was written with other settings (checkpoint → now): ${differences.join(', ')}; resume with its settings, or run with --force instead of --resume to start over`);
  return state;
}

/** {@link readCheckpointState} for a resume, which must not quietly start over when there is none. */
async function stateToResume(checkpointDir: string, runConfig: RunConfig | undefined): Promise<TrainerState> {
  const state = await readCheckpointState(checkpointDir, runConfig);
  if (state !== undefined) return state;
  // A checkpoint folder without its state is damaged, not absent: a start would be refused as guarding it.
  if ((await readdir(checkpointDir).catch(() => [] as string[])).includes(CHECKPOINT)) {
    throw new UsageError(`the checkpoint in ${checkpointDir} lacks ${STATE}, so it cannot be resumed; ${startOver(checkpointDir)}`);
  }
  throw new UsageError(`no checkpoint in ${checkpointDir}; run without --resume to start`);
}

/**
 * The trainer's resume: the checkpoint's state (checked against the run and `runConfig`) and its optimizer
 * moments loaded into `opt`.
 */
export async function resumeTraining(checkpointDir: string, opt: AdamWState, plan: TrainingPlan, runConfig: RunConfig | undefined): Promise<TrainerState> {
  const state = await stateToResume(checkpointDir, runConfig);
  checkResumePoint(state, plan, join(checkpointModelDir(checkpointDir), STATE), startOver(checkpointDir));
  await loadOptimizer(checkpointDir, opt, state.step);
  return state;
}

export interface OpenCheckpointOptions {
  /** Continue the run in the folder: it must hold a checkpoint written with `runConfig`. */
  resume?: boolean;
  /** Without `resume`: delete an existing checkpoint folder, its log included, and start over. */
  force?: boolean;
  runConfig?: RunConfig;
}

/**
 * What a training command does with its checkpoint folder before it loads anything: finishes or removes
 * checkpoint writes a kill interrupted; then, resuming, returns the checkpoint's state (or refuses as
 * {@link readCheckpointState} does, and when there is none); starting, refuses to overwrite the checkpoint
 * of an earlier run unless `force`, which deletes it (a folder that holds no checkpoint yet goes without).
 */
export async function openCheckpoint(checkpointDir: string, options: OpenCheckpointOptions): Promise<TrainerState | undefined> {
  for (const dir of [checkpointModelDir(checkpointDir), bestModelDir(checkpointDir)]) await recoverAtomicPath(dir, { restore: true });
  if (options.resume) return stateToResume(checkpointDir, options.runConfig);
  const entries = await readdir(checkpointDir).catch(() => [] as string[]);
  if (entries.length === 0) return undefined;
  // A run killed before its first checkpoint left only the log of steps this run takes again, and perhaps
  // the best model so far, which it writes again the same: nothing to resume (a resume is refused), so
  // nothing to guard, and no --force to ask for. Anything else in the folder is guarded.
  const disposable = !entries.includes(CHECKPOINT) && entries.every((e) => e === TRAIN_LOG || e === BEST);
  if (!options.force && !disposable) throw new UsageError(`${checkpointDir} holds the checkpoint of an earlier run; pass --resume to continue it, or --force to delete it and start over`);
  await rm(checkpointDir, { recursive: true, force: true });
  return undefined;
}
