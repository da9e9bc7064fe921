import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cp, readFile, readdir, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { cli } from '../helpers/cli.js';
import { FIXTURES, tempDir } from '../helpers/tmp.js';
import { parseSafetensors } from '../../src/model/index.js';
import { tokenSurface } from '../../src/tokenizer/index.js';
import { tinySetup } from '../helpers/tinyModel.js';

const CORPUS = join(FIXTURES, 'corpus', 'notes.jsonl');
const run = promisify(execFile);

describe('ppmlm tokenizer train / model init / fill-mask', () => {
  it('trains a tokenizer, initialises a Hugging Face BERT folder and fills masks from it', async () => {
    const dir = await tempDir();
    const tok = join(dir, 'tok');
    const t = await cli('tokenizer', 'train', '--corpus', CORPUS, '--public-corpus', '--vocab-size', '200', '--min-frequency', '1', '--out', tok);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/WordPiece, \d+ tokens/);
    const json = JSON.parse(await readFile(join(tok, 'tokenizer.json'), 'utf8'));
    expect(json.model.type).toBe('WordPiece');
    expect(json.model.vocab).toHaveProperty('[MASK]');

    const model = join(dir, 'model');
    const m = await cli('model', 'init', '--vocab', tok, '--out', model, '--hidden', '16', '--layers', '1', '--heads', '2', '--intermediate', '32', '--max-positions', '64');
    expect(m.code, m.stderr).toBe(0);
    expect((await readdir(model)).sort()).toEqual(['README.md', 'config.json', 'model.safetensors', 'ppmlm.json', 'tokenizer.json', 'tokenizer_config.json', 'vocab.txt']);
    const config = JSON.parse(await readFile(join(model, 'config.json'), 'utf8'));
    expect(config).toMatchObject({ model_type: 'bert', architectures: ['BertForMaskedLM'], hidden_size: 16, num_hidden_layers: 1, vocab_size: json.model.vocab ? Object.keys(json.model.vocab).length : 0 });
    const { tensors } = parseSafetensors(await readFile(join(model, 'model.safetensors')), 'm');
    expect(tensors.get('bert.encoder.layer.0.intermediate.dense.weight')!.shape).toEqual([32, 16]);
    expect(tensors.has('cls.predictions.transform.dense.weight')).toBe(true);

    const f = await cli('fill-mask', '--model', model, '--text', 'Alice [MASK] seen for asthma.', '--top-k', '3', '--json');
    expect(f.code, f.stderr).toBe(0);
    // Hugging Face's pipeline shape: one mask → a flat list of {score, token (id), token_str, sequence}.
    const result = JSON.parse(f.stdout);
    expect(result).toHaveLength(3);
    expect(result[0].score).toBeGreaterThanOrEqual(result[1].score);
    const top = result[0];
    expect(top).toMatchObject({ token: expect.any(Number), token_str: expect.any(String), sequence: expect.any(String), id: top.token });
    expect(top.sequence.replace(top.token_str, '[MASK]')).toBe('alice [MASK] seen for asthma.');
    const twoMasks = await cli('fill-mask', '--model', model, '--text', 'Alice [MASK] seen for [MASK].', '--top-k', '2', '--json');
    const both = JSON.parse(twoMasks.stdout);
    expect(both.map((c: unknown[]) => c.length)).toEqual([2, 2]);

    // The threaded wasm build (a subprocess each: the backend initialises once per process) gives the
    // same answer as one thread, and the process exits when done.
    const fillWith = async (threads: string) =>
      (await run(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', '--threads', threads, 'fill-mask', '--model', model, '--text', 'Alice [MASK] seen for asthma.', '--top-k', '5', '--json'])).stdout;
    const [one, two] = await Promise.all([fillWith('1'), fillWith('2')]);
    expect(JSON.parse(two)).toEqual(JSON.parse(one));

    const noMask = await cli('fill-mask', '--model', model, '--text', 'nothing to fill');
    expect(noMask.code).toBe(2);
    expect(noMask.stderr).toMatch(/--text has no \[MASK\] token/);
    const badHeads = await cli('model', 'init', '--vocab', tok, '--out', join(dir, 'x'), '--hidden', '10', '--heads', '3');
    expect(badHeads.stderr).toMatch(/--hidden 10 must be a multiple of --heads 3/);
    const exists = await cli('model', 'init', '--vocab', tok, '--out', model);
    expect(exists.stderr).toMatch(/already exists; pass --force/);
  });
});

describe('ppmlm tokenizer train --morphemes', () => {
  it('records the analyser; fine-tuning, export, audit and de-identification training from a model made from it cut Korean text as the vocabulary was learnt', async () => {
    const dir = await tempDir();
    const corpus = join(dir, 'ko.jsonl');
    const names = ['홍길동', '김철수', '이영희', '박민수', '최지우', '정하늘'];
    const docs = names.map((name, i) => ({ id: `d${i}`, author: `a${i}`, text: `피고인은 피해자 ${name}에게 욕설을 하였다. ${name}은 식당에서 일한다.` }));
    await writeFile(corpus, docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
    const tok = join(dir, 'tok');
    const t = await cli('--quiet', 'tokenizer', 'train', '--corpus', corpus, '--public-corpus', '--morphemes', '--analyzer', 'rule', '--vocab-size', '120', '--min-frequency', '1', '--out', tok);
    expect(t.code, t.stderr).toBe(0);
    const vocab = Object.keys(JSON.parse(await readFile(join(tok, 'tokenizer.json'), 'utf8')).model.vocab as Record<string, number>);
    // Learnt on the pre-tokens encoding reads: a particle starts a word, and the full stop the rule
    // analyser leaves out of its morphemes is a token.
    expect(vocab).toContain('에게');
    expect(vocab).toContain('.');
    const model = join(dir, 'model');
    expect((await cli('--quiet', 'model', 'init', '--vocab', tok, '--out', model, '--hidden', '16', '--layers', '1', '--heads', '2', '--intermediate', '32', '--max-positions', '64')).code).toBe(0);
    expect(JSON.parse(await readFile(join(model, 'ppmlm.json'), 'utf8')).vocabulary).toMatchObject({ morphemes: 'rule' });
    // A copy without the record reads Korean whole, as before the record existed.
    const withRecord = async (from: string, to: string, morphemes?: string) => {
      await cp(from, to, { recursive: true });
      const provenance = JSON.parse(await readFile(join(to, 'ppmlm.json'), 'utf8'));
      provenance.vocabulary.morphemes = morphemes;
      await writeFile(join(to, 'ppmlm.json'), JSON.stringify(provenance));
    };
    const withoutRecord = (from: string, to: string) => withRecord(from, to);
    await withoutRecord(model, join(dir, 'model-plain'));
    const finetune = (from: string, out: string, ...flags: string[]) => cli('finetune', '--model', from, '--corpus', corpus, '--strategy', 'standard', '--epochs', '1', '--batch-size', '4', '--seq-len', '32', '--out', join(dir, out), '--json', ...flags);
    const cut = await finetune(model, 'cut');
    expect(cut.code, cut.stderr).toBe(0);
    // The rule analyser is a function: the vocabulary gets its own even where the run reads no Korean.
    const english = await finetune(model, 'cut-en', '--lang', 'en');
    expect(english.code, english.stderr).toBe(0);
    const whole = await finetune(join(dir, 'model-plain'), 'whole');
    expect(whole.code, whole.stderr).toBe(0);
    for (const r of [cut, english]) expect(r.stderr).not.toContain('the vocabulary was learnt on');
    // Read whole, 홍길동에게 needs continuation pieces (##에게) a vocabulary learnt on morphemes seldom has,
    // and a word it cannot cover becomes one [UNK]: the same text, another count of tokens.
    expect(JSON.parse(english.stdout).tokens).toBe(JSON.parse(cut.stdout).tokens);
    expect(JSON.parse(whole.stdout).tokens).not.toBe(JSON.parse(cut.stdout).tokens);
    expect(JSON.parse(await readFile(join(dir, 'cut', 'ppmlm.json'), 'utf8')).vocabulary).toMatchObject({ morphemes: 'rule' });
    // The audit queries the model on text cut as it was trained.
    const [members, nonMembers, blacklist] = ['members.jsonl', 'non-members.jsonl', 'terms.txt'].map((f) => join(dir, f)) as [string, string, string];
    await writeFile(members, docs.slice(0, 3).map((d) => JSON.stringify(d)).join('\n') + '\n');
    await writeFile(nonMembers, docs.slice(3).map((d) => JSON.stringify(d)).join('\n') + '\n');
    await writeFile(blacklist, names.join('\n') + '\n');
    await withoutRecord(join(dir, 'cut'), join(dir, 'cut-plain'));
    const audit = (from: string, out: string) => cli('--quiet', 'audit', '--model', from, '--members', members, '--non-members', nonMembers, '--blacklist', blacklist, '--seq-len', '32', '--out', join(dir, out), '--json');
    const audited = await audit(join(dir, 'cut'), 'audit-cut');
    expect(audited.code, audited.stderr).toBe(0);
    const auditedWhole = await audit(join(dir, 'cut-plain'), 'audit-whole');
    expect(auditedWhole.code, auditedWhole.stderr).toBe(0);
    expect(JSON.parse(audited.stdout).membership).not.toEqual(JSON.parse(auditedWhole.stdout).membership);
    // A mecab vocabulary read by the rule analyser: the downstream task's Korean text is warned about too,
    // once (members and non-members here hold no Hangul, so only the task's text can warn).
    await withRecord(join(dir, 'cut'), join(dir, 'cut-mecab'), 'mecab');
    const [enMembers, enNonMembers, task] = ['en-members.jsonl', 'en-non-members.jsonl', 'task.jsonl'].map((f) => join(dir, f)) as [string, string, string];
    await writeFile(enMembers, ['Alice met Bob.', 'Carol saw Dan.'].map((text, i) => JSON.stringify({ id: `e${i}`, author: `e${i}`, text })).join('\n') + '\n');
    await writeFile(enNonMembers, ['Erin met Frank.', 'Grace saw Heidi.'].map((text, i) => JSON.stringify({ id: `f${i}`, author: `f${i}`, text })).join('\n') + '\n');
    await writeFile(task, docs.map((d, i) => JSON.stringify({ ...d, label: i % 2 === 0 ? 'a' : 'b' })).join('\n') + '\n');
    const taskAudit = await cli('--quiet', 'audit', '--model', join(dir, 'cut-mecab'), '--members', enMembers, '--non-members', enNonMembers, '--blacklist', blacklist, '--analyzer', 'rule', '--seq-len', '32', '--task', task, '--task-epochs', '1', '--out', join(dir, 'audit-task'), '--json');
    expect(taskAudit.code, taskAudit.stderr).toBe(0);
    expect(taskAudit.stderr.match(/learnt on mecab morphemes but the rule analyser cuts the text here/g)).toHaveLength(1);
    // export-dataset writes the windows finetune trains on.
    const exported = await cli('--quiet', 'export-dataset', '--model', model, '--corpus', corpus, '--blacklist', blacklist, '--out', join(dir, 'ds'), '--seq-len', '32', '--json');
    expect(exported.code, exported.stderr).toBe(0);
    expect(JSON.parse(exported.stdout)).toMatchObject({ tokens: JSON.parse(cut.stdout).tokens, morphemes: 'rule' });
    // deid train from such an encoder cuts span data with the analyser the vocabulary records, left to choose.
    const spans = join(dir, 'spans.jsonl');
    await writeFile(spans, docs.map((d, i) => JSON.stringify({ ...d, spans: [{ start: d.text.indexOf(names[i]!), end: d.text.indexOf(names[i]!) + names[i]!.length, label: 'PERSON' }] })).join('\n') + '\n');
    const deid = await cli('--quiet', 'deid', 'train', '--spans', spans, '--model', join(dir, 'cut'), '--split', '100/0/0', '--max-steps', '1', '--batch-size', '4', '--seq-len', '32', '--out', join(dir, 'deid'));
    expect(deid.code, deid.stderr).toBe(0);
    expect(deid.stderr).not.toContain('read whole');
    expect(JSON.parse(await readFile(join(dir, 'deid', 'ppmlm.json'), 'utf8'))).toMatchObject({ morphemes: true, analyzer: 'rule' });
    // Asked to read it whole, it does.
    const readWhole = await cli('--quiet', 'deid', 'train', '--spans', spans, '--model', join(dir, 'cut'), '--no-morphemes', '--split', '100/0/0', '--max-steps', '1', '--batch-size', '4', '--seq-len', '32', '--out', join(dir, 'deid-whole'));
    expect(readWhole.code, readWhole.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'deid-whole', 'ppmlm.json'), 'utf8'))).toMatchObject({ morphemes: false });
  }, 180_000);

  it('records the analyser for byte-level BPE too, learnt on GPT-2 pieces cut at morphemes', async () => {
    const dir = await tempDir();
    const corpus = join(dir, 'ko.jsonl');
    await writeFile(corpus, ['홍길동', '김철수', '이영희'].map((name, i) => JSON.stringify({ id: `d${i}`, text: `피해자 ${name}에게 욕설을 하였다.` })).join('\n') + '\n');
    const tok = join(dir, 'bpe');
    const t = await cli('--quiet', 'tokenizer', 'train', '--type', 'bpe', '--corpus', corpus, '--public-corpus', '--morphemes', '--analyzer', 'rule', '--vocab-size', '400', '--min-frequency', '1', '--out', tok);
    expect(t.code, t.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(tok, 'ppmlm.json'), 'utf8')).vocabulary).toMatchObject({ morphemes: 'rule' });
    const vocab = Object.keys(JSON.parse(await readFile(join(tok, 'tokenizer.json'), 'utf8')).model.vocab as Record<string, number>);
    // 에게 (bytes ìĹĲê²Į) learnt as a piece of its own, never joined to the name before it.
    expect(vocab).toContain('ìĹĲê²Į');
    expect(vocab.some((t) => t.length > 6 && t.endsWith('ìĹĲê²Į'))).toBe(false);
  });
});

describe('ppmlm tokenizer train --blacklist', () => {
  it('learns no token that is a blacklisted word or number, ## pieces included, and prints none', async () => {
    const { dir, corpus, blacklist } = await tinySetup(6, 3);
    const terms = (await readFile(blacklist, 'utf8')).split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t')[0]!).filter((t) => !t.includes(' ') && [...t].length > 1);
    for (const type of ['wordpiece', 'bpe']) {
      const out = join(dir, `tok-${type}`);
      const leaky = await cli('--quiet', 'tokenizer', 'train', '--type', type, '--corpus', corpus, '--out', `${out}-leaky`, '--vocab-size', '600');
      expect(leaky.code, leaky.stderr).toBe(0);
      const r = await cli('tokenizer', 'train', '--type', type, '--corpus', corpus, '--blacklist', blacklist, '--out', out, '--vocab-size', '600');
      expect(r.code, r.stderr).toBe(0);
      const surfaces = async (folder: string) => {
        const vocab = Object.keys(JSON.parse(await readFile(join(folder, 'tokenizer.json'), 'utf8')).model.vocab as Record<string, number>);
        return new Set(vocab.map((t) => tokenSurface(type as 'wordpiece' | 'bpe', t).toLowerCase()));
      };
      const before = await surfaces(`${out}-leaky`);
      const after = await surfaces(out);
      expect(terms.filter((t) => before.has(t)).length, type).toBeGreaterThan(0);
      expect(terms.filter((t) => after.has(t)), type).toEqual([]);
      // Nor a term less its first letters (##konkwo for okonkwo, 649695 for 4649695): nothing is learned inside a blacklisted occurrence.
      const spelled = terms.flatMap((t) => [t.slice(1), t.slice(2)]).filter((rest) => [...rest].length >= 5);
      expect(spelled.filter((rest) => after.has(rest)), type).toEqual([]);
      for (const t of terms) expect(r.stdout + r.stderr).not.toContain(t);
    }
  });
});

describe('ppmlm tokenizer train --blacklist, Korean', () => {
  it('matches the terms with the analyser the blacklist was built with, --morphemes or not: no piece of a name is learned', async () => {
    const dir = await tempDir();
    const names = ['홍길동', '김철수', '박영희', '이민준'];
    const corpus = join(dir, 'ko.jsonl');
    await writeFile(corpus, Array.from({ length: 40 }, (_, i) => {
      const name = names[i % names.length]!;
      return JSON.stringify({ id: String(i), author: `p${i}`, text: `피고인은 피해자 ${name}에게 돈을 빌렸고, ${name}의 집에서 다시 돈을 요구하였다.` });
    }).join('\n'));
    const blacklist = join(dir, 'ko.tsv');
    await writeFile(blacklist, `# ppmlm blacklist\n# version: 1\n# analyzer: rule\nterm\tkind\tcategory\tauthors\toccurrences\tsources\n${names.map((n) => `${n}\tdirect\tPERSON\t10\t20\tlist:test`).join('\n')}\n`);
    const r = await cli('--quiet', 'tokenizer', 'train', '--corpus', corpus, '--blacklist', blacklist, '--out', join(dir, 'tok'), '--vocab-size', '300', '--min-frequency', '2');
    expect(r.code, r.stderr).toBe(0);
    const vocab = Object.keys(JSON.parse(await readFile(join(dir, 'tok', 'tokenizer.json'), 'utf8')).model.vocab as Record<string, number>).map((t) => t.replace(/^##/, ''));
    expect(vocab.filter((t) => [...t].length >= 2 && names.some((n) => n.includes(t) || t.includes(n)))).toEqual([]);
  });
});

describe('ppmlm model init: the vocabulary check', () => {
  it('refuses a vocabulary trained on a private corpus that spells blacklisted terms, naming only how many, unless overridden (recorded)', async () => {
    const { dir, corpus, blacklist } = await tinySetup(3, 2);
    const leaky = join(dir, 'leaky-tok');
    expect((await cli('--quiet', 'tokenizer', 'train', '--corpus', corpus, '--out', leaky, '--vocab-size', '400')).code).toBe(0);
    expect(JSON.parse(await readFile(join(leaky, 'ppmlm.json'), 'utf8')).vocabulary).toEqual({ corpus: expect.stringMatching(/^[0-9a-f]{16}$/), publicCorpus: false });
    const init = (tok: string, out: string, ...flags: string[]) => cli('model', 'init', '--vocab', tok, '--out', join(dir, out), '--hidden', '16', '--layers', '1', '--heads', '2', '--intermediate', '32', '--max-positions', '64', ...flags);
    const refused = await init(leaky, 'x', '--blacklist', blacklist);
    expect(refused.code).toBe(2);
    expect(refused.stderr.replace(/ \d+ /, ' N ')).toBe(
      'ppmlm: the tokenizer\'s vocabulary has N tokens that are blacklisted terms and would ship with the model; retrain the tokenizer with "ppmlm tokenizer train --blacklist FILE", or pass --allow-vocabulary-identifiers to export anyway (recorded in ppmlm.json)\n',
    );
    await expect(readdir(join(dir, 'x'))).rejects.toThrow();
    const allowed = await init(leaky, 'y', '--blacklist', blacklist, '--allow-vocabulary-identifiers');
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'y', 'ppmlm.json'), 'utf8'))).toMatchObject({ vocabulary: { publicCorpus: false }, vocabularyCheck: { status: 'checked', against: 'run blacklist', identifiers: expect.any(Number), allowed: true } });
    // tinySetup's tokenizer was trained with the blacklist: it passes, without a --blacklist too.
    for (const flags of [['--blacklist', blacklist], []]) {
      const clean = await init(join(dir, 'tok'), `z${flags.length}`, ...flags);
      expect(clean.code, clean.stderr).toBe(0);
      expect(JSON.parse(await readFile(join(dir, `z${flags.length}`, 'ppmlm.json'), 'utf8')).vocabularyCheck).toMatchObject({ status: 'checked', identifiers: 0 });
    }
  });

  it('refuses a tokenizer trained on a corpus not declared public without --blacklist, and says what to do', async () => {
    const { dir, corpus } = await tinySetup(3, 2);
    const init = (tok: string, out: string, ...flags: string[]) => cli('model', 'init', '--vocab', tok, '--out', join(dir, out), '--hidden', '16', '--layers', '1', '--heads', '2', '--intermediate', '32', '--max-positions', '64', ...flags);
    const privateTok = join(dir, 'private-tok');
    const trained = await cli('tokenizer', 'train', '--corpus', corpus, '--out', privateTok, '--vocab-size', '400');
    expect(trained.stderr).toMatch(/not declared public \(--public-corpus\) and no --blacklist/);
    const refused = await init(privateTok, 'x');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'ppmlm: the tokenizer was trained by ppmlm on a corpus not declared public and without --blacklist, so its vocabulary may spell identifiers and would ship with the model; retrain it with "ppmlm tokenizer train --blacklist FILE" (or "--public-corpus" when the corpus is public), give this run --blacklist FILE to check it, or pass --allow-vocabulary-identifiers to export anyway (recorded in ppmlm.json)\n',
    );
    const overridden = await init(privateTok, 'y', '--allow-vocabulary-identifiers');
    expect(overridden.code, overridden.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'y', 'ppmlm.json'), 'utf8')).vocabularyCheck).toEqual({ status: 'unchecked', reason: 'private corpus, no blacklist', allowed: true });
    expect(await readFile(join(dir, 'y', 'README.md'), 'utf8')).toMatch(/vocabulary.*unchecked: trained on a private corpus without a blacklist \(allowed by --allow-vocabulary-identifiers\)/);
    // Declared public, the same corpus's vocabulary ships without a check.
    const publicTok = join(dir, 'public-tok');
    expect((await cli('--quiet', 'tokenizer', 'train', '--corpus', corpus, '--public-corpus', '--out', publicTok, '--vocab-size', '400')).code).toBe(0);
    const accepted = await init(publicTok, 'z');
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'z', 'ppmlm.json'), 'utf8'))).toMatchObject({ vocabulary: { publicCorpus: true }, vocabularyCheck: { status: 'public-corpus' } });
  });
});

describe('ppmlm fill-mask', () => {
  it('says a mask beyond the model\'s positions is beyond them, with exit 2', async () => {
    const { model } = await tinySetup(3, 1);
    const r = await cli('fill-mask', '--model', model, '--text', `${'seen '.repeat(80)}[MASK].`);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/\[MASK\] #1 is token \d+ of the text, beyond the model's 64 positions/);
  });
});
