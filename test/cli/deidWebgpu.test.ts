import { describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { selectBackend } from '../../src/engine/index.js';
import { loadModelDir } from '../../src/model/index.js';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { webgpuUnavailable } from '../helpers/webgpu.js';
import { maxDiff } from '../helpers/gradients.js';

const INPUTS = ['--judgments', 'examples/legal-ko/judgments', '--replacements', 'examples/legal-ko/replacements'];
// Toy shapes: lavapipe runs every shader on the CPU.
const TINY = ['--no-morphemes', '--max-steps', '2', '--batch-size', '4', '--hidden', '16', '--layers', '1', '--heads', '2', '--intermediate', '32', '--vocab-size', '300', '--seq-len', '32', '--lr', '5e-3', '--quiet'];

/** Trains the tiny model on `backend` with `extra` flags; returns its ppmlm.json and its weights (read on cpu). */
async function deidTrained(backend: 'webgpu' | 'cpu', extra: string[]) {
  const out = join(await tempDir(), 'deid');
  const t = await cli('deid', 'train', ...INPUTS, ...TINY, ...extra, '--backend', backend, '--out', out);
  expect(t.code, t.stderr).toBe(0);
  const provenance = JSON.parse(await readFile(join(out, 'ppmlm.json'), 'utf8'));
  await selectBackend('cpu');
  const { model } = await loadModelDir(out, { tokenClassification: Object.keys(JSON.parse(await readFile(join(out, 'config.json'), 'utf8')).id2label).length });
  const weights = new Map([...model.params].map(([name, p]) => [name, Float32Array.from(p.dataSync())]));
  for (const p of model.params.values()) p.dispose();
  return { out, provenance, weights };
}

const unavailable = await webgpuUnavailable();
if (unavailable) console.warn(`deid train --backend webgpu tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== undefined)(`ppmlm deid train --backend webgpu${unavailable ? ` (SKIPPED: ${unavailable})` : ''}`, () => {
  /**
   * Tolerances: weights to 2e-5 (float32 summed in other orders; measured 1.0e-6 plain, where AdamW at lr
   * 5e-3 amplifies float noise of gradients that are zero in theory as in test/engine/webgpu.test.ts, and
   * 1.1e-8 with DP); the PII threshold the dev split chose (inference on the device, read asynchronously)
   * to 1e-3, and the same dev F1.
   */
  it.each([
    ['plain', [] as string[]],
    ['DP-SGD with seeded noise', ['--privacy', 'dp', '--dp-noise', '0.5', '--dp-allow-private-preprocessing', '--dp-max-windows', '2', '--dp-insecure-seeded-noise']],
  ])('%s: trains the model the cpu backend trains', async (_, extra) => {
    const gpu = await deidTrained('webgpu', extra);
    const cpu = await deidTrained('cpu', extra);
    expect(maxDiff(cpu.weights, gpu.weights)).toBeLessThan(2e-5);
    expect(Math.abs(gpu.provenance.piiThreshold - cpu.provenance.piiThreshold)).toBeLessThan(1e-3);
    expect(gpu.provenance.calibration.binaryF1).toBeCloseTo(cpu.provenance.calibration.binaryF1, 6);
    if (extra.length) expect(gpu.provenance.dp).toEqual(cpu.provenance.dp);
  });

  it('evaluates and applies a model as the cpu backend does (inference read asynchronously)', async () => {
    const { out: model } = await deidTrained('webgpu', []);
    const dir = await tempDir();
    const input = join(dir, 'in.jsonl');
    await writeFile(input, `${JSON.stringify({ id: 1, text: '피고인 김철수는 2019. 3. 1. 서울 강남구에서 이영희에게 전화하였다.' })}\n`);
    const runOn = async (backend: string) => {
      const e = await cli('--quiet', '--backend', backend, 'deid', 'eval', '--model', model, ...INPUTS, '--seq-len', '32', '--json');
      expect(e.code, e.stderr).toBe(0);
      const a = await cli('--quiet', '--backend', backend, 'deid', 'apply', '--model', model, '--in', input, '--out', join(dir, `${backend}.jsonl`), '--format', 'jsonl', '--seq-len', '32');
      expect(a.code, a.stderr).toBe(0);
      return { evaluation: JSON.parse(e.stdout), applied: await readFile(join(dir, `${backend}.jsonl`), 'utf8') };
    };
    const gpu = await runOn('webgpu');
    const cpu = await runOn('cpu');
    // Probabilities agree to float32 noise: a test token lying exactly at the threshold could flip, so F1 to 1e-3.
    expect(gpu.evaluation.tokens).toBe(cpu.evaluation.tokens);
    expect(gpu.evaluation.binary.f1).toBeCloseTo(cpu.evaluation.binary.f1, 3);
    expect(gpu.evaluation.micro.f1).toBeCloseTo(cpu.evaluation.micro.f1, 3);
    expect(gpu.applied).toBe(cpu.applied);
    // The model does rewrite: the comparison is not of two untouched texts.
    expect(cpu.applied).not.toContain('김철수');
  });
});
