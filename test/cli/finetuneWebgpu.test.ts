import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSafetensors } from '../../src/model/index.js';
import { cli } from '../helpers/cli.js';
import { tinySetup } from '../helpers/tinyModel.js';
import { webgpuUnavailable } from '../helpers/webgpu.js';

/** `ppmlm --backend <backend> finetune` of the tiny model with `flags`: its JSON summary, ppmlm.json and weights. */
async function finetuned(backend: string, dir: string, model: string, corpus: string, flags: string[]) {
  const out = join(dir, backend);
  const r = await cli('--quiet', '--backend', backend, 'finetune', '--model', model, '--corpus', corpus, ...flags, '--out', out, '--seq-len', '32', '--lr', '1e-3', '--json');
  expect(r.code, r.stderr).toBe(0);
  const file = join(out, 'model.safetensors');
  const weights = parseSafetensors(new Uint8Array(await readFile(file)), file);
  const provenance = JSON.parse(await readFile(join(out, 'ppmlm.json'), 'utf8')) as { dp?: unknown };
  return { result: JSON.parse(r.stdout) as { finalLoss: number; evalLossByEpoch: number[] }, weights, provenance };
}

/** float32 on both; see test/engine/webgpu.test.ts for the tolerance on weights after AdamW steps. */
function expectSameWeights(gpu: ReturnType<typeof parseSafetensors>, cpu: ReturnType<typeof parseSafetensors>) {
  for (const [name, t] of cpu.tensors) {
    const g = gpu.tensors.get(name)!.data;
    t.data.forEach((x, i) => expect(Math.abs(x - g[i]!), name).toBeLessThan(5e-5));
  }
}

const unavailable = await webgpuUnavailable();

describe.skipIf(unavailable !== undefined)(`ppmlm --backend webgpu finetune${unavailable ? ` (SKIPPED: ${unavailable})` : ''}`, () => {
  it('trains, evaluates and writes the model the cpu backend writes (4 steps, toy shapes)', async () => {
    const { dir, corpus, blacklist, model } = await tinySetup();
    const gpu = await finetuned('webgpu', dir, model, corpus, ['--blacklist', blacklist, '--strategy', 'constrained', '--max-steps', '4', '--eval-split', '0.25', '--batch-size', '8']);
    const cpu = await finetuned('cpu', dir, model, corpus, ['--blacklist', blacklist, '--strategy', 'constrained', '--max-steps', '4', '--eval-split', '0.25', '--batch-size', '8']);
    expect(gpu.result.finalLoss).toBeCloseTo(cpu.result.finalLoss, 4);
    expect(gpu.result.evalLossByEpoch).toHaveLength(1);
    expect(gpu.result.evalLossByEpoch[0]).toBeCloseTo(cpu.result.evalLossByEpoch[0]!, 4);
    expectSameWeights(gpu.weights, cpu.weights);
  });

  it('trains with DP-SGD per author (seeded noise) the model the cpu backend trains', async () => {
    const { dir, corpus, model } = await tinySetup();
    const dp = ['--strategy', 'dp', '--dp-noise', '0.5', '--dp-allow-private-preprocessing', '--dp-max-windows', '2', '--dp-insecure-seeded-noise', '--epochs', '1', '--batch-size', '2'];
    const gpu = await finetuned('webgpu', dir, model, corpus, dp);
    const cpu = await finetuned('cpu', dir, model, corpus, dp);
    expect(gpu.result.finalLoss).toBeCloseTo(cpu.result.finalLoss, 4);
    expect(gpu.provenance.dp).toEqual(cpu.provenance.dp);
    expectSameWeights(gpu.weights, cpu.weights);
  });
});
