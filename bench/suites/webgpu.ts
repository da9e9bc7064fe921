import type { BenchRow, BenchSuite } from '../table.js';
import { ppmlmRun, SEQ, trainSpeed, VOCAB, type WorkerResult } from './training.js';

/** The shapes of the training suite's first row and of BERT-base, a few steps each (the first compiles shaders). */
const SHAPES = [
  { name: 'H128/L2', hidden: 128, layers: 2, vocab: VOCAB, batch: 16, steps: 4 },
  { name: 'BERT-base H768/L12', hidden: 768, layers: 12, vocab: 30522, batch: 8, steps: 3 },
];

/**
 * `npm run bench -- webgpu`: a training step and inference on the webgpu backend against the wasm backend
 * on the same shape, in the same run. Rows only where Dawn finds an adapter; a software renderer (lavapipe)
 * is named as such (its figures measure that the path runs, not a GPU's speed) and runs the small shape only.
 */
export const webgpuSuite: BenchSuite = {
  name: 'webgpu',
  async run(log): Promise<BenchRow[]> {
    const rows: BenchRow[] = [];
    let software = false;
    for (const { name, hidden, layers, vocab, batch, steps } of SHAPES) {
      const shape = `${name} V${vocab} seq${SEQ} b${batch}`;
      if (software && name !== SHAPES[0]!.name) {
        log(`${shape}: not run on a software renderer (minutes per step; it would measure the CPU)`);
        continue;
      }
      log(`${shape}: ${steps} ppmlm training steps on webgpu, then on wasm`);
      let gpu: WorkerResult;
      try {
        gpu = await ppmlmRun(hidden, layers, vocab, batch, steps, 'webgpu');
      } catch (err) {
        const line = String((err as { stderr?: string }).stderr ?? err).split('\n').find((l) => l.startsWith('ppmlm')) ?? 'the webgpu worker failed';
        log(`no webgpu rows: ${line}`);
        return rows;
      }
      software = gpu.adapter?.software === true;
      const wasm = await ppmlmRun(hidden, layers, vocab, batch, steps, 'wasm');
      const adapter = gpu.adapter?.software ? `${gpu.adapter.description}, SOFTWARE renderer: correctness, not speed` : (gpu.adapter?.description ?? 'unknown adapter');
      const note = `webgpu on ${adapter}; activation checkpointing ${gpu.recompute ? 'on' : 'off'}; steps ${gpu.stepSeconds.map((x) => x.toFixed(2)).join(', ')} s`;
      for (const [what, ours, base] of [
        ['train step', trainSpeed(gpu, batch * SEQ), trainSpeed(wasm, batch * SEQ)],
        ['inference', gpu.inferTokensPerSecond, wasm.inferTokensPerSecond],
      ] as const) {
        const row: BenchRow = { suite: 'webgpu', case: `${shape}: ${what} (webgpu)`, value: ours, unit: 'tokens/s', baseline: { name: 'wasm', value: base }, note };
        rows.push(row);
        log(`${row.case}: ${ours.toFixed(0)} tokens/s against wasm ${base.toFixed(0)}`);
      }
    }
    return rows;
  },
};
