import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Rng } from '../../src/engine/random.js';
import type { BenchRow, BenchSuite } from '../table.js';

const run = promisify(execFile);

/** Zipf-distributed words over a 50k vocabulary, 2,000 authors, 200-word documents. */
async function makeCorpus(path: string, tokens: number): Promise<void> {
  const rng = new Rng(1);
  const vocab = 50_000;
  const cdf: number[] = [];
  let total = 0;
  for (let r = 1; r <= vocab; r++) cdf.push((total += 1 / r));
  const draw = () => {
    const x = rng.next() * total;
    let lo = 0;
    let hi = vocab - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return `w${lo.toString(36)}`;
  };
  const lines: string[] = [];
  for (let done = 0, d = 0; done < tokens; d++, done += 200) lines.push(`a${d % 2000}\t${Array.from({ length: 200 }, draw).join(' ')}`);
  await writeFile(path, `${lines.join('\n')}\n`);
}

/**
 * Writing memory for the first time against writing it again (MB/s): a build touches about its peak RSS
 * of fresh memory (the counting table, a blacklist entry per rare term), and on a machine where first
 * touch is slow that, not the counting, bounds tokens/s.
 */
function firstTouch(): { fresh: number; again: number } {
  const bytes = 256 << 20;
  let fresh = 0;
  let again = 0;
  for (let r = 0; r < 3; r++) {
    const buffer = new Uint8Array(bytes);
    let t0 = performance.now();
    buffer.fill(1);
    fresh = Math.max(fresh, bytes / 2 ** 20 / ((performance.now() - t0) / 1000));
    t0 = performance.now();
    buffer.fill(2);
    again = Math.max(again, bytes / 2 ** 20 / ((performance.now() - t0) / 1000));
  }
  return { fresh, again };
}

interface Measured {
  seconds: number;
  tokens: number;
  rare: number;
  maxRssMB: number;
}

export const blacklistSuite: BenchSuite = {
  name: 'blacklist',
  async run(log): Promise<BenchRow[]> {
    const dir = await mkdtemp(join(tmpdir(), 'ppmlm-bench-'));
    try {
      const path = join(dir, 'corpus.tsv');
      const tokens = 1_000_000;
      await makeCorpus(path, tokens);
      const rows: BenchRow[] = [];
      let python: Measured | undefined;
      try {
        log('python Counter baseline');
        python = JSON.parse((await run('python3', [join('bench', 'baselines', 'count_terms.py'), path, '2'], { maxBuffer: 1 << 20 })).stdout) as Measured;
      } catch {
        log('python3 missing: baseline n/a');
      }
      const touch = firstTouch();
      rows.push({ suite: 'blacklist', case: 'first write of fresh memory (256 MB)', value: touch.fresh, unit: 'MB/s', baseline: { name: 'rewriting it', value: touch.again }, note: 'a build touches about its peak RSS of fresh memory' });
      for (const engine of ['counting', 'graph', 'duckdb'] as const) {
        log(`buildBlacklist engine=${engine} on ${tokens} tokens`);
        const { stdout } = await run(process.execPath, ['--import', 'tsx', join('bench', 'workers', 'blacklistWorker.ts'), path, engine], { maxBuffer: 1 << 20 });
        const ours = JSON.parse(stdout.trim().split('\n').at(-1)!) as Measured;
        const base = python ? { name: 'Python Counter', value: python.tokens / python.seconds } : undefined;
        rows.push({ suite: 'blacklist', case: `${engine}: 1-3-grams, k=2, ${tokens / 1e6}M tokens`, value: ours.tokens / ours.seconds, unit: 'tokens/s', ...(base && { baseline: base }), note: `${ours.rare} rare terms${python ? ` (python: ${python.rare})` : ''}` });
        const rssBase = python ? { name: 'Python Counter', value: python.maxRssMB } : undefined;
        rows.push({ suite: 'blacklist', case: `${engine}: peak RSS`, value: ours.maxRssMB, unit: 'MB', lowerIsBetter: true, ...(rssBase && { baseline: rssBase }) });
      }
      return rows;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
