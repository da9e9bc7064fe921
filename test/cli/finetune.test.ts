import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { readFile, stat } from 'node:fs/promises';
import { cli } from '../helpers/cli.js';
import { tinySetup } from '../helpers/tinyModel.js';

const common = ['--epochs', '2', '--batch-size', '8', '--seq-len', '32', '--lr', '1e-3', '--json'];

describe('ppmlm finetune', () => {
  it('trains each strategy; constrained never targets a blacklisted position, standard does, and says so', async () => {
    const { dir, corpus, blacklist, model } = await tinySetup();
    const results: Record<string, { protectedTargets: number; targets: number; finalLoss: number; lossByEpoch: number[] }> = {};
    for (const strategy of ['standard', 'constrained', 'pseudonymized']) {
      const out = join(dir, strategy);
      const r = await cli('--quiet', 'finetune', '--model', model, '--corpus', corpus, '--blacklist', blacklist, '--strategy', strategy, '--out', out, ...common);
      expect(r.code, r.stderr).toBe(0);
      results[strategy] = JSON.parse(r.stdout);
      const provenance = JSON.parse(await readFile(join(out, 'ppmlm.json'), 'utf8'));
      expect(provenance).toMatchObject({ strategy, epochs: 2, seed: 42, blacklistFingerprint: expect.stringMatching(/^[0-9a-f]{16}$/) });
      // The loss curve, one mean per epoch, in the summary and the model's provenance.
      expect(provenance.lossByEpoch).toHaveLength(2);
      expect(results[strategy]).toMatchObject({ lossByEpoch: provenance.lossByEpoch });
      const exported = await readFile(join(out, 'model.safetensors'));
      const terms = (await readFile(blacklist, 'utf8')).split('\n').slice(9, 30).map((l) => l.split('\t')[0]!).filter((t) => t.length > 6);
      for (const t of terms) expect(exported.includes(Buffer.from(t))).toBe(false);
      const log = (await readFile(join(`${out}.checkpoint`, 'train_log.jsonl'), 'utf8')).trim().split('\n');
      expect(JSON.parse(log.at(-1)!)).toMatchObject({ protectedTargets: results[strategy]!.protectedTargets });
    }
    const whole = await cli('--quiet', 'finetune', '--model', model, '--corpus', corpus, '--blacklist', blacklist, '--strategy', 'constrained', '--whole-word', '--out', join(dir, 'ww'), ...common);
    expect(whole.code, whole.stderr).toBe(0);
    expect(JSON.parse(whole.stdout).protectedTargets).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'ww', 'ppmlm.json'), 'utf8')).wholeWord).toBe(true);
    expect(results.constrained!.protectedTargets).toBe(0);
    expect(results.standard!.protectedTargets).toBeGreaterThan(0);
    expect(Number.isFinite(results.pseudonymized!.finalLoss)).toBe(true);
  });

  it('standard works without a blacklist; constrained without one is a usage error', async () => {
    const { dir, corpus, model } = await tinySetup(3, 2);
    const ok = await cli('--quiet', 'finetune', '--model', model, '--corpus', corpus, '--strategy', 'standard', '--out', join(dir, 's'), ...common);
    expect(ok.code, ok.stderr).toBe(0);
    const bad = await cli('finetune', '--model', model, '--corpus', corpus, '--strategy', 'constrained', '--out', join(dir, 'c'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--strategy constrained needs --blacklist FILE/);
    const missing = await cli('finetune', '--model', model, '--corpus', corpus, '--blacklist', join(dir, 'nope.tsv'), '--out', join(dir, 'c'));
    expect(missing.stderr).toMatch(/nope\.tsv: no such file; check the --blacklist path/);
    const exists = await cli('finetune', '--model', model, '--corpus', corpus, '--strategy', 'standard', '--out', join(dir, 's'));
    expect(exists.stderr).toMatch(/already exists; pass --force/);
  });

  it('resumes a run killed with SIGKILL mid-epoch and reaches the same final loss', async () => {
    const { dir, corpus, blacklist, model } = await tinySetup(10, 3);
    const args = (out: string) => ['finetune', '--model', model, '--corpus', corpus, '--blacklist', blacklist, '--out', out, '--epochs', '2', '--batch-size', '4', '--seq-len', '32', '--lr', '1e-3', '--save-steps', '2', '--json', '--quiet'];
    const reference = await cli(...args(join(dir, 'ref')));
    expect(reference.code, reference.stderr).toBe(0);

    const out = join(dir, 'run');
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...args(out)], { stdio: 'ignore' });
    const state = join(`${out}.checkpoint`, 'checkpoint', 'trainer_state.json');
    await new Promise<void>((resolve, reject) => {
      const poll = setInterval(async () => {
        const s = await readFile(state, 'utf8').then(JSON.parse, () => undefined);
        if (s && s.epoch === 0 && s.batch >= 4) {
          clearInterval(poll);
          child.kill('SIGKILL');
          resolve();
        }
      }, 20);
      child.on('exit', () => {
        clearInterval(poll);
        reject(new Error('finished before it could be killed'));
      });
    });
    await new Promise((r) => child.once('exit', r));
    await expect(stat(out)).rejects.toThrow();
    const resumed = await cli(...args(out), '--resume');
    expect(resumed.code, resumed.stderr).toBe(0);
    const [a, b] = [JSON.parse(reference.stdout), JSON.parse(resumed.stdout)];
    expect(b.steps).toBe(a.steps);
    expect(b.finalLoss).toBeCloseTo(a.finalLoss, 5);
  });
});

describe('ppmlm finetune --strategy dp', () => {
  it('solves the noise for a target epsilon and records epsilon and delta in ppmlm.json', async () => {
    const { dir, corpus, model } = await tinySetup(4, 2);
    const out = join(dir, 'dp');
    const r = await cli('--quiet', 'finetune', '--model', model, '--corpus', corpus, '--strategy', 'dp', '--target-epsilon', '5', '--out', out, '--epochs', '1', '--batch-size', '4', '--seq-len', '32', '--json');
    expect(r.code, r.stderr).toBe(0);
    const provenance = JSON.parse(await readFile(join(out, 'ppmlm.json'), 'utf8'));
    expect(provenance.dp.epsilon).toBeLessThanOrEqual(5);
    expect(provenance.dp.epsilon).toBeGreaterThan(3);
    expect(provenance.dp).toMatchObject({ clip: 1, accountant: 'rdp', delta: expect.any(Number), noiseMultiplier: expect.any(Number) });
    const none = await cli('finetune', '--model', model, '--corpus', corpus, '--strategy', 'dp', '--out', join(dir, 'x'));
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--strategy dp needs --dp-noise S or --target-epsilon E/);
    const far = await cli('finetune', '--model', model, '--corpus', corpus, '--strategy', 'dp', '--target-epsilon', '0.001', '--out', join(dir, 'y'), '--epochs', '50', '--batch-size', '100', '--seq-len', '32');
    expect(far.code).toBe(4);
    expect(far.stderr).toMatch(/out of reach/);
  });
});
