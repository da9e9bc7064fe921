import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MecabAnalyzer, locateMecab, npmDictionary } from '../../src/text/index.js';
import type { BenchRow, BenchSuite } from '../table.js';

const SENTENCES = Array.from({ length: 300 }, (_, i) => `피고인 홍길동${i}은 2019. 9. 5. 서울중앙지방법원에서 사기죄로 징역 ${i % 5 + 1}년을 선고받았다.`);

export const mecabSuite: BenchSuite = {
  name: 'mecab',
  async run(log): Promise<BenchRow[]> {
    const location = locateMecab();
    const dic = npmDictionary();
    if ('missing' in location || dic === undefined) {
      log(`mecab unavailable (${'missing' in location ? location.missing : 'no dictionary'}): skipped`);
      return [];
    }
    log(`mecab: ${SENTENCES.length} sentences, one process vs mecab-ya (a shell per call)`);
    const ours = new MecabAnalyzer(location);
    const t0 = performance.now();
    await Promise.all(SENTENCES.map((s) => ours.analyze(s)));
    const oursSeconds = (performance.now() - t0) / 1000;
    await ours.close();

    // mecab-ya runs $MECAB_LIB_PATH/bin/mecab through a shell for every call; point it at the same mecab and dictionary.
    const dir = await mkdtemp(join(tmpdir(), 'ppmlm-mecab-ya-'));
    try {
      await mkdir(join(dir, 'bin'));
      await writeFile(join(dir, 'bin', 'mecab'), `#!/bin/sh\nexec ${location.bin} -d ${dic} "$@"\n`);
      await chmod(join(dir, 'bin', 'mecab'), 0o755);
      process.env.MECAB_LIB_PATH = dir;
      const mecabYa = createRequire(import.meta.url)('mecab-ya') as { pos(text: string, cb: (err: Error | null, r: unknown) => void): void };
      const t1 = performance.now();
      for (const s of SENTENCES) await new Promise((resolve, reject) => mecabYa.pos(s, (err, r) => (err ? reject(err) : resolve(r))));
      const yaSeconds = (performance.now() - t1) / 1000;
      return [{ suite: 'korean', case: 'mecab, one long-lived process', value: SENTENCES.length / oursSeconds, unit: 'sentences/s', baseline: { name: 'mecab-ya exec per call', value: SENTENCES.length / yaSeconds } }];
    } finally {
      delete process.env.MECAB_LIB_PATH;
      await rm(dir, { recursive: true, force: true });
    }
  },
};
