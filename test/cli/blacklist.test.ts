import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { readSpanCorpus } from '../../src/corpus/index.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES, tempDir } from '../helpers/tmp.js';

const CORPUS = join(FIXTURES, 'corpus', 'notes.csv');
const NAMES = join(FIXTURES, 'identifiers', 'names.txt');

describe('ppmlm blacklist', () => {
  it('build writes a 0600 TSV with direct and indirect terms, never printing identifiers', async () => {
    const dir = await tempDir();
    const out = join(dir, 'bl.tsv');
    const graph = join(dir, 'graph.gexf');
    const r = await cli('blacklist', 'build', '--corpus', CORPUS, '--out', out, '--recognizers', 'none', '--gazetteer', NAMES, '--graph-out', graph, '--common-words', 'all', '--json');
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ documents: 3, authors: 2, direct: 1 });
    expect(summary.indirect).toBeGreaterThan(5);
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    expect((await stat(graph)).mode & 0o777).toBe(0o600);
    const tsv = await readFile(out, 'utf8');
    expect(tsv).toMatch(/^alice\tdirect\tPERSON\t1\t1\tlist:names\.txt,graph:k=2$/m);
    expect(tsv).toMatch(/^wheeze\tindirect\tRARE\t1\t1\tgraph:k=2$/m);
    expect(await readFile(graph, 'utf8')).toMatch(/<gexf xmlns="http:\/\/gexf.net\/1.3"/);
    expect(r.stderr + r.stdout).not.toMatch(/alice|wheeze/i);

    const again = await cli('blacklist', 'build', '--corpus', CORPUS, '--out', out);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/bl\.tsv already exists; pass --force/);

    const stats = await cli('blacklist', 'stats', out, '--json');
    expect(JSON.parse(stats.stdout)).toMatchObject({ byKind: { direct: 1 }, byCategory: { PERSON: 1 } });
    expect(stats.stdout).not.toMatch(/alice/i);
  });

  it('honours --stop-list and --keep-numbers, and exports the graph as graphology JSON', async () => {
    const dir = await tempDir();
    const stop = join(dir, 'stop.txt');
    await writeFile(stop, '# never blacklisted\nWheeze\n');
    const graph = join(dir, 'graph.json');
    const build = (out: string, ...flags: string[]) => cli('blacklist', 'build', '--corpus', CORPUS, '--out', join(dir, out), '--recognizers', 'none', ...flags);
    const terms = async (f: string) => (await readFile(join(dir, f), 'utf8')).split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t')[0]);
    expect((await build('default.tsv')).code).toBe(0);
    // No output replaces an input or another output, --force or not.
    expect((await build('over.tsv', '--stop-list', stop, '--silver-out', stop, '--force')).stderr).toBe(`ppmlm: --silver-out ${stop} is the input --stop-list too; give --silver-out a path of its own\n`);
    expect((await build('twice.tsv', '--graph-out', join(dir, 'twice.tsv'))).stderr).toBe(`ppmlm: --graph-out ${join(dir, 'twice.tsv')} is the output --out too; give --graph-out a path of its own\n`);
    expect((await readFile(stop, 'utf8'))).toBe('# never blacklisted\nWheeze\n');
    // By default an English word used by one person counts only where someone wrote it as a name.
    expect(await terms('default.tsv')).not.toContain('wheeze');
    expect((await readFile(join(dir, 'default.tsv'), 'utf8')).match(/^# unigram-rule: .*$/m)?.[0]).toBe('# unigram-rule: no typos, English words only written as names, never in lower case');
    expect((await build('plain.tsv', '--common-words', 'all')).code).toBe(0);
    expect((await build('stopped.tsv', '--common-words', 'all', '--stop-list', stop, '--keep-numbers', '--graph-out', graph)).code).toBe(0);
    const plain = await terms('plain.tsv');
    const stopped = await terms('stopped.tsv');
    expect(plain).toContain('wheeze');
    expect(stopped).not.toContain('wheeze');
    // 42 alone is a number: a term only with --keep-numbers.
    expect(plain).not.toContain('42');
    expect(stopped).toContain('42');
    const exported = JSON.parse(await readFile(graph, 'utf8')) as { nodes: { key: string; attributes: { kind: string } }[]; edges: { attributes: { weight: number } }[] };
    expect(exported.nodes.filter((n) => n.attributes.kind === 'author').map((n) => n.key).sort()).toEqual(['a:alice', 'a:bob']);
    expect(exported.nodes.some((n) => n.key === 't:wheeze')).toBe(true);
    expect(exported.edges.every((e) => e.attributes.weight >= 1)).toBe(true);
    expect((await stat(graph)).mode & 0o777).toBe(0o600);
    const missing = await build('x.tsv', '--stop-list', join(dir, 'nope.txt'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.txt: no such file or folder; check --stop-list/);
    const elsewhere = await tempDir();
    const folder = await build('y.tsv', '--stop-list', elsewhere);
    expect(folder.stderr).toBe(`ppmlm: ${elsewhere}: is a folder where a file is needed; give a file name; check --stop-list\n`);
  });

  it('writes the detections of each document as silver span JSONL (0600) that deid train reads', async () => {
    const dir = await tempDir();
    const silver = join(dir, 'silver.jsonl');
    const r = await cli('blacklist', 'build', '--corpus', CORPUS, '--out', join(dir, 'bl.tsv'), '--silver-out', silver);
    expect(r.code).toBe(0);
    expect((await stat(silver)).mode & 0o777).toBe(0o600);
    const docs = await readSpanCorpus(silver, 'jsonl');
    expect(docs.map((d) => [d.id, d.author, d.spans.map((s) => `${d.text.slice(s.start, s.end)}:${s.label}`)])).toEqual([
      ['n1', 'alice', ['Alice Smith:PERSON']],
      ['n2', 'alice', []],
      ['n3', 'bob', ['Bob Jones:PERSON']],
    ]);
    expect(r.stderr + r.stdout).not.toMatch(/alice|smith/i);
    const again = await cli('blacklist', 'build', '--corpus', CORPUS, '--out', join(dir, 'other.tsv'), '--silver-out', silver);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/silver\.jsonl already exists; pass --force/);
  });

  it('show marks the protected spans of a text', async () => {
    const dir = await tempDir();
    const list = join(dir, 'list.txt');
    const text = join(dir, 'note.txt');
    await writeFile(list, 'alice smith\n617-555-0142\n');
    await writeFile(text, 'Alice Smith called 617-555-0142 today.');
    const r = await cli('blacklist', 'show', '--blacklist', list, '--text', text);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('⟦Alice Smith⟧ called ⟦617-555-0142⟧ today.');
  });

  it('exports the author-term pairs as Parquet through DuckDB', async () => {
    const dir = await tempDir();
    const pairs = join(dir, 'pairs.parquet');
    const r = await cli('blacklist', 'build', '--corpus', CORPUS, '--out', join(dir, 'b.tsv'), '--engine', 'duckdb', '--export-pairs', pairs, '--recognizers', 'none');
    expect(r.code).toBe(0);
    expect((await readFile(pairs)).subarray(0, 4).toString()).toBe('PAR1');
  });

  it('writes the pairs 0600 and atomically, refusing to replace them without --force', async () => {
    const dir = await tempDir();
    const pairs = join(dir, 'pairs.parquet');
    const args = ['blacklist', 'build', '--corpus', CORPUS, '--export-pairs', pairs, '--recognizers', 'none'];
    expect((await cli(...args, '--out', join(dir, 'a.tsv'))).code).toBe(0);
    expect((await stat(pairs)).mode & 0o777).toBe(0o600);
    const again = await cli(...args, '--out', join(dir, 'b.tsv'));
    expect(again.code).toBe(2);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    expect(again.stderr).toMatch(/pairs\.parquet already exists; pass --force/);
    expect((await cli(...args, '--out', join(dir, 'b.tsv'), '--force')).code).toBe(0);
    expect((await stat(pairs)).mode & 0o777).toBe(0o600);
    // Only the outputs: no temp file or folder is left beside them.
    expect((await readdir(dir)).sort()).toEqual(['a.tsv', 'b.tsv', 'pairs.parquet']);
  });

  it('refuses an output it could not write before building, naming the path and the fix', async () => {
    const dir = await tempDir();
    const file = join(dir, 'file');
    await writeFile(file, '');
    for (const flag of ['--out', '--export-pairs']) {
      const outputs = { '--out': join(dir, 'bl.tsv'), '--export-pairs': join(dir, 'p.parquet'), [flag]: join(file, 'x') };
      const r = await cli('blacklist', 'build', '--corpus', CORPUS, ...Object.entries(outputs).flat());
      expect(r.code, flag).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/file\/x: part of the path is a file, not a folder; choose another path/);
      expect(r.stderr).not.toMatch(/ENOTDIR/);
    }
    expect(await readdir(dir)).toEqual(['file']);
  });

  it('leaves a whole kind of identifier out with --recognizers -KIND, recorded in the header', async () => {
    const dir = await tempDir();
    const out = join(dir, 'bl.tsv');
    const r = await cli('blacklist', 'build', '--corpus', CORPUS, '--out', out, '--recognizers', '-PERSON', '--json');
    expect(r.code).toBe(0);
    const tsv = await readFile(out, 'utf8');
    // alice and jones stay, as the places they also are (towns of the bundled list), no longer as persons.
    expect(tsv).toMatch(/^alice\tdirect\tLOCATION\t/m);
    expect(tsv).not.toMatch(/\tdirect\tPERSON\t/);
    const recorded = tsv.match(/^# recognizers: (.*)$/m)![1]!.split(',');
    expect(recorded).toContain('rule:date-us');
    expect(recorded).not.toContain('names');
    expect(recorded).not.toContain('korean-names');
  });

  it('rejects bad flags with exit 2 and a one-line reason', async () => {
    const dir = await tempDir();
    for (const [args, message] of [
      [['--ngrams', '3-1'], /--ngrams must look like 1-3/],
      [['--k', '0'], /--k must be an integer between 1/],
      [['--recognizers', 'email,dna'], /unknown recogniser\(s\) dna/],
      [['--graph-out', join(dir, 'g.txt')], /use a \.gexf or \.json file name/],
    ] as const) {
      const r = await cli('blacklist', 'build', '--corpus', CORPUS, '--out', join(dir, `x${Math.random()}.tsv`), ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    // A corpus flag refused where mecab would run: the process ends (it hung, mecab's pipe left open).
    const refused = await new Promise<{ code: number | null; signal: string | null; stderr: string }>((done) => {
      const child = execFile(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'blacklist', 'build', '--corpus', CORPUS, '--lang', 'ko', '--out', join(dir, 'm.tsv'), '--max-doc-chars', '0'], { timeout: 30_000 }, (_err, _stdout, stderr) => done({ code: child.exitCode, signal: child.signalCode, stderr }));
    });
    expect(refused).toMatchObject({ code: 2, signal: null });
    expect(refused.stderr).toMatch(/--max-doc-chars must be an integer between 1/);
  });

  it('build refuses a header-only corpus rather than writing an empty blacklist', async () => {
    const dir = await tempDir();
    const corpus = join(dir, 'h.csv');
    await writeFile(corpus, 'id,author,text\n');
    const r = await cli('blacklist', 'build', '--corpus', corpus, '--out', join(dir, 'bl.tsv'));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`ppmlm: ${corpus}: the corpus has no documents (an empty file, a header row only, or every row skipped); give at least one document\n`);
    await expect(stat(join(dir, 'bl.tsv'))).rejects.toThrow(/ENOENT/);
  });
});

describe('shipped blacklists', () => {
  it.each([
    ['clinical-en', 'examples/clinical-en/notes.csv', []],
    ['legal-ko', 'examples/legal-ko/judgments.csv', ['--lang', 'ko']],
  ] as const)('blacklists/%s.tsv is what the bundled corpus builds today', async (name, corpus, extra) => {
    const committed = await readFile(join('blacklists', `${name}.tsv`), 'utf8');
    const analyzer = /^# analyzer: (\w+)$/m.exec(committed)?.[1] ?? 'none';
    const out = join(await tempDir(), 'bl.tsv');
    const args = ['blacklist', 'build', '--corpus', corpus, '--out', out, ...extra, ...(analyzer === 'none' ? [] : ['--analyzer', analyzer])];
    const r = await cli('--quiet', ...args);
    expect(r.code, r.stderr).toBe(0);
    const rows = (text: string) => text.split('\n').filter((l) => l && !l.startsWith('#'));
    expect(rows(await readFile(out, 'utf8'))).toEqual(rows(committed));
  });
});

describe('the Korean analyser fallback', () => {
  it('is a warning that --quiet does not hide, and the blacklist records the analyser that built it', async () => {
    const saved = process.env.MECAB_LIB_PATH;
    process.env.MECAB_LIB_PATH = '/nonexistent-mecab';
    try {
      const out = join(await tempDir(), 'bl.tsv');
      const r = await cli('--quiet', 'blacklist', 'build', '--corpus', 'examples/legal-ko/judgments.csv', '--lang', 'ko', '--out', out);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^warning: Korean morphology uses the built-in rule analyser \(MECAB_LIB_PATH is set but \/nonexistent-mecab\/bin\/mecab is not an executable\)$/m);
      expect(await readFile(out, 'utf8')).toMatch(/^# analyzer: rule$/m);
    } finally {
      if (saved === undefined) delete process.env.MECAB_LIB_PATH;
      else process.env.MECAB_LIB_PATH = saved;
    }
  });
});

describe('Korean text read with --lang en', () => {
  it('is built as asked, with a warning that its words keep their particles; English text gets none', async () => {
    const dir = await tempDir();
    const korean = await cli('--quiet', 'blacklist', 'build', '--corpus', 'examples/legal-ko/judgments.csv', '--lang', 'en', '--out', join(dir, 'ko.tsv'));
    expect(korean.code, korean.stderr).toBe(0);
    expect(korean.stderr.match(/^warning: the corpus holds Korean text, read with --lang en: .*use --lang ko or auto$/gm)).toHaveLength(1);
    const english = await cli('--quiet', 'blacklist', 'build', '--corpus', CORPUS, '--lang', 'en', '--out', join(dir, 'en.tsv'));
    expect(english.code, english.stderr).toBe(0);
    expect(english.stderr).not.toMatch(/Korean text/);
  });
});
