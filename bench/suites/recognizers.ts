import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readSpanCorpus } from '../../src/corpus/index.js';
import type { BenchRow, BenchSuite } from '../table.js';

const run = promisify(execFile);
const exists = (path: string | undefined) => (path ? stat(path).then(() => true, () => false) : Promise.resolve(false));

/**
 * The default blacklist build (recognisers included, in a fresh process: list loading counts) against
 * deid.pl, PhysioNet's one-threaded Perl de-identifier, on the same nursing notes in the same run.
 * `physionet` is the folder with id.text; `deidPl` a checkout of cliffordlab/DEID-2023, run by path
 * (copied to a temporary folder, since it writes beside its input). Rows are skipped when either is absent.
 */
export function recognizersSuite(physionet = '../shared/data/physionet-deid', deidPl = process.env.PPMLM_DEID_PL): BenchSuite {
  return {
    name: 'recognizers',
    async run(log): Promise<BenchRow[]> {
      if (!(await exists(join(physionet, 'id.text')))) {
        log(`no ${physionet}/id.text: recognizers suite skipped (pass --physionet DIR)`);
        return [];
      }
      const dir = await mkdtemp(join(tmpdir(), 'ppmlm-bench-'));
      try {
        const docs = await readSpanCorpus(physionet, 'physionet');
        const corpus = join(dir, 'notes.jsonl');
        await writeFile(corpus, docs.map((d) => JSON.stringify({ id: d.id, author: d.author, text: d.text })).join('\n') + '\n');
        log(`ppmlm blacklist build (defaults) on ${docs.length} notes`);
        let t0 = performance.now();
        await run(process.execPath, ['--import', 'tsx', join('src', 'cli', 'bin.ts'), '--quiet', 'blacklist', 'build', '--corpus', corpus, '--out', join(dir, 'bl.tsv')], { maxBuffer: 1 << 20 });
        const ours = (performance.now() - t0) / 1000;
        let baseline: BenchRow['baseline'];
        let note = 'deid.pl absent (set PPMLM_DEID_PL or --deid-pl to a DEID-2023 checkout): no baseline';
        if (await exists(deidPl && join(deidPl, 'deid.pl'))) {
          const work = join(dir, 'deid');
          await cp(deidPl!, work, { recursive: true });
          await cp(join(physionet, 'id.text'), join(work, 'id.text'));
          log('deid.pl (output mode) on the same notes');
          t0 = performance.now();
          await run('perl', ['deid.pl', 'id', 'deid-output.config'], { cwd: work, maxBuffer: 1 << 24 });
          baseline = { name: 'deid.pl', value: (performance.now() - t0) / 1000 };
          note = 'one process each, start-up included; deid.pl is single-threaded';
        } else log(note);
        return [{ suite: 'recognizers', case: `default blacklist build, ${docs.length} PhysioNet notes`, value: ours, unit: 's', lowerIsBetter: true, ...(baseline && { baseline }), note }];
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
