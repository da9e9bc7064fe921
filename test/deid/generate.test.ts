import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { LabelResolver, TAXONOMY, fillDocument, generateDocuments, parseAnnotated, readAnnotatedFolder, readDatasetLabels, readReplacementLists, withStandIns } from '../../src/deid/index.js';
import { Rng } from '../../src/engine/index.js';
import { endsInConsonant } from '../../src/text/index.js';
import { FormatError } from '../../src/errors.js';
import { luhnValid } from '../../src/identifiers/index.js';
import { cli } from '../helpers/cli.js';
import { tempDir, tempFile } from '../helpers/tmp.js';

const resolver = new LabelResolver(TAXONOMY);

describe('LabelResolver', () => {
  it('resolves explicit labels, tree groups, patterns and synonyms to three levels', () => {
    expect(resolver.resolve('내국인이름')).toEqual({ level1: 'direct', level2: 'PERSON_NAME', level3: '내국인이름' });
    expect(resolver.resolve('읍아래주소')).toMatchObject({ level2: 'ADDRESS' });
    const withTree = new LabelResolver(TAXONOMY, { synonyms: { 찜질방2: '찜질방' }, treePaths: new Map([['찜질방', '사업체/미용욕탕신체관리서비스']]) });
    expect(withTree.resolve('찜질방2')).toEqual({ level1: 'quasi', level2: 'BUSINESS', level3: '찜질방' });
  });

  it('rejects unknown labels with the fix, or maps them to OTHER', () => {
    expect(() => resolver.resolve('외계인', { file: 'a.md', line: 3 })).toThrow(FormatError);
    expect(() => resolver.resolve('외계인')).toThrow(/unknown label "외계인".*--unknown-label other/);
    // Without a synonym map, the likely fix first: most such labels are Thunder-DeID's synonyms.
    expect(() => new LabelResolver(TAXONOMY).resolve('외계인')).toThrow(/; pass --replace-map with Thunder-DeID's replace_map.json \(none was given or found beside the judgments\), add it to/);
    expect(() => new LabelResolver(TAXONOMY, { synonyms: { 찜질방2: '찜질방' }, treePaths: new Map() }).resolve('외계인')).not.toThrow(/--replace-map/);
    expect(new LabelResolver(TAXONOMY, undefined, 'other').resolve('외계인')).toEqual({ level1: 'quasi', level2: 'OTHER', level3: '외계인' });
  });

  it('reads the dataset synonym map and tree when present, and names a broken one by line and column', async () => {
    const dir = await tempDir();
    expect(await readDatasetLabels(dir, join(dir, 'absent.json'))).toEqual({ synonyms: {}, treePaths: new Map() });
    const map = join(dir, 'replace_map.json');
    await writeFile(map, '{\n  "찜질방2": "찜질방",\n  "홍길동": \n}');
    await expect(readDatasetLabels(dir, map)).rejects.toMatchObject({ located: `${map}:4: not valid JSON at column 1; the dataset's file is damaged; download it again` });
  });
});

describe('fillDocument', () => {
  const doc = parseAnnotated('피해자 <<<내국인이름>>>B<<</내국인이름>>>는 <<<내국인이름>>>C<<</내국인이름>>>와 만났고, <<<내국인이름>>>B<<</내국인이름>>>가 <<<은행>>>D<<</은행>>>에 갔다.', 'a.md');
  const lists = new Map([
    ['내국인이름', ['홍길동', '김철수', '이영희']],
    ['은행', ['국민은행']],
  ]);

  it('gives one entity one value, different entities different values, and agreeing particles', () => {
    const g = fillDocument(doc, lists, resolver, new Rng(1), 0);
    const [b1, c, b2, d] = g.spans.map((s) => g.text.slice(s.start, s.end));
    expect(b1).toBe(b2);
    expect(b1).not.toBe(c);
    expect(d).toBe('국민은행');
    expect(g.spans.map((s) => s.level2)).toEqual(['PERSON_NAME', 'PERSON_NAME', 'PERSON_NAME', 'FINANCIAL_INSTITUTION']);
    expect(g.text).toContain(`${b1}${endsInConsonant(b1!) ? '은' : '는'} `);
    expect(g.text).toContain(`${c}${endsInConsonant(c!) ? '과' : '와'} `);
    expect(g.text).toContain(`${b2}${endsInConsonant(b2!) ? '이' : '가'} `);
  });

  it('writes once a kind the court left after the placeholder, outside the span, and keeps a syllable the name repeats by chance', () => {
    const kinds = parseAnnotated('<<<아파트>>>B<<</아파트>>>아파트에서 <<<지하철역>>>C<<</지하철역>>>역 승강장, <<<공인중개사>>>D<<</공인중개사>>>사무소와 <<<주점>>>E<<</주점>>>주점, <<<중고거래사이트>>>F<<</중고거래사이트>>>라는 앱', 'b.md');
    const whole = new Map([
      ['아파트', ['래미안아파트']],
      ['지하철역', ['강남역']],
      ['공인중개사', ['한빛공인중개사사무소']],
      ['주점', ['한빛맥주']],
      ['중고거래사이트', ['중고나라']],
    ]);
    const g = fillDocument(kinds, whole, new LabelResolver(TAXONOMY, undefined, 'other'), new Rng(1), 0);
    expect(g.text).toBe('래미안아파트에서 강남역 승강장, 한빛공인중개사사무소와 한빛맥주주점, 중고나라라는 앱');
    expect(g.spans.map((s) => g.text.slice(s.start, s.end))).toEqual(['래미안', '강남', '한빛공인중개사', '한빛맥주', '중고나라']);
    // The court's particle is no kind, though the label ends with its syllable, and it agrees with the name.
    const particles = parseAnnotated('<<<치과>>>B<<</치과>>>과 같은 곳, <<<도로>>>C<<</도로>>>로 이동', 'c.md');
    const named = fillDocument(particles, new Map([['치과', ['미소치과']], ['도로', ['테헤란로']]]), new LabelResolver(TAXONOMY, undefined, 'other'), new Rng(1), 0);
    expect(named.text).toBe('미소치과와 같은 곳, 테헤란로로 이동');
  });

  it('fills the address labels upstream has no list for with addresses, the unit above and the kind after left as the court wrote them', () => {
    const court = parseAnnotated('서울 마포구 <<<구아래주소>>>B<<</구아래주소>>>에 있는 아파트 <<<동>>>C<<</동>>>동 <<<호실>>>D<<</호실>>>호, 기장군 <<<군아래주소>>>E<<</군아래주소>>>에서, 교도소 <<<실>>>F<<</실>>>실', 'd.md');
    for (let seed = 1; seed <= 20; seed++) {
      const g = fillDocument(court, new Map(), new LabelResolver(TAXONOMY, undefined, 'other'), new Rng(seed), 0);
      const [street, block, room, county, cell] = g.spans.map((s) => g.text.slice(s.start, s.end));
      expect(street).toMatch(/^[가-힣]+(?:로|대로|길|로\d+번길|동) \d{1,3}(?:-\d{1,2})?$/);
      expect(county).toMatch(/^[가-힣]+(?:읍|면) (?:[가-힣]+(?:로|대로|길|로\d+번길|동|리) )?\d{1,3}(?:-\d{1,2})?$/);
      expect([block, room, cell].every((n) => /^[1-9]\d*$/.test(n!))).toBe(true);
      expect(g.text).toContain(`아파트 ${block}동 ${room}호, 기장군 ${county}에서, 교도소 ${cell}실`);
      expect(g.spans.every((s) => s.level2 === 'ADDRESS')).toBe(true);
    }
  });

  it("names a business or a landmark with no list of its own from the lists its tree groups hold, a label's own list or its synonym's first, and numbers a line, a bus and a taxi", () => {
    const tree = new Map([
      ['한식당', '사업체/외식업'],
      ['마트', '사업체/도소매및유통'],
      ['미용실', '사업체/미용욕탕신체관리서비스'],
      ['주식회사', '사업체/기업일반'],
    ]);
    const lists = withStandIns(
      new Map([
        ['한식당', ['명성불고기', '당골식당']],
        ['마트', ['바오로마트']],
        ['미용실', ['미쥬미용실']],
        ['주식회사', ['허브디티']],
        ['사무실', ['한빛사무소']],
        ['가게', ['영일네반찬가게']],
        ['학교', []],
      ]),
      tree,
    );
    // Thunder-DeID's synonym map files 가게 under 사업체, which has a stand-in pool: 가게 keeps its own list.
    const synonyms = new LabelResolver(TAXONOMY, { synonyms: { 가게: '사업체', 시설: '사업체', 카드번호: '신용카드번호' }, treePaths: tree }, 'other');
    const court = parseAnnotated(
      '<<<식당>>>C<<</식당>>>식당 앞, <<<위치기준>>>D<<</위치기준>>> 앞 도로, <<<사무실>>>E<<</사무실>>> 사무실, <<<가게>>>F<<</가게>>>, <<<시설>>>G<<</시설>>>, 지하철 <<<호선>>>H<<</호선>>>호선, <<<버스>>>I<<</버스>>>번 버스, <<<택시>>>J<<</택시>>> 택시, <<<학교>>>K<<</학교>>>, <<<카드번호>>>L<<</카드번호>>>',
      'e.md',
    );
    for (let seed = 1; seed <= 10; seed++) {
      const g = fillDocument(court, lists, synonyms, new Rng(seed), 0);
      const [restaurant, landmark, office, shop, place, line, bus, taxi, school, card] = g.spans.map((s) => g.text.slice(s.start, s.end));
      expect(['명성불고기', '당골']).toContain(restaurant);
      expect(['명성불고기', '당골식당', '바오로마트', '미쥬미용실']).toContain(landmark);
      expect(office).toBe('한빛사무소');
      expect(shop).toBe('영일네반찬가게');
      expect(['허브디티', '바오로마트', '명성불고기', '당골식당']).toContain(place);
      expect(line).toMatch(/^[1-9]$/);
      expect(bus).toMatch(/^[1-9]\d{0,3}$/);
      expect(taxi).toMatch(/^\d{2}[가-힣]\d{4}$/);
      // An empty list of its own, and no pool of its kind: the court's letter stays.
      expect(school).toBe('K');
      // A generated label the synonym map files under another keeps its generator.
      expect(luhnValid(card!)).toBe(true);
    }
    // Without the tree, only the lists named by label stand in.
    const untreed = withStandIns(new Map([['한식당', ['명성불고기']], ['마트', ['바오로마트']]]), new Map());
    const bare = fillDocument(parseAnnotated('<<<식당>>>C<<</식당>>>식당, <<<매장>>>D<<</매장>>>매장', 'f.md'), untreed, new LabelResolver(TAXONOMY, undefined, 'other'), new Rng(1), 0);
    expect(bare.spans.map((s) => bare.text.slice(s.start, s.end))).toEqual(['명성불고기', 'D']);
  });

  it('draws new surrogates per replica (per-epoch) or keeps them (single)', () => {
    const per = [...generateDocuments([doc], new Map([['내국인이름', Array.from({ length: 50 }, (_, i) => `이름${i}`)]]), new LabelResolver(TAXONOMY, undefined, 'other'), { replicas: 6, seed: 1, mode: 'per-epoch' })];
    const single = [...generateDocuments([doc], lists, resolver, { replicas: 3, seed: 1, mode: 'single' })];
    expect(new Set(per.map((g) => g.text)).size).toBeGreaterThan(1);
    expect(new Set(single.map((g) => g.text)).size).toBe(1);
    expect(single.map((g) => g.replica)).toEqual([0, 1, 2]);
  });
});

describe('ppmlm deid generate', () => {
  it('writes labelled JSONL from the bundled Korean judgments', async () => {
    const out = join(await tempDir(), 'gen.jsonl');
    const r = await cli('deid', 'generate', '--judgments', 'examples/legal-ko/judgments', '--replacements', 'examples/legal-ko/replacements', '--replicas', '2', '--out', out);
    expect(r.code, r.stderr).toBe(0);
    const rows = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(rows).toHaveLength(400);
    // A judgment's replicas are one author: read as a corpus, they are one individual.
    expect(rows[0]).toMatchObject({ author: rows[0].source, replica: 0 });
    expect(rows.filter((row) => row.author === rows[0].author)).toHaveLength(2);
    for (const row of rows.slice(0, 50)) {
      expect(row.text).not.toMatch(/<<<|>>>/);
      for (const s of row.spans) expect(row.text.slice(s.start, s.end).length).toBeGreaterThan(0);
    }
    const lists = await readReplacementLists('examples/legal-ko/replacements');
    const names = new Set(lists.get('내국인이름'));
    const nameSpans = rows.flatMap((row) => row.spans.filter((s: { level3: string }) => s.level3 === '내국인이름').map((s: { start: number; end: number }) => row.text.slice(s.start, s.end)));
    expect(nameSpans.every((n: string) => names.has(n))).toBe(true);
  });

  it('refuses replacement values that are not strings, naming the file and the key', async () => {
    const path = await tempFile('names.json', JSON.stringify({ 내국인이름: ['홍길동', { first: '길동' }] }));
    await expect(readReplacementLists(join(path, '..'))).rejects.toSatisfy(
      (err: FormatError) => err instanceof FormatError && err.located === `${path}: "내국인이름"[1] is object; replacement values must be strings`,
    );
  });

  it('stops on a malformed judgment with file:line, or skips it with --skip-bad-docs', async () => {
    const dir = await tempDir();
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(dir, 'ok.md'), '피해자 <<<내국인이름>>>B<<</내국인이름>>>');
    await writeFile(join(dir, 'bad.md'), '첫 줄\n<<<내국인이름>>>B');
    const lists = await tempFile('names.json', JSON.stringify({ 내국인이름: ['홍길동'] }));
    const listDir = join(lists, '..');
    // Not inside the judgments folder, which the next run would read.
    const out = join(await tempDir(), 'o.jsonl');
    const r = await cli('deid', 'generate', '--judgments', dir, '--replacements', listDir, '--out', out);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.md:2: <<<내국인이름>>> has no closing/);
    const skip = await cli('deid', 'generate', '--judgments', dir, '--replacements', listDir, '--out', out, '--skip-bad-docs');
    expect(skip.code, skip.stderr).toBe(0);
    expect(skip.stdout).toMatch(/1 documents .* skipped 1 malformed/);
    expect((await readAnnotatedFolder(dir, () => undefined)).map((d) => d.id)).toEqual(['ok']);
    // A file where the folder goes is said so, not as a part of the path.
    const file = await cli('deid', 'generate', '--judgments', join(dir, 'ok.md'), '--replacements', listDir, '--out', join(out, '..', 'p.jsonl'));
    expect(file.code).toBe(2);
    expect(file.stderr.trim().split('\n').at(-1)).toBe(`ppmlm: ${join(dir, 'ok.md')}: a file, not a folder; give the folder of annotated judgments (.md or .txt)`);
    const lists2 = await cli('deid', 'generate', '--judgments', dir, '--replacements', lists, '--out', join(out, '..', 'q.jsonl'));
    expect(lists2.stderr.trim().split('\n').at(-1)).toBe(`ppmlm: ${lists}: a file, not a folder; give the folder of replacement lists, JSON files {"label": ["value", ...]}`);
  });

  it('writes its output 0600 and atomically, refusing to replace it without --force', async () => {
    const dir = await tempDir();
    const { writeFile, readdir, stat } = await import('node:fs/promises');
    await writeFile(join(dir, 'ok.md'), '피해자 <<<내국인이름>>>B<<</내국인이름>>>');
    const listDir = join(await tempFile('names.json', JSON.stringify({ 내국인이름: ['홍길동'] })), '..');
    const outDir = await tempDir();
    const out = join(outDir, 'o.jsonl');
    const args = ['deid', 'generate', '--judgments', dir, '--replacements', listDir, '--out', out];
    expect((await cli(...args)).code).toBe(0);
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    const again = await cli(...args);
    expect(again.code).toBe(2);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    expect(again.stderr).toMatch(/o\.jsonl already exists; pass --force/);
    expect((await cli(...args, '--force')).code).toBe(0);
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    expect(await readdir(outDir)).toEqual(['o.jsonl']);
  });
});
