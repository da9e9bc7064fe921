import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFile, stat } from 'node:fs/promises';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

describe('ppmlm demo (npm start) with the small budget', () => {
  it('runs the whole pipeline, writes private reports, and constrained keeps more privacy than standard', async () => {
    const out = join(await tempDir(), 'demo');
    const r = await cli('demo', '--budget', 'small', '--out', out, '--json');
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.summary).toMatch(/privacy score \(all identifiers\)/);
    expect(summary.reports.constrained).toMatchObject({ html: expect.stringMatching(/audit-constrained\/report\.html$/), privacy: { all: expect.any(Number) }, membership: { lossAuc: expect.any(Number) } });
    expect(r.stderr).toMatch(/1\/5 blacklist/);
    expect(r.stderr).toMatch(/5\/5 audit/);
    const reports: Record<string, { privacy: { all: { score: number; subword: { score: number } } }; membership: { loss: { auc: number } } }> = {};
    for (const s of ['standard', 'constrained']) {
      const path = join(out, `audit-${s}`, 'report.json');
      expect((await stat(path)).mode & 0o777).toBe(0o600);
      expect((await stat(join(out, `audit-${s}`, 'report.html'))).mode & 0o777).toBe(0o600);
      reports[s] = JSON.parse(await readFile(path, 'utf8'));
    }
    // A model this small recovers few occurrences whole: the per-subword score is where the strategies part.
    expect(reports.constrained!.privacy.all.subword.score).toBeGreaterThan(reports.standard!.privacy.all.subword.score);
    expect(reports.constrained!.privacy.all.score).toBeGreaterThanOrEqual(reports.standard!.privacy.all.score);
    expect((await stat(join(out, 'blacklist.tsv'))).mode & 0o777).toBe(0o600);

    const again = await cli('demo', '--budget', 'small', '--out', out);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exists \(a previous demo run\); pass --force/);
  }, 180_000);
});
