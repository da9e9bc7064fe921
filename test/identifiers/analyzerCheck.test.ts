import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { assertSameAnalyzer, type Blacklist } from '../../src/identifiers/index.js';
import { cli } from '../helpers/cli.js';
import { tinySetup } from '../helpers/tinyModel.js';

const built = (analyzer?: string): Blacklist => ({ header: { version: 1, extra: analyzer === undefined ? {} : { analyzer } }, entries: [{ term: '홍길동', kind: 'direct', category: 'PERSON', authors: 1, occurrences: 1, sources: ['test'] }] });

describe('assertSameAnalyzer', () => {
  it('refuses Korean text cut by another analyser than the one that built the blacklist, naming both and the fix', () => {
    expect(() => assertSameAnalyzer(built('mecab'), { name: 'rule' }, ['피고인 홍길동이 왔다.'])).toThrow(/built with the Korean analyser "mecab" but this run cuts Korean text with "rule".*use --analyzer mecab \(install it: apt-get install mecab\)/);
    expect(() => assertSameAnalyzer(built('none'), { name: 'mecab' }, ['홍길동이 왔다.'])).toThrow(/use --lang en as the blacklist was built/);
    // A run that reads Korean as English (--lang en) is told to change the language, not the analyser alone.
    expect(() => assertSameAnalyzer(built('mecab'), undefined, ['홍길동이 왔다.'])).toThrow(/cuts Korean text with "none".*use --lang ko \(or auto\) with --analyzer mecab/);
  });

  it('lets the same analyser, text without Hangul and a plain term list through', () => {
    expect(() => assertSameAnalyzer(built('mecab'), { name: 'mecab' }, ['홍길동이 왔다.'])).not.toThrow();
    expect(() => assertSameAnalyzer(built('mecab'), { name: 'rule' }, ['Alice Smith seen today.'])).not.toThrow();
    expect(() => assertSameAnalyzer(built(), { name: 'rule' }, ['홍길동이 왔다.'])).not.toThrow();
  });
});

describe('ppmlm finetune with a blacklist built by another Korean analyser', () => {
  it('is refused before training, with exit 2', async () => {
    const { dir, model } = await tinySetup(2, 1);
    const corpus = join(dir, 'ko.jsonl');
    await writeFile(corpus, ['{"id":"1","author":"a","text":"피고인 홍길동이 피해자를 만났다."}', '{"id":"2","author":"b","text":"피해자 김민서는 송금하였다."}'].join('\n'));
    const blacklist = join(dir, 'ko.tsv');
    await writeFile(blacklist, '# ppmlm blacklist\n# version: 1\n# analyzer: mecab\nterm\tkind\tcategory\tauthors\toccurrences\tsources\n홍길동\tdirect\tPERSON\t1\t1\ttest\n');
    const r = await cli('--quiet', 'finetune', '--model', model, '--corpus', corpus, '--blacklist', blacklist, '--strategy', 'constrained', '--analyzer', 'rule', '--epochs', '1', '--seq-len', '32', '--out', join(dir, 'x'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^ppmlm: the blacklist was built with the Korean analyser "mecab" but this run cuts Korean text with "rule"/);
  });
});
