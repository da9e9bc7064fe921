import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'fast-csv';
import { readCorpus } from '../../src/corpus/index.js';
import { bestTime, type BenchSuite, type BenchRow } from '../table.js';

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

export const csvSuite: BenchSuite = {
  name: 'csv',
  async run(log): Promise<BenchRow[]> {
    const dir = await mkdtemp(join(tmpdir(), 'ppmlm-bench-'));
    try {
      const path = join(dir, 'corpus.csv');
      const size = await makeCsv(path, 50);
      log(`csv reader on ${(size / 1e6).toFixed(0)} MB`);
      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      const ours = await bestTime(async () => {
        let n = 0;
        for await (const doc of readCorpus(path)) {
          if (++n % 5000 === 0) rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
          void doc;
        }
      }, 2);
      const bare = await bestTime(
        () =>
          new Promise<void>((resolve, reject) => {
            createReadStream(path).pipe(parse({ headers: true })).on('data', () => undefined).on('end', () => resolve()).on('error', reject);
          }),
        2,
      );
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
          case: `readCorpus CSV RSS growth over ${(size / 1e6).toFixed(0)} MB (streaming: independent of file size)`,
          value: (rssPeak - rssBefore) / 1e6,
          unit: 'MB',
          note: 'includes the duplicate-id set (grows with documents, not bytes)',
        },
      ];
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
