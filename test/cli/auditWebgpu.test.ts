import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { cli } from '../helpers/cli.js';
import { tinySetup } from '../helpers/tinyModel.js';
import { webgpuUnavailable } from '../helpers/webgpu.js';
import { generateClinicalNotes } from '../../examples/clinical-en/generate.js';

const unavailable = await webgpuUnavailable();
if (unavailable) console.warn(`audit --backend webgpu tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== undefined)(`ppmlm --backend webgpu audit${unavailable ? ` (SKIPPED: ${unavailable})` : ''}`, () => {
  it('measures what the cpu backend measures: privacy score, membership, fill-mask utility, downstream F1 (read asynchronously)', async () => {
    const { dir, corpus, blacklist, model } = await tinySetup(6, 3);
    const nonMembers = join(dir, 'held.jsonl');
    await writeFile(nonMembers, generateClinicalNotes(99, 6, 3).map((d) => JSON.stringify({ ...d, id: `h${d.id}` })).join('\n'));
    const runOn = async (backend: string) => {
      const r = await cli('--quiet', '--backend', backend, 'audit', '--model', model, '--reference', model, '--members', corpus, '--non-members', nonMembers, '--blacklist', blacklist, '--out', join(dir, backend), '--seq-len', '32', '--task', corpus, '--task-epochs', '1', '--json');
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    const gpu = await runOn('webgpu');
    const cpu = await runOn('cpu');
    // Predictions agree to float32 noise; top-1 choices and ranks could flip only on a near tie.
    expect(gpu.privacy.all.occurrences).toBe(cpu.privacy.all.occurrences);
    expect(gpu.privacy.all.score).toBeCloseTo(cpu.privacy.all.score, 6);
    expect(gpu.membership.meanLoss.members).toBeCloseTo(cpu.membership.meanLoss.members, 4);
    expect(gpu.membership.loss.auc).toBeCloseTo(cpu.membership.loss.auc, 6);
    expect(gpu.utility.accuracy).toBeCloseTo(cpu.utility.accuracy, 6);
    expect(gpu.utility.downstream.macroF1).toBeCloseTo(cpu.utility.downstream.macroF1, 6);
  });
});
