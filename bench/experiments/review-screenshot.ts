/**
 * The screenshot of the review page in docs/blacklists.md, from the bundled synthetic notes (no real
 * person's data), after a reviewer marked a miss and a false alarm from the keyboard:
 *   npx tsx bench/experiments/review-screenshot.ts [docs/images/review-page.png]
 * Needs Debian's chromium.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { loadCorpus } from '../../src/corpus/index.js';
import { readBlacklist } from '../../src/identifiers/index.js';
import { drawReviewSample, reviewPageHtml } from '../../src/review/index.js';

const out = process.argv[2] ?? 'docs/images/review-page.png';
const docs = await loadCorpus('examples/clinical-en/notes.csv');
const sample = await drawReviewSample(docs, await readBlacklist('blacklists/clinical-en.tsv'), { size: 200, seed: 7 });
const page = join(await mkdtemp(join(tmpdir(), 'ppmlm-shot-')), 'review.html');
await writeFile(page, reviewPageHtml(sample), { mode: 0o600 });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const tab = await browser.newPage({ viewport: { width: 1200, height: 640 } });
  await tab.goto(`file://${page}`);
  // As a reviewer would: walk the word cursor to a hobby the blacklist left unprotected ("falconry" in this
  // draw, an indirect identifier) and mark it missed (6, OTHER), then focus the first span.
  const first = sample.items[0]!;
  const words = first.wordSpans.map(([s, e]) => first.text.slice(s, e));
  const target = words.indexOf('falconry');
  if (target < 0) throw new Error('the first passage of this draw changed; pick another word');
  for (let i = 0; i < target; i++) await tab.keyboard.press('l');
  await tab.keyboard.press('6');
  await tab.keyboard.press('Tab');
  await tab.screenshot({ path: out });
} finally {
  await browser.close();
}
console.log(`wrote ${out}`);
