import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCorpus } from '../../src/corpus/index.js';
import { readBlacklist } from '../../src/identifiers/index.js';
import { drawReviewSample, reviewPageHtml } from '../../src/review/index.js';
import type { BenchRow, BenchSuite } from '../table.js';

/** Passages in one review, and the time a reviewer has for each to review 200 in an hour. */
const PASSAGES = 200;
const BUDGET_MS = 3_600_000 / 200;

/**
 * `npm run bench -- review`: the review page's own cost per passage. A scripted reviewer works through
 * 200 passages of the bundled synthetic notes in headless Chromium from the keyboard, as the docs teach:
 * every fifth passage a missed word marked (a few cursor moves, a type key), every seventh a protected span
 * judged (Tab, x), then Enter; every tenth an export. The row is the wall time per passage of the keys
 * and the page's answers (an upper bound of the page's latency: each key also crosses Playwright's
 * protocol), against the 18 s a passage may take for 200 in an hour. A human's reading time is not in it.
 */
export const reviewSuite: BenchSuite = {
  name: 'review',
  async run(log): Promise<BenchRow[]> {
    const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);
    if (chromium === undefined) {
      log('review: no chromium (apt-get install chromium): skipped');
      return [];
    }
    const { chromium: driver } = await import('playwright-core');
    const docs = await loadCorpus('examples/clinical-en/notes.csv');
    const sample = await drawReviewSample(docs, await readBlacklist('blacklists/clinical-en.tsv'), { size: PASSAGES, seed: 11 });
    const dir = await mkdtemp(join(tmpdir(), 'ppmlm-review-bench-'));
    const browser = await driver.launch({ executablePath: chromium, args: ['--no-sandbox'] });
    try {
      const page = join(dir, 'review.html');
      await writeFile(page, reviewPageHtml(sample), { mode: 0o600 });
      const context = await browser.newContext({ acceptDownloads: true });
      const tab = await context.newPage();
      await tab.goto(`file://${page}`);
      log(`review: ${sample.items.length} passages from the keyboard in headless Chromium`);
      let keys = 0;
      const press = async (key: string) => {
        keys++;
        await tab.keyboard.press(key);
      };
      const t0 = performance.now();
      for (const [i, item] of sample.items.entries()) {
        if (i % 5 === 0 && item.wordSpans.length > 3) {
          for (let k = 0; k < 3; k++) await press('l');
          await press('1');
        }
        if (i % 7 === 0 && item.spans.length > 0) {
          await press('Tab');
          await press('x');
        }
        await press('Enter');
        if (i % 10 === 9) await Promise.all([tab.waitForEvent('download'), press('e')]);
      }
      const status = (await tab.locator('#status').textContent()) ?? '';
      const seconds = (performance.now() - t0) / 1000;
      if (!status.includes(`${sample.items.length} reviewed in all`)) throw new Error(`review bench: the page did not record every passage (${status})`);
      const words = sample.items.reduce((sum, item) => sum + item.words, 0) / sample.items.length;
      return [
        {
          suite: 'review',
          case: `review page, ${sample.items.length} passages from the keyboard (headless Chromium): keys and page per passage`,
          value: (1000 * seconds) / sample.items.length,
          unit: 'ms',
          lowerIsBetter: true,
          baseline: { name: 'a passage of 200 in an hour', value: BUDGET_MS },
          note: `${(keys / sample.items.length).toFixed(1)} keys per passage; ${words.toFixed(0)} words per passage to read; a human's reading and judging time is not measured`,
        },
      ];
    } finally {
      await browser.close();
      await rm(dir, { recursive: true, force: true });
    }
  },
};
