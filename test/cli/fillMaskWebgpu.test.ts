import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { tinySetup } from '../helpers/tinyModel.js';
import { webgpuUnavailable } from '../helpers/webgpu.js';

const unavailable = await webgpuUnavailable();
if (unavailable) console.warn(`fill-mask --backend webgpu tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== undefined)(`ppmlm --backend webgpu fill-mask${unavailable ? ` (SKIPPED: ${unavailable})` : ''}`, () => {
  it('gives the candidates the cpu backend gives (probabilities read asynchronously), for each of two masks', async () => {
    const { model } = await tinySetup();
    const runOn = async (backend: string) => {
      const r = await cli('--quiet', '--backend', backend, 'fill-mask', '--model', model, '--text', 'The patient [MASK] seen for [MASK].', '--top-k', '5', '--json');
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as { token: number; score: number; sequence: string }[][];
    };
    const gpu = await runOn('webgpu');
    const cpu = await runOn('cpu');
    expect(gpu).toHaveLength(2);
    expect(gpu.map((m) => m.map((c) => c.token))).toEqual(cpu.map((m) => m.map((c) => c.token)));
    expect(gpu.map((m) => m.map((c) => c.sequence))).toEqual(cpu.map((m) => m.map((c) => c.sequence)));
    // float32 softmax on both: scores to 1e-6.
    gpu.forEach((m, i) => m.forEach((c, k) => expect(Math.abs(c.score - cpu[i]![k]!.score)).toBeLessThan(1e-6)));
  });
});
