import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'fast-csv';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readCorpus } from '../../src/corpus/index.js';
import { bestTime, type BenchSuite, type BenchRow } from '../table.js';

const run = promisify(execFile);

/** A synthetic clinical-looking CSV of about `mb` megabytes with quoted, multi-line texts. */
async function makeCsv(path: string, mb: number): Promise<number> {
  const words = 'patient reports chest pain since monday denies fever blood pressure stable follow up in two weeks 홍길동 내원 2019. 9. 5.'.split(' ');
  const lines = ['id,author,text'];
  let bytes = 0;
  for (let i = 0; bytes < mb * 1e6; i++) {
    const text = Array.from({ length: 60 }, (_, k) => words[(i * 7 + k * 13) % words.length]).join(' ');
    const line = `${i},p${i % 5000},"${text}, ""quoted"",\nsecond line"`;
    bytes += Buffer.byteLength(line) + 1;
    lines.push(line);
  }
  await writeFile(path, `${lines.join('\n')}\n`);
  return (await stat(path)).size;
}

/** A CSV of one document whose quoted text is `chars` characters, with escaped quotes and newlines in it. */
async function makeLongFieldCsv(path: string, chars: number): Promise<void> {
  const unit = 'patient reports ""pain"",\nfollow up. ';
  await writeFile(path, `id,author,text\n1,p1,"${unit.repeat(Math.floor(chars / unit.length))}${'x'.repeat(chars % unit.length)}"\n`);
}

/** Seconds to read a CSV whose only text is a `chars`-character quoted field. */
async function longFieldTime(dir: string, chars: number): Promise<number> {
  const path = join(dir, `field-${chars}.csv`);
  await makeLongFieldCsv(path, chars);
  return bestTime(async () => {
    for await (const doc of readCorpus(path, { maxDocChars: 2 * chars })) void doc;
  }, 2);
}

export const csvSuite: BenchSuite = {
  name: 'csv',
  async run(log): Promise<BenchRow[]> {
    const dir = await mkdtemp(join(tmpdir(), 'ppmlm-bench-'));
    try {
      const path = join(dir, 'corpus.csv');
      const size = await makeCsv(path, 50);
      log(`csv reader on ${(size / 1e6).toFixed(0)} MB`);
      const ours = await bestTime(async () => {
        for await (const doc of readCorpus(path)) void doc;
      }, 2);
      // Streaming shows as a bounded footprint: the whole file through the CLI with the JS heap capped far below its size.
      const { stdout } = await run(process.execPath, ['--max-old-space-size=48', '--import', 'tsx', '-e', `import { readCorpus } from './src/corpus/index.js'; import { peakRssMB } from './bench/peakRss.js'; let n = 0; for await (const d of readCorpus(${JSON.stringify(path)})) n++; console.log(JSON.stringify({ n, rss: peakRssMB() }));`], { maxBuffer: 1 << 20 });
      const capped = JSON.parse(stdout.trim().split('\n').at(-1)!) as { n: number; rss: number };
      const bare = await bestTime(
        () =>
          new Promise<void>((resolve, reject) => {
            createReadStream(path).pipe(parse({ headers: true })).on('data', () => undefined).on('end', () => resolve()).on('error', reject);
          }),
        2,
      );
      log('csv reader on one 1 MB and one 10 MB quoted field');
      const oneMb = await longFieldTime(dir, 1e6);
      const tenMb = await longFieldTime(dir, 1e7);
      const mbps = (s: number) => size / 1e6 / s;
      return [
        {
          suite: 'corpus',
          case: 'readCorpus CSV (UTF-8 check, line numbers, validation)',
          value: mbps(ours),
          unit: 'MB/s',
          baseline: { name: 'bare fast-csv parse', value: mbps(bare) },
        },
        {
          suite: 'corpus',
          case: 'readCorpus CSV, one 10 MB quoted field (escaped quotes, newlines)',
          value: tenMb,
          unit: 's',
          lowerIsBetter: true,
          baseline: { name: '10 x the 1 MB field', value: 10 * oneMb },
          note: 'goal: ratio >= 0.5 (linear in the field length; fast-csv 5 was quadratic: 36.8 s at 8 MB)',
        },
        {
          suite: 'corpus',
          case: `peak RSS reading the ${(size / 1e6).toFixed(0)} MB CSV with the JS heap capped at 48 MB`,
          value: capped.rss,
          unit: 'MB',
          note: `${capped.n} documents; only the duplicate-id set grows (with documents, not bytes)`,
        },
      ];
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
