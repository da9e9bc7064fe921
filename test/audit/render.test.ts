import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { reportHtml, type AuditReport } from '../../src/audit/index.js';
import { writeFileAtomic } from '../../src/io/index.js';
import { decodePng } from '../helpers/png.js';
import { tempDir } from '../helpers/tmp.js';

const run = promisify(execFile);
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);

const score = (s: number) => ({ score: s, ci: [s - 0.01, s + 0.01] as [number, number], occurrences: 100, tokens: 150, fullyRecovered: 1 - s, subword: { score: s + 0.05, ci: [s + 0.03, s + 0.07] as [number, number] }, individuals: 12 });
const curve: [number, number][] = [[0, 0], [0.001, 0.05], [0.01, 0.2], [0.1, 0.5], [1, 1]];
const attack = (auc: number) => ({ auc, tprAt1: 0.2, tprAt01: 0.05, curve, ci: { auc: [auc - 0.05, auc + 0.05] as [number, number], tprAt1: [0.1, 0.3] as [number, number], tprAt01: [0, 0.1] as [number, number] }, n: { members: 10, nonMembers: 40, memberIndividuals: 10, nonMemberIndividuals: 40 } });
const variant = (auc: number) => ({ members: 10, nonMembers: 40, loss: attack(auc), calibrated: attack(auc + 0.01), pllRatio: attack(auc + 0.02), lira: attack(auc + 0.03) });
const level = { all: variant(0.7), unprotected: variant(0.68), protected: variant(0.52) };
const REPORT: AuditReport = {
  createdAt: '2026-12-01T00:00:00.000Z',
  target: { name: 'model' },
  blacklistFingerprint: '0123456789abcdef',
  privacy: { all: score(0.9), direct: score(0.8), indirect: score(0.95) },
  regurgitation: { rows: Array.from({ length: 30 }, (_, i) => ({ term: `id-${i}`, kind: i % 2 ? 'direct' : 'indirect', category: 'X', trainingOccurrences: 1 + i, evaluated: 3, top1: (i % 4) / 3, top5: 1 })), top1Terms: 20, top5Terms: 30, identifiersShown: false },
  membership: { members: 50, nonMembers: 500, loss: attack(0.7), meanLoss: { members: 2, nonMembers: 2.5 }, byIndividual: level, byDocument: level, excludedDocuments: 4, references: 8 },
  gold: { occurrences: 40, recall: 0.625, ci: [0.5, 0.75], byLabel: { Location: { occurrences: 8, recall: 0.125 } }, missed: score(0.4) },
  canaries: { planted: { mean: 3.1, se: 0.2, n: 100, clusters: 20, unscored: 0 }, control: { mean: 1.4, se: 0.15, n: 100, clusters: 50, unscored: 0, probes: [] }, difference: { value: 1.7, se: 0.25 } },
  utility: { accuracy: 0.4, positions: 1000, unigramBaseline: 0.05 },
};

/** Pixels close to a colour inside a rectangle. */
function count(img: ReturnType<typeof decodePng>, rgb: [number, number, number], box: { x0: number; y0: number; x1: number; y1: number }): number {
  let n = 0;
  for (let y = box.y0; y < Math.min(box.y1, img.height); y++)
    for (let x = box.x0; x < Math.min(box.x1, img.width); x++) {
      const i = (y * img.width + x) * 4;
      if (Math.abs(img.rgba[i]! - rgb[0]) + Math.abs(img.rgba[i + 1]! - rgb[1]) + Math.abs(img.rgba[i + 2]! - rgb[2]) < 60) n++;
    }
  return n;
}

describe.runIf(CHROMIUM !== undefined)('report.html in headless Chromium', () => {
  it('renders the ROC curve and the regurgitation scatter', async () => {
    const dir = await tempDir();
    const html = join(dir, 'report.html');
    await writeFileAtomic(html, reportHtml(REPORT));
    const png = join(dir, 'shot.png');
    const flags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', `--user-data-dir=${join(dir, 'profile')}`, '--hide-scrollbars', '--window-size=1000,1600'];
    await run(CHROMIUM!, [...flags, `--screenshot=${png}`, `file://${html}`], { timeout: 60_000 });
    const img = decodePng(await readFile(png));
    expect(img.width).toBe(1000);
    const red: [number, number, number] = [0xc0, 0x39, 0x2b];
    // Scatter points are drawn at 60% opacity over white.
    const blue: [number, number, number] = [Math.round(0.6 * 0x2e + 102), Math.round(0.6 * 0x86 + 102), Math.round(0.6 * 0xc1 + 102)];
    const everywhere = { x0: 0, y0: 0, x1: img.width, y1: img.height };
    // The ROC polyline (red) and the scatter's indirect points (blue) are drawn.
    expect(count(img, red, everywhere)).toBeGreaterThan(200);
    expect(count(img, blue, everywhere)).toBeGreaterThan(100);
    const { stdout } = await run(CHROMIUM!, [...flags, '--dump-dom', `file://${html}`], { timeout: 60_000 });
    expect(stdout).toMatch(/<svg class="plot roc"/);
    expect(stdout).toMatch(/<svg class="plot regurgitation"/);
    // The new figures, each with its interval.
    expect(stdout).toMatch(/<h3>Per individual<\/h3>/);
    expect(stdout).toMatch(/<td>protected<\/td><td>LiRA \(offline\)<\/td><td>10 \/ 40 <small>\(10 \/ 40 individuals\)<\/small><\/td><td>0\.550 <small>\[0\.500 – 0\.600\]<\/small>/);
    expect(stdout).toMatch(/protects <b>62\.5%<\/b> <small>\[50\.0% – 75\.0%\]<\/small> of 40 gold identifier occurrences/);
    expect(stdout).toMatch(/<b>1\.700 ± 0\.250<\/b> bits/);
    expect(stdout).toMatch(/4 member documents carrying planted canaries are left out/);
  }, 120_000);
});

describe('report.html text', () => {
  it('describes the privacy score\'s interval as audit.md does: the hull of the bootstrap and Wilson\'s interval', () => {
    const html = reportHtml(REPORT);
    expect(html).toContain("the hull of a percentile bootstrap over individuals (authors) and Wilson's interval on the pooled counts");
    expect(html).not.toContain('Intervals: 95% percentile bootstrap over individuals (authors).');
  });
});
