import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateClinicalNotes } from '../../examples/clinical-en/generate.js';
import { readBlacklist } from '../../src/identifiers/index.js';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { tinySetup } from '../helpers/tinyModel.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);

interface PageData {
  key: string;
  items: { text: string; words: [number, number][]; spans: { start: number; end: number; kind: 'direct' | 'indirect' }[] }[];
}

async function setup() {
  const dir = await tempDir();
  const corpus = join(dir, 'notes.jsonl');
  await writeFile(corpus, generateClinicalNotes(5, 4, 2).map((d) => JSON.stringify(d)).join('\n'));
  const blacklist = join(dir, 'bl.tsv');
  expect((await cli('--quiet', 'blacklist', 'build', '--corpus', corpus, '--out', blacklist)).code).toBe(0);
  return { dir, corpus, blacklist };
}

describe('ppmlm blacklist review', () => {
  it('writes a self-contained page (mode 0600) and refuses contradicting flags', async () => {
    const { dir, corpus, blacklist } = await setup();
    const page = join(dir, 'review.html');
    const r = await cli('blacklist', 'review', '--corpus', corpus, '--blacklist', blacklist, '--sample', '5', '--out', page, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ passages: 5, seed: 1, population: { individuals: 4 } });
    expect((await stat(page)).mode & 0o777).toBe(0o600);
    const html = await readFile(page, 'utf8');
    expect(html).toMatch(/This page holds personal data/);
    // Nothing loads from outside: no URL, no external script, style or image.
    expect(html).not.toMatch(/https?:\/\/|<script [^>]*src=|<link /);
    expect(html).toMatch(/default-src 'none'/);
    // Seeded: the same draw gives the same page.
    expect((await cli('--quiet', 'blacklist', 'review', '--corpus', corpus, '--blacklist', blacklist, '--sample', '5', '--out', page)).code).toBe(2);
    await cli('--quiet', 'blacklist', 'review', '--corpus', corpus, '--blacklist', blacklist, '--sample', '5', '--out', join(dir, 'again.html'));
    expect(await readFile(join(dir, 'again.html'), 'utf8')).toBe(html);
    for (const [flags, message] of [
      [['--sample', '5'], /give --sample N and --out page.html .* or --import marks.json/],
      [['--import', page, '--out', page], /give one or the other/],
      [['--sample', '5', '--out', join(dir, 'x.html'), '--apply', join(dir, 'new.tsv')], /--to-gold and --apply convert imported marks/],
    ] as const) {
      const bad = await cli('blacklist', 'review', '--corpus', corpus, '--blacklist', blacklist, ...flags);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(message);
    }
  });

  it.runIf(CHROMIUM !== undefined)('is driven from the keyboard in headless Chromium: a miss and a false alarm marked, exported, imported and estimated', async () => {
    const { dir, corpus, blacklist } = await setup();
    const page = join(dir, 'review.html');
    expect((await cli('--quiet', 'blacklist', 'review', '--corpus', corpus, '--blacklist', blacklist, '--sample', '6', '--seed', '4', '--out', page)).code).toBe(0);
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const marksPath = join(dir, 'marks.json');
    let expected: { word: [number, number]; firstDirect: boolean; directSpans: number };
    try {
      const context = await browser.newContext({ acceptDownloads: true });
      const tab = await context.newPage();
      const requests: string[] = [];
      tab.on('request', (req) => requests.push(req.url()));
      await tab.goto(`file://${page}`);
      // Expressions as strings: the test's TypeScript has no DOM types.
      const data = (await tab.evaluate('JSON.parse(document.getElementById("data").textContent)')) as PageData;
      // The first word of passage 1 that no protected span touches: the cursor walks there and marks it missed.
      const first = data.items[0]!;
      const words = first.words;
      const index = words.findIndex(([s, e]) => !first.spans.some((x) => x.start < e && x.end > s));
      expect(index).toBeGreaterThanOrEqual(0);
      expected = { word: words[index]!, firstDirect: first.spans[0]?.kind === 'direct', directSpans: data.items.flatMap((i) => i.spans).filter((s) => s.kind === 'direct').length };
      for (let i = 0; i < index; i++) await tab.keyboard.press('l');
      await tab.keyboard.press('1');
      expect(await tab.locator('#passage .seg.missed').count()).toBe(1);
      expect(await tab.locator('#passage .seg.missed').first().textContent()).toBe(first.text.slice(...expected.word));
      // Tab focuses the first protected span, x judges it the other way (a direct detection becomes a false alarm).
      await tab.keyboard.press('Tab');
      await tab.keyboard.press('x');
      expect(await tab.locator('#spaninfo').textContent()).toMatch(expected.firstDirect ? /not an identifier/ : /an identifier/);
      // Enter marks each passage reviewed and moves on.
      for (let i = 0; i < data.items.length; i++) await tab.keyboard.press('Enter');
      expect(await tab.locator('#status').textContent()).toMatch(new RegExp(`${data.items.length} reviewed in all`));
      // Progress survives a reload and holds no text.
      const stored = (await tab.evaluate(`localStorage.getItem(${JSON.stringify(data.key)})`)) as string;
      expect(stored).toMatch(/"type":"PERSON"/);
      const keys = new Set(['items', 'reviewed', 'missed', 'spans', 'identifier', 'type', 'start', 'true', 'false', 'PERSON']);
      for (const item of data.items) for (const [w] of item.text.matchAll(/\p{L}{4,}/gu)) if (!keys.has(w)) expect(stored).not.toContain(w);
      // Chromium hands a page's storage writes to its browser process asynchronously, and under load a
      // reload has read the storage before the last write arrived (0 reviewed). The page writes nothing on
      // load, so a stale read loses nothing: reload until the progress shows, three times at most.
      const restored = new RegExp(`${data.items.length} reviewed in all`);
      for (let tries = 0; tries < 3; tries++) {
        await tab.reload();
        if (restored.test((await tab.locator('#status').textContent()) ?? '')) break;
        await tab.waitForTimeout(250);
      }
      expect(await tab.locator('#status').textContent()).toMatch(restored);
      const [download] = await Promise.all([tab.waitForEvent('download'), tab.keyboard.press('e')]);
      await download.saveAs(marksPath);
      // Shift+X forgets what this browser keeps for the sample, once confirmed.
      tab.once('dialog', (d) => void d.accept());
      await Promise.all([tab.waitForEvent('load'), tab.keyboard.press('Shift+X')]);
      expect(await tab.evaluate(`localStorage.getItem(${JSON.stringify(data.key)})`)).toBeNull();
      expect(await tab.locator('#status').textContent()).toMatch(/0 reviewed in all/);
      expect(requests.every((u) => u.startsWith('file:') || u.startsWith('blob:'))).toBe(true);
    } finally {
      await browser.close();
    }
    // The import makes the marks private, estimates, and records the result beside the blacklist.
    const gold = join(dir, 'gold.jsonl');
    const applied = join(dir, 'reviewed.tsv');
    const imported = await cli('blacklist', 'review', '--corpus', corpus, '--blacklist', blacklist, '--import', marksPath, '--to-gold', gold, '--apply', applied, '--json');
    expect(imported.code, imported.stderr).toBe(0);
    expect((await stat(marksPath)).mode & 0o777).toBe(0o600);
    const e = JSON.parse(imported.stdout);
    expect(e).toMatchObject({ reviewed: 6, sampled: 6, missed: 1, missRate: { individuals: expect.any(Number) } });
    expect(e.directPrecision.n).toBe(expected.directSpans);
    expect(e.directPrecision.value).toBeCloseTo((expected.directSpans - (expected.firstDirect ? 1 : 0)) / expected.directSpans, 10);
    expect(e.missRate.value).toBeCloseTo(1 / e.identifiers, 10);
    expect(e.missRate.interval[0]).toBeLessThanOrEqual(e.missRate.value);
    expect(e.missRate.interval[1]).toBeGreaterThan(e.missRate.value);
    const recorded = (await readdir(dir)).filter((f) => f.startsWith('bl.tsv.review-'));
    expect(recorded).toEqual([`bl.tsv.review-${e.sample}.json`]);
    expect((await stat(join(dir, recorded[0]!))).mode & 0o777).toBe(0o600);
    // The table names each figure with its interval and sample size; marks saved with a BOM read the same.
    const withBom = join(dir, 'marks-bom.json');
    await writeFile(withBom, `\ufeff${await readFile(marksPath, 'utf8')}`);
    const table = await cli('blacklist', 'review', '--corpus', corpus, '--blacklist', blacklist, '--import', withBom, '--force');
    expect(table.stdout).toMatch(/\| identifier occurrences the blacklist missed \| [\d.]+% \| \[[\d.]+%, [\d.]+%\] \| 1 of \d+ identifiers/);
    // The marks as gold for blacklist eval, and as a new blacklist with the missed word.
    const evaluated = await cli('--quiet', 'blacklist', 'eval', '--gold', gold, '--blacklist', blacklist, '--json');
    expect(evaluated.code, evaluated.stderr).toBe(0);
    expect(JSON.parse(evaluated.stdout).types.find((t: { type: string }) => t.type === 'all').gold).toBe(e.identifiers);
    const newList = await readBlacklist(applied);
    expect(newList.header.extra).toMatchObject({ 'public-corpus': 'no', reviewed: e.sample });
    expect(newList.entries.filter((x) => x.sources.some((s) => s.startsWith('review:')))).toHaveLength(1);
    // Marks from another blacklist or a malformed file are refused, naming why.
    const other = join(dir, 'other.tsv');
    await writeFile(other, (await readFile(blacklist, 'utf8')) + 'zzqx\tdirect\tPERSON\t1\t1\tlist:x\n');
    const wrong = await cli('blacklist', 'review', '--corpus', corpus, '--blacklist', other, '--import', marksPath);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/marks made against another blacklist \(fingerprint \w+, this one is \w+\)/);
    // Marks whose draw cannot be made again here: nothing to change on the command line.
    const redrawn = join(dir, 'redrawn.json');
    await writeFile(redrawn, JSON.stringify({ ...JSON.parse(await readFile(marksPath, 'utf8')), sample: 'f'.repeat(16) }));
    const otherDraw = await cli('blacklist', 'review', '--corpus', corpus, '--blacklist', blacklist, '--import', redrawn);
    expect(otherDraw.code).toBe(2);
    expect(otherDraw.stderr).toMatch(/marks of another draw .*the passages were cut another way here \(another ppmlm version, or another Node, whose ICU cuts unspaced scripts into words\); import where the page was drawn, or draw a new page with --sample N --out page\.html\n$/);
    const broken = join(dir, 'broken.json');
    await writeFile(broken, '{"format": "ppmlm-review-marks",\n "version": 1,\n "items": [}');
    const malformed = await cli('blacklist', 'review', '--corpus', corpus, '--blacklist', blacklist, '--import', broken);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/broken\.json:3: not valid JSON at column \d+/);
    const same = await cli('blacklist', 'review', '--corpus', corpus, '--blacklist', blacklist, '--import', marksPath, '--apply', blacklist);
    expect(same.stderr).toBe(`ppmlm: --apply ${blacklist} is the input --blacklist too; give --apply a path of its own\n`);
    // No output replaces an input or another output, --force or not.
    const review = (...flags: string[]) => cli('blacklist', 'review', '--corpus', corpus, '--blacklist', blacklist, '--import', marksPath, '--force', ...flags);
    expect((await review('--to-gold', corpus)).stderr).toBe(`ppmlm: --to-gold ${corpus} is the input --corpus too; give --to-gold a path of its own\n`);
    expect((await review('--to-gold', blacklist)).stderr).toBe(`ppmlm: --to-gold ${blacklist} is the input --blacklist too; give --to-gold a path of its own\n`);
    expect((await review('--apply', marksPath)).stderr).toBe(`ppmlm: --apply ${marksPath} is the input --import too; give --apply a path of its own\n`);
    const both = join(dir, 'both.out');
    expect((await review('--to-gold', both, '--apply', both)).stderr).toBe(`ppmlm: --apply ${both} is the output --to-gold too; give --apply a path of its own\n`);
  }, 120_000);

  it('puts a recorded review into the card of a model fine-tuned without DP with that blacklist, never into a DP model\'s', async () => {
    const { dir, corpus, blacklist, model } = await tinySetup(4, 2);
    const page = join(dir, 'review.html');
    expect((await cli('--quiet', 'blacklist', 'review', '--corpus', corpus, '--blacklist', blacklist, '--sample', '8', '--out', page)).code).toBe(0);
    // The marks the page starts from, all passages reviewed with nothing marked: what "e" exports after Enter on each.
    const data = JSON.parse(/<script type="application\/json" id="data">(.*?)<\/script>/s.exec(await readFile(page, 'utf8'))![1]!);
    const marks = join(dir, 'marks.json');
    await writeFile(marks, JSON.stringify({ ...data.marks, items: data.marks.items.map((m: object) => ({ ...m, reviewed: true })) }));
    const imported = await cli('--quiet', 'blacklist', 'review', '--corpus', corpus, '--blacklist', blacklist, '--import', marks, '--json');
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ reviewed: 8, missed: 0, missRate: { value: 0 } });
    const small = ['--epochs', '1', '--batch-size', '4', '--seq-len', '32', '--quiet'];
    expect((await cli('finetune', '--model', model, '--corpus', corpus, '--blacklist', blacklist, '--out', join(dir, 'plain'), ...small)).code).toBe(0);
    expect(await readFile(join(dir, 'plain', 'README.md'), 'utf8')).toMatch(/\| blacklist review \| 8 passages reviewed, miss rate 0\.0% \[0\.0%, [\d.]+%\] of \d+ identifiers \(sample \w+\) \|/);
    const dp = await cli('finetune', '--model', model, '--corpus', corpus, '--blacklist', blacklist, '--strategy', 'constrained+dp', '--dp-noise', '1', '--dp-allow-private-preprocessing', '--out', join(dir, 'dp'), ...small);
    expect(dp.code, dp.stderr).toBe(0);
    expect(await readFile(join(dir, 'dp', 'README.md'), 'utf8')).not.toMatch(/blacklist review|passages reviewed/);
    expect(JSON.parse(await readFile(join(dir, 'dp', 'ppmlm.json'), 'utf8'))).not.toHaveProperty('blacklistReview');
  }, 60_000);
});
