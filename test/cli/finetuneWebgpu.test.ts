import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSafetensors } from '../../src/model/index.js';
import { cli } from '../helpers/cli.js';
import { tinySetup } from '../helpers/tinyModel.js';
import { webgpuUnavailable } from '../helpers/webgpu.js';

const unavailable = await webgpuUnavailable();

describe.skipIf(unavailable !== undefined)(`ppmlm --backend webgpu finetune${unavailable ? ` (SKIPPED: ${unavailable})` : ''}`, () => {
  it('trains, evaluates and writes the model the cpu backend writes (4 steps, toy shapes)', async () => {
    const { dir, corpus, blacklist, model } = await tinySetup();
    const runOn = async (backend: string) => {
      const out = join(dir, backend);
      const r = await cli('--quiet', '--backend', backend, 'finetune', '--model', model, '--corpus', corpus, '--blacklist', blacklist, '--strategy', 'constrained', '--out', out, '--max-steps', '4', '--eval-split', '0.25', '--batch-size', '8', '--seq-len', '32', '--lr', '1e-3', '--json');
      expect(r.code, r.stderr).toBe(0);
      const file = join(out, 'model.safetensors');
      const weights = parseSafetensors(new Uint8Array(await readFile(file)), file);
      return { result: JSON.parse(r.stdout) as { finalLoss: number; evalLossByEpoch: number[] }, weights };
    };
    const gpu = await runOn('webgpu');
    const cpu = await runOn('cpu');
    expect(gpu.result.finalLoss).toBeCloseTo(cpu.result.finalLoss, 4);
    expect(gpu.result.evalLossByEpoch).toHaveLength(1);
    expect(gpu.result.evalLossByEpoch[0]).toBeCloseTo(cpu.result.evalLossByEpoch[0]!, 4);
    // float32 on both; see test/engine/webgpu.test.ts for the tolerance on weights after AdamW steps.
    for (const [name, t] of cpu.weights.tensors) {
      const g = gpu.weights.tensors.get(name)!.data;
      t.data.forEach((x, i) => expect(Math.abs(x - g[i]!), name).toBeLessThan(5e-5));
    }
  });
});
