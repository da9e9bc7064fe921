import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cp, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { swappedTokensCopy } from '../helpers/tinyModel.js';
import { DeidModelRecognizer, predictLabels } from '../../src/deid/index.js';
import { loadTokenClassifier, parseSafetensors, serializeSafetensors, type EncoderModel } from '../../src/model/index.js';
import { parseAnnotated } from '../../src/deid/annotated.js';
import { readBlacklist } from '../../src/identifiers/index.js';
import { privateInputsOf } from '../../src/mlm/index.js';
import type { MorphAnalyzer } from '../../src/text/index.js';

const INPUTS = ['--judgments', 'examples/legal-ko/judgments', '--replacements', 'examples/legal-ko/replacements'];

describe('ppmlm deid train / eval / apply', () => {
  it('trains a Korean token classifier that finds the identifiers of held-out judgments and rewrites text', async () => {
    const dir = await tempDir();
    const model = join(dir, 'deid');
    const t = await cli('--quiet', 'deid', 'train', ...INPUTS, '--epochs', '4', '--hidden', '64', '--layers', '1', '--vocab-size', '1500', '--lr', '2e-3', '--dropout', '0.05', '--outside-noise', '0.05', '--out', model, '--json');
    expect(t.code, t.stderr).toBe(0);
    expect(JSON.parse(t.stdout)).toMatchObject({ labels: 8, level: 3, split: { train: 160, dev: 20, test: 20 } });
    const config = JSON.parse(await readFile(join(model, 'config.json'), 'utf8'));
    expect(config.architectures).toEqual(['BertForTokenClassification']);
    expect(config.id2label['0']).toBe('O');
    expect([config.hidden_dropout_prob, config.attention_probs_dropout_prob]).toEqual([0.05, 0.05]);
    const provenanceText = await readFile(join(model, 'ppmlm.json'), 'utf8');
    const provenance = JSON.parse(provenanceText);
    // The split is recorded as seed, shares, counts and fingerprints: no judgment id (it can be a case number).
    expect(provenance.split).toMatchObject({ seed: 42, shares: [80, 10, 10], documents: { train: 160, dev: 20, test: 20 }, fingerprints: { test: expect.stringMatching(/^[0-9a-f]{16}$/) } });
    const ids = (await readdir('examples/legal-ko/judgments', { recursive: true })).filter((f) => /\.(md|txt)$/.test(f)).map((f) => f.replace(/\.(md|txt)$/, ''));
    expect(ids.length).toBe(200);
    for (const id of ids) expect(provenanceText).not.toContain(id);
    expect(provenance.morphemes).toBe(true);
    expect(provenance.outsideNoise).toBe(0.05);
    // The PII threshold was chosen on the 20 dev judgments.
    expect(provenance.piiThreshold).toBeGreaterThan(0);
    expect(provenance.piiThreshold).toBeLessThanOrEqual(1);
    expect(provenance.calibration).toMatchObject({ split: 'dev', documents: 20 });
    expect(provenance.calibration.binaryF1).toBeGreaterThan(0.8);

    const e = await cli('--quiet', 'deid', 'eval', '--model', model, ...INPUTS, '--json');
    expect(e.code, e.stderr).toBe(0);
    const metrics = JSON.parse(e.stdout);
    expect(metrics.documents).toBe(20);
    expect(metrics.binary.f1).toBeGreaterThan(0.8);
    expect(metrics.micro.f1).toBeGreaterThan(0.7);
    expect(metrics.perLabel['내국인이름'].support).toBeGreaterThan(0);
    expect(metrics.piiThreshold).toBe(provenance.piiThreshold);
    const argmax = await cli('--quiet', 'deid', 'eval', '--model', model, ...INPUTS, '--pii-threshold', 'argmax', '--json');
    expect(JSON.parse(argmax.stdout).piiThreshold).toBe('argmax');
    // Flagging only near-certain tokens trades recall for precision.
    const strict = JSON.parse((await cli('--quiet', 'deid', 'eval', '--model', model, ...INPUTS, '--pii-threshold', '0.999999', '--json')).stdout);
    expect(strict.binary.recall).toBeLessThan(metrics.binary.recall);
    for (const bad of ['0', '1.5', 'often']) {
      const r = await cli('deid', 'eval', '--model', model, ...INPUTS, '--pii-threshold', bad);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toMatch(/--pii-threshold/);
    }
    // Disjoint windows label the same tokens; a stride that leaves a window no token of its own is refused.
    const disjoint = await cli('--quiet', 'deid', 'eval', '--model', model, ...INPUTS, '--seq-len', '16', '--stride', '0', '--json');
    expect(disjoint.code, disjoint.stderr).toBe(0);
    expect(JSON.parse(disjoint.stdout).tokens).toBe(metrics.tokens);
    const badStride = await cli('deid', 'eval', '--model', model, ...INPUTS, '--seq-len', '16', '--stride', '14');
    expect(badStride.code).toBe(2);
    expect(badStride.stderr).toMatch(/--stride 14 leaves no token of its own in windows of 16 tokens; give at most 13(?! \()/);
    // Without --seq-len the model reads the windows it was trained on (ppmlm.json windowTokens), and the stride must fit those.
    const badDefault = await cli('deid', 'eval', '--model', model, ...INPUTS, '--stride', '200');
    expect(badDefault.code).toBe(2);
    expect(provenance.windowTokens).toBeGreaterThan(8);
    expect(badDefault.stderr).toMatch(/--stride 200 leaves no token of its own in windows of \d+ tokens; give at most \d+ \(the model reads the windows it was trained on\)/);
    // Checked once the model is loaded, before any input is read: a missing --in is not reached.
    const early = await cli('deid', 'apply', '--model', model, '--in', join(dir, 'missing.txt'), '--out', join(dir, 'out.txt'), '--stride', '200');
    expect(early.code).toBe(2);
    expect(early.stderr).toMatch(/--stride 200 leaves no token of its own/);
    // Other judgments than training's do not reproduce the split; a model of an older ppmlm lists its ids.
    const fewer = join(dir, 'fewer');
    await cp('examples/legal-ko/judgments', fewer, { recursive: true, filter: (src) => !src.endsWith(`${ids[0]}.md`) });
    const other = await cli('deid', 'eval', '--model', model, '--judgments', fewer, '--replacements', 'examples/legal-ko/replacements');
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/do not reproduce the test split/);
    await writeFile(join(model, 'ppmlm.json'), JSON.stringify({ ...provenance, split: { train: [], dev: [], test: ids.slice(0, 3) } }));
    const legacy = await cli('--quiet', 'deid', 'eval', '--model', model, ...INPUTS, '--json');
    expect(legacy.code, legacy.stderr).toBe(0);
    expect(JSON.parse(legacy.stdout).documents).toBe(3);
    await writeFile(join(model, 'ppmlm.json'), provenanceText);

    const input = join(dir, 'in.txt');
    await writeFile(input, '피고인은 2021. 3. 14. 주식회사 누리상사 사무실에서 피해자 김민서에게 거짓말하였다. 피해자 김민서는 국민은행 창구에서 송금하였다.');
    const out = join(dir, 'out.txt');
    const spans = join(dir, 'spans.jsonl');
    const a = await cli('deid', 'apply', '--model', model, '--in', input, '--out', out, '--spans-out', spans);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stderr).toMatch(/trained on morphemes; text is cut by the (mecab|rule) analyser first/);
    const rewritten = await readFile(out, 'utf8');
    expect(rewritten).not.toContain('김민서');
    expect(rewritten).toMatch(/피해자 ([A-Z])에게 .* 피해자 \1는/);
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    expect((await stat(spans)).mode & 0o777).toBe(0o600);
    // At threshold 1 no token is sure enough to be PII (P(O) never rounds to 0 here): the text stays as it was.
    const strictOut = join(dir, 'strict.txt');
    const s = await cli('--quiet', 'deid', 'apply', '--model', model, '--in', input, '--out', strictOut, '--pii-threshold', '1');
    expect(s.code, s.stderr).toBe(0);
    expect(await readFile(strictOut, 'utf8')).toBe(await readFile(input, 'utf8'));
    expect((await cli('deid', 'apply', '--model', model, '--in', input, '--out', join(dir, 'x.txt'), '--pii-threshold', 'often')).code).toBe(2);
  }, 120_000);

  it('rejects a model without a classifier and an unknown split', async () => {
    const r = await cli('deid', 'eval', '--model', 'test/fixtures/parity/bert', ...INPUTS);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/config\.json has no id2label: this is not a token-classification model/);
    const bad = await cli('deid', 'train', ...INPUTS, '--split', '80/20', '--out', join(await tempDir(), 'x'));
    expect(bad.stderr).toMatch(/--split must look like 80\/10\/10/);
  });

  it('refuses inputs with nothing to learn or measure: no span document, no span, an empty judgment, no replacement list', async () => {
    const dir = await tempDir();
    const empty = join(dir, 'empty.jsonl');
    await writeFile(empty, '');
    const spanless = join(dir, 'spanless.jsonl');
    await writeFile(spanless, `${JSON.stringify({ id: 'a', text: 'seen today', spans: [] })}\n`);
    const judgments = join(dir, 'judgments');
    await cp('examples/legal-ko/judgments', judgments, { recursive: true });
    const first = (await readdir(judgments, { recursive: true })).find((f) => f.endsWith('.md'))!;
    await writeFile(join(judgments, first), ' \n');
    const lists = join(dir, 'lists');
    await cp('examples/legal-ko/replacements', lists, { recursive: true, filter: (src) => !src.endsWith('.json') || src.endsWith('all_categories.json') });
    const runs: [string[], string][] = [
      [['deid', 'train', '--spans', empty, '--out', join(dir, 'a')], `${empty}: no documents; check --spans and --spans-format`],
      [['deid', 'eval', '--model', 'models/public-ner-en', '--spans', empty, '--split', 'all'], `${empty}: no documents; check --spans and --spans-format`],
      [['deid', 'train', '--spans', spanless, '--out', join(dir, 'b')], `${spanless}: none of its 1 documents has a span, so there is no label to learn; give span-annotated documents`],
      [['deid', 'generate', '--judgments', judgments, '--replacements', 'examples/legal-ko/replacements', '--out', join(dir, 'g.jsonl')], `${join(judgments, first)}: an empty judgment; remove the file or write its text`],
      [['deid', 'generate', '--judgments', 'examples/legal-ko/judgments', '--replacements', lists, '--out', join(dir, 'g.jsonl')], `${lists}: no replacement list in it (JSON files {"label": ["value", ...]}); give the folder of replacement lists`],
      // An encoder shape that cannot be built, before anything is read or trained (it failed when the model was saved).
      [['deid', 'train', '--spans', empty, '--hidden', '30', '--heads', '4', '--out', join(dir, 'c')], '--hidden 30 must be a multiple of --heads 4'],
    ];
    for (const [args, message] of runs) {
      const r = await cli('--quiet', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toBe(`ppmlm: ${message}\n`);
    }
    // Every judgment skipped is said so, not taken for an empty folder.
    const lone = join(dir, 'lone');
    await cp(join(judgments, first), join(lone, 'doc.md'), { recursive: true });
    const skipped = await cli('--quiet', 'deid', 'generate', '--judgments', lone, '--replacements', 'examples/legal-ko/replacements', '--out', join(dir, 's.jsonl'), '--skip-bad-docs');
    expect(skipped.stderr).toMatch(/lone: all 1 judgments were skipped as malformed \(--skip-bad-docs\); fix them\n$/);
  });

  it('takes the shared training flags: --max-steps beyond --epochs runs the epochs it needs, --grad-accum groups batches', async () => {
    const model = join(await tempDir(), 'deid');
    const t = await cli('--quiet', 'deid', 'train', ...INPUTS, '--no-morphemes', '--epochs', '1', '--max-steps', '13', '--grad-accum', '2', '--batch-size', '16', '--hidden', '32', '--layers', '1', '--vocab-size', '500', '--warmup-ratio', '0', '--weight-decay', '0', '--out', model, '--json');
    expect(t.code, t.stderr).toBe(0);
    // Step 13 lies past the end of the one epoch asked for: the texts of the next one were prepared too.
    const summary = JSON.parse(t.stdout);
    expect(summary.steps).toBe(13);
    expect(summary.epochs).toBeGreaterThanOrEqual(1);
    const bad = await cli('deid', 'train', ...INPUTS, '--grad-accum', '0', '--out', join(await tempDir(), 'x'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--grad-accum must be an integer between 1/);
  });

  it('trains with DP-SGD per judgment: epsilon per document in ppmlm.json, no loss curve, 0600 log; refuses the author unit and DP flags without --privacy dp', async () => {
    const dir = await tempDir();
    const model = join(dir, 'deid-dp');
    const t = await cli('deid', 'train', ...INPUTS, '--no-morphemes', '--privacy', 'dp', '--dp-noise', '1', '--dp-allow-private-preprocessing', '--dp-max-windows', '2', '--max-steps', '2', '--batch-size', '4', '--hidden', '32', '--layers', '1', '--vocab-size', '500', '--out', model, '--json', '--quiet');
    expect(t.code, t.stderr).toBe(0);
    const provenance = JSON.parse(await readFile(join(model, 'ppmlm.json'), 'utf8'));
    expect(provenance).toMatchObject({ task: 'deid', privacy: 'dp', dp: { unit: 'document', releases: 2, secureNoise: true, accountant: 'rdp', noiseMultiplier: 1 } });
    expect(provenance.dp.individuals).toBe(provenance.split.documents.train);
    expect(provenance.dp.epsilon).toBeGreaterThan(0);
    expect(provenance).not.toHaveProperty('lossByEpoch');
    // The length its training windows fit in is a statistic of the documents too.
    expect(provenance).not.toHaveProperty('windowTokens');
    expect((await stat(join(`${model}.checkpoint`, 'train_log.jsonl'))).mode & 0o777).toBe(0o600);
    // Released by choice, outside the guarantee, with the loss curve: then the model reads the windows it was trained on.
    const released = join(dir, 'deid-dp-stats');
    const r = await cli('deid', 'train', ...INPUTS, '--no-morphemes', '--privacy', 'dp', '--dp-noise', '1', '--dp-allow-private-preprocessing', '--dp-release-stats', '--dp-max-windows', '2', '--max-steps', '2', '--batch-size', '4', '--hidden', '32', '--layers', '1', '--vocab-size', '500', '--out', released, '--json', '--quiet');
    expect(r.code, r.stderr).toBe(0);
    const stats = JSON.parse(await readFile(join(released, 'ppmlm.json'), 'utf8'));
    expect(stats).toMatchObject({ privacy: 'dp', dpReleasedStats: true });
    expect(stats.windowTokens).toBeGreaterThan(8);
    expect(stats).toHaveProperty('lossByEpoch');
    const author = await cli('deid', 'train', ...INPUTS, '--no-morphemes', '--privacy', 'dp', '--dp-unit', 'author', '--dp-noise', '1', '--dp-allow-private-preprocessing', '--max-steps', '1', '--hidden', '32', '--layers', '1', '--vocab-size', '500', '--out', join(dir, 'x'), '--quiet');
    expect(author.code).toBe(2);
    expect(author.stderr).toMatch(/--dp-unit author: de-identification training data has no author column; use --dp-unit document/);
    const flag = await cli('deid', 'train', ...INPUTS, '--dp-noise', '1', '--dp-allow-private-preprocessing', '--out', join(dir, 'y'));
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--dp-noise needs --privacy dp/);
  });

  it('guards its checkpoint as finetune does: no resume without one or under other settings, no overwrite without --force', async () => {
    const dir = await tempDir();
    const model = join(dir, 'deid');
    const args = ['deid', 'train', ...INPUTS, '--no-morphemes', '--max-steps', '2', '--batch-size', '16', '--hidden', '32', '--layers', '1', '--vocab-size', '500', '--out', model, '--quiet'];
    const refused = async (extra: string[], message: string | RegExp) => {
      const r = await cli(...args, ...extra);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr.trim()).toMatch(message);
    };
    await refused(['--resume'], `ppmlm: no checkpoint in ${model}.checkpoint; run without --resume to start`);
    expect((await cli(...args)).code).toBe(0);
    await rm(model, { recursive: true });
    await refused([], /deid\.checkpoint holds the checkpoint of an earlier run; pass --resume to continue it, or --force to delete it and start over$/);
    await refused(['--resume', '--lr', '0.01', '--label-level', '2'], /written with other settings \(checkpoint → now\): labels .*, --label-level 3 → 2, --lr 0\.0005 → 0\.01; /);
    // What the vocabulary was kept from, and the documents' status, are the run's too: neither may be added on resume.
    const blacklist = join(dir, 'bl.txt');
    await writeFile(blacklist, '김민서\n');
    await refused(['--resume', '--blacklist', blacklist], /written with other settings \(checkpoint → now\): --blacklist unset → "[0-9a-f]+"; /);
    await refused(['--resume', '--public-corpus'], /written with other settings \(checkpoint → now\): --public-corpus unset → true; /);
    await refused(['--resume', '--split', '70/20/10'], /--split unset → "70\/20\/10"/);
    const again = await cli(...args, '--resume');
    expect(again.code, again.stderr).toBe(0);
  });
});

const SURNAMES = ['whitfield', 'okonkwo', 'lindqvist', 'haldane'];

/**
 * 40 notes as span JSONL (`dir/phi.jsonl`): the i-th is `note(name, i)`, which starts "Patient <name>",
 * the name (SURNAMES in turn) a NAME span, or, where `note` gives null, a note that names no one.
 */
async function patientNotes(dir: string, note: (name: string, i: number) => string | null): Promise<string> {
  const lines = Array.from({ length: 40 }, (_, i) => {
    const name = SURNAMES[i % SURNAMES.length]!;
    const text = note(name, i);
    return JSON.stringify(text === null ? { id: String(i), text: 'Patient seen today, no complaints.', spans: [] } : { id: String(i), text, spans: [{ start: 8, end: 8 + name.length, label: 'NAME' }] });
  });
  const path = join(dir, 'phi.jsonl');
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}

describe('ppmlm deid train --blacklist', () => {
  it('keeps blacklisted terms out of a fresh tokenizer and refuses a --model whose vocabulary holds them', async () => {
    // Gold-span data holds real identifiers: a tokenizer trained on it learns the frequent names.
    const dir = await tempDir();
    const names = SURNAMES;
    const spans = await patientNotes(dir, (name) => `Patient ${name} seen today, ${name} reports pain.`);
    // The same notes with the names unmarked (a span on the word seen instead): nothing tells the tokenizer they identify.
    const unmarked = join(dir, 'unmarked.jsonl');
    await writeFile(unmarked, (await readFile(spans, 'utf8')).split('\n').filter(Boolean).map((line) => {
      const doc = JSON.parse(line) as { id: string; text: string };
      const at = doc.text.indexOf('seen');
      return JSON.stringify({ ...doc, spans: [{ start: at, end: at + 4, label: 'NAME' }] });
    }).join('\n'));
    const blacklist = join(dir, 'bl.txt');
    await writeFile(blacklist, `${names.join('\n')}\n`);
    const on = (data: string) => (out: string, ...extra: string[]) => ['--quiet', 'deid', 'train', '--spans', data, '--max-steps', '1', '--batch-size', '8', '--hidden', '16', '--layers', '1', '--heads', '2', '--intermediate', '32', '--vocab-size', '200', '--seq-len', '32', '--out', join(dir, out), ...extra];
    const args = on(spans);
    const vocabulary = async (out: string) => new Set(Object.keys(JSON.parse(await readFile(join(dir, out, 'tokenizer.json'), 'utf8')).model.vocab as Record<string, number>));

    expect((await cli(...on(unmarked)('leaky'))).code).toBe(0);
    const leaked = await vocabulary('leaky');
    expect(names.filter((n) => leaked.has(n)).length).toBeGreaterThan(0);
    // Marked as spans, the names stay out of a fresh tokenizer without a blacklist too: the spans name them.
    const marked = await cli(...args('marked'));
    expect(marked.code, marked.stderr).toBe(0);
    const fromSpans = await vocabulary('marked');
    expect(names.filter((n) => fromSpans.has(n))).toEqual([]);
    // Nor a name less its first letter as a ## piece: no merge is learned inside a span.
    expect(names.filter((n) => fromSpans.has(`##${n.slice(1)}`))).toEqual([]);
    // Nor inside a hyphenated name or number, which the matcher reads as one word, marked or not.
    await mkdir(join(dir, 'h'));
    const hyphens = await patientNotes(join(dir, 'h'), (name) => `Patient ${name}-adebayo seen, call 555-0142; ${name}-adebayo on 555-0142.`);
    await writeFile(hyphens, (await readFile(hyphens, 'utf8')).split('\n').filter(Boolean).map((line) => {
      const doc = JSON.parse(line) as { id: string; text: string };
      const at = (s: string) => doc.text.indexOf(s);
      return JSON.stringify({ ...doc, spans: [{ start: 8, end: at(' seen'), label: 'NAME' }, { start: at('555'), end: at('555') + 8, label: 'PHONE' }] });
    }).join('\n'));
    expect((await cli(...on(hyphens)('hyphens'))).code).toBe(0);
    const fromHyphens = [...(await vocabulary('hyphens'))].map((t) => t.replace(/^##/, ''));
    expect(fromHyphens.filter((t) => t.length >= 3 && ('adebayo'.includes(t) || '0142'.includes(t) || names.some((n) => n.slice(1).includes(t) && t.length >= 4)))).toEqual([]);
    expect(JSON.parse(await readFile(join(dir, 'marked', 'ppmlm.json'), 'utf8'))).toMatchObject({ vocabulary: { publicCorpus: false }, vocabularyCheck: { status: 'checked', against: 'training spans', identifiers: 0 } });
    // A span's words are cut as the pre-tokeniser cuts them: a span that takes the comma after a name keeps the name out too.
    const withComma = join(dir, 'comma.jsonl');
    await writeFile(withComma, (await readFile(spans, 'utf8')).split('\n').filter(Boolean).map((line) => {
      const doc = JSON.parse(line) as { text: string; spans: { start: number; end: number; label: string }[] };
      const text = doc.text.replace(' seen', ', seen');
      return JSON.stringify({ ...doc, text, spans: doc.spans.map((sp) => ({ ...sp, end: sp.end + 1 })) });
    }).join('\n'));
    expect((await cli(...on(withComma)('comma'))).code).toBe(0);
    const fromCommas = await vocabulary('comma');
    expect(names.filter((n) => fromCommas.has(n))).toEqual([]);

    const clean = await cli(...args('clean', '--blacklist', blacklist));
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(/\(train \d+ \/ dev \d+ \/ test \d+ documents\)/);
    const kept = await vocabulary('clean');
    expect(names.filter((n) => kept.has(n))).toEqual([]);

    const refused = await cli(...args('x', '--model', join(dir, 'leaky'), '--blacklist', blacklist));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^ppmlm: the tokenizer's vocabulary has \d+ tokens? that (is a blacklisted term|are blacklisted terms) and would ship with the model; .*--allow-vocabulary-identifiers/);
    for (const n of names) expect(refused.stderr).not.toContain(n);
    // Without a blacklist to check it against, a vocabulary trained on the private spans is refused too.
    const unchecked = await cli(...args('u', '--model', join(dir, 'leaky')));
    expect(unchecked.code).toBe(2);
    expect(unchecked.stderr).toMatch(/^ppmlm: the tokenizer was trained by ppmlm on a corpus not declared public and without --blacklist/);
    const allowed = await cli(...args('y', '--model', join(dir, 'leaky'), '--blacklist', blacklist, '--allow-vocabulary-identifiers'));
    expect(allowed.code, allowed.stderr).toBe(0);
    // A model of other labels keeps its encoder and gets a new classifier, said so; one of the same labels keeps its own.
    expect(allowed.stderr).not.toMatch(/classifier was trained for other labels/);
    const relabelled = join(dir, 'person.jsonl');
    await writeFile(relabelled, (await readFile(spans, 'utf8')).replaceAll('"NAME"', '"PERSON"'));
    const other = await cli(...args('z', '--model', join(dir, 'y'), '--blacklist', blacklist, '--allow-vocabulary-identifiers').filter((a) => a !== '--quiet').map((a) => (a === spans ? relabelled : a)));
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).toContain(`${join(dir, 'y')}: its classifier was trained for other labels (O, NAME); a new one is initialised for O, PERSON`);
    expect(JSON.parse(await readFile(join(dir, 'y', 'ppmlm.json'), 'utf8'))).toMatchObject({ vocabulary: { publicCorpus: false }, vocabularyCheck: { status: 'checked', identifiers: expect.any(Number), allowed: true } });
    // The fresh tokenizers record where their vocabulary came from.
    // The unmarked names leaked past a check that only knew the spans: the record says what it was checked against.
    expect(JSON.parse(await readFile(join(dir, 'leaky', 'ppmlm.json'), 'utf8'))).toMatchObject({ vocabulary: { publicCorpus: false }, vocabularyCheck: { status: 'checked', against: 'training spans', identifiers: 0 } });
    expect(JSON.parse(await readFile(join(dir, 'clean', 'ppmlm.json'), 'utf8'))).toMatchObject({ vocabulary: { publicCorpus: false, blacklist: expect.any(String) }, vocabularyCheck: { status: 'checked', identifiers: 0 } });
  });
});

describe('ppmlm deid train --spans on Korean text', () => {
  it('cuts span data into morphemes only where --analyzer names an analyser, says so when Korean is read whole, and records it for eval, apply and the recogniser', async () => {
    const dir = await tempDir();
    const spans = join(dir, 'ko.jsonl');
    const names = ['홍길동', '김철수', '이영희', '박민수'];
    const docs = names.map((name, i) => {
      const text = `피고인은 피해자 ${name}이 운영하는 식당에서 ${name}에게 욕설을 하였다.`;
      const at = [text.indexOf(name), text.lastIndexOf(name)];
      return { id: `d${i}`, author: `a${i}`, text, spans: at.map((start) => ({ start, end: start + name.length, label: 'PERSON_NAME' })) };
    });
    await writeFile(spans, docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
    const train = (out: string, ...extra: string[]) => cli('--quiet', 'deid', 'train', '--spans', spans, '--split', '100/0/0', '--max-steps', '1', '--batch-size', '4', '--hidden', '16', '--layers', '1', '--heads', '2', '--intermediate', '32', '--vocab-size', '100', '--seq-len', '32', '--out', join(dir, out), ...extra);
    const recorded = async (out: string) => JSON.parse(await readFile(join(dir, out, 'ppmlm.json'), 'utf8')).morphemes as boolean;
    const vocabulary = async (out: string) => Object.keys(JSON.parse(await readFile(join(dir, out, 'tokenizer.json'), 'utf8')).model.vocab as Record<string, number>);
    for (const [out, extra, morphemes] of [['plain', [], false], ['rule', ['--analyzer', 'rule'], true], ['off', ['--analyzer', 'rule', '--no-morphemes'], false]] as const) {
      const r = await train(out, ...extra);
      expect(r.code, r.stderr).toBe(0);
      expect(await recorded(out)).toBe(morphemes);
      // Korean read whole without being asked to: said once, with both ways out.
      expect(r.stderr.includes('the span data holds Korean, read whole; pass --analyzer mecab (or rule)'), r.stderr).toBe(out === 'plain');
    }
    // The analyser is recorded: left to choose, eval cuts text with it (not mecab, which may be installed);
    // as a blacklist's recogniser the model cuts with its own rule analyser, whatever the rules read with.
    expect(JSON.parse(await readFile(join(dir, 'rule', 'ppmlm.json'), 'utf8')).analyzer).toBe('rule');
    const evaluated = await cli('deid', 'eval', '--spans', spans, '--model', join(dir, 'rule'), '--split', 'all');
    expect(evaluated.code, evaluated.stderr).toBe(0);
    expect(evaluated.stderr).toMatch(/text is cut by the rule analyser first/);
    const corpus = join(dir, 'corpus.jsonl');
    await writeFile(corpus, docs.map(({ id, author, text }) => JSON.stringify({ id, author, text })).join('\n') + '\n');
    const built = await cli('blacklist', 'build', '--corpus', corpus, '--lang', 'en', '--out', join(dir, 'bl.tsv'), '--deid-model', join(dir, 'rule'));
    expect(built.code, built.stderr).toBe(0);
    expect(built.stderr).not.toContain('the model was trained on');
    const matched = await cli('blacklist', 'build', '--corpus', corpus, '--lang', 'ko', '--analyzer', 'rule', '--out', join(dir, 'bl-rule.tsv'), '--deid-model', join(dir, 'rule'));
    expect(matched.code, matched.stderr).toBe(0);
    expect(matched.stderr).not.toContain('the model was trained on');
    // Cut into morphemes, a particle after a name starts a word of its own (에게), as the judgments' models
    // read it; read whole, it is the end of the name's word, which touches the span: nothing is learnt from
    // it, not even the particle (##에게), so no piece of the name either.
    expect(await vocabulary('rule')).toContain('에게');
    expect(await vocabulary('plain')).not.toContain('에게');
    expect(await vocabulary('plain')).not.toContain('##에게');
    expect((await vocabulary('plain')).filter((t) => [...t.replace(/^##/, '')].length >= 2 && names.some((n) => n.includes(t.replace(/^##/, ''))))).toEqual([]);
    // The vocabulary is learnt from the pre-tokens encoding reads: the full stop the rule analyser leaves
    // out of its morphemes is still a token, not an [UNK] in every sentence.
    expect(await vocabulary('rule')).toContain('.');
  });
});

describe('ppmlm deid train --surrogate-mentions', () => {
  it('adds copies of the named training documents with listed names in place each epoch, recorded and kept on resume; refused on judgments and under DP', async () => {
    const dir = await tempDir();
    const spans = await patientNotes(dir, (name, i) => (i % 2 ? `Patient ${name} seen today.` : null));
    // Every document trains (no dev split, so no threshold is chosen): 40 documents, 20 of them with a name.
    const train = (out: string, ...extra: string[]) => cli('--quiet', 'deid', 'train', '--spans', spans, '--split', '100/0/0', '--public-corpus', '--epochs', '1', '--batch-size', '4', '--hidden', '16', '--layers', '1', '--heads', '2', '--intermediate', '32', '--vocab-size', '200', '--seq-len', '32', '--out', join(dir, out), '--json', ...extra);
    const plain = await train('plain');
    const copied = await train('copied', '--surrogate-mentions', '2');
    expect(plain.code, plain.stderr).toBe(0);
    expect(copied.code, copied.stderr).toBe(0);
    // One window a document, four a step: 40 documents, then two copies of each of the 20 that name someone.
    expect(JSON.parse(plain.stdout).steps).toBe(10);
    expect(JSON.parse(copied.stdout).steps).toBe(20);
    expect(JSON.parse(await readFile(join(dir, 'copied', 'ppmlm.json'), 'utf8'))).toMatchObject({ data: 'spans', surrogateMentions: 2 });
    expect(JSON.parse(await readFile(join(dir, 'plain', 'ppmlm.json'), 'utf8'))).not.toHaveProperty('surrogateMentions');
    // A resumed run draws the copies its checkpoint was written with, or is refused.
    const resumed = await train('copied', '--surrogate-mentions', '1', '--resume', '--force');
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toMatch(/--surrogate-mentions 2 → 1/);

    const judgments = await cli('deid', 'train', ...INPUTS, '--surrogate-mentions', '1', '--out', join(dir, 'j'));
    expect(judgments.code).toBe(2);
    expect(judgments.stderr).toMatch(/--surrogate-mentions works on --spans documents/);
    const dp = await train('dp', '--surrogate-mentions', '1', '--privacy', 'dp', '--dp-noise', '1');
    expect(dp.code).toBe(2);
    expect(dp.stderr).toMatch(/--surrogate-mentions copies training documents/);
  });
});

describe('a DeID model as a blacklist recogniser', () => {
  it('adds its entities as direct identifiers with source model:<dir>', async () => {
    const dir = await tempDir();
    const model = join(dir, 'deid');
    // Trained without morphemes: the recogniser must tokenise as the model was trained, whatever --lang says.
    expect((await cli('--quiet', 'deid', 'train', ...INPUTS, '--no-morphemes', '--epochs', '4', '--hidden', '64', '--layers', '1', '--vocab-size', '1500', '--lr', '2e-3', '--out', model)).code).toBe(0);
    expect(JSON.parse(await readFile(join(model, 'ppmlm.json'), 'utf8')).morphemes).toBe(false);
    // Apply and the recogniser tokenise as the record says, whatever analyser they are offered.
    const input = join(dir, 'in.txt');
    await writeFile(input, '피해자 김민서에게 송금하였다.');
    const a = await cli('deid', 'apply', '--model', model, '--in', input, '--out', join(dir, 'out.txt'));
    expect(a.code, a.stderr).toBe(0);
    expect(a.stderr).toMatch(/trained without morpheme pre-tokenisation/);
    const refusing: MorphAnalyzer = { name: 'refusing', analyze: async () => { throw new Error('the analyser was used'); }, close: async () => undefined };
    await expect((await DeidModelRecognizer.load(model, refusing)).find('피해자 김민서에게 송금하였다.')).resolves.toBeInstanceOf(Array);
    // Closed, it frees its weights and finds nothing more.
    const held = tf.memory().numTensors;
    const closing = await DeidModelRecognizer.load(model);
    expect(tf.memory().numTensors).toBeGreaterThan(held);
    await closing.close();
    await closing.close();
    expect(tf.memory().numTensors).toBe(held);
    await expect(closing.find('피해자 김민서에게 송금하였다.')).rejects.toThrow(/is closed: its weights were freed/);
    // A threshold of its own replaces the trained one: at 0 every token is PII, near 1 hardly any.
    const covered = async (piiThreshold: number) => (await (await DeidModelRecognizer.load(model, undefined, { piiThreshold })).find('피해자 김민서에게 송금하였다.')).reduce((n, d) => n + d.end - d.start, 0);
    expect(await covered(0)).toBeGreaterThan(await covered(0.9999));
    // mecab, whatever the model, reads the entities' words to their ends: one that ends a clause is a
    // verb's form, dropped, even where the entity stops at its stem (송금하).
    const sentence = '피해자 김민서에게 송금하였다.';
    const pieces: [string, string][] = [['피해자', 'NNG'], [' ', ''], ['김민서', 'NNP'], ['에게', 'JKB'], [' ', ''], ['송금', 'NNG'], ['하', 'XSV'], ['였', 'EP'], ['다', 'EF'], ['.', 'SF']];
    let at = 0;
    const analysis = pieces.map(([surface, tag]) => ({ surface, tag, start: at, end: (at += surface.length) })).filter((m) => m.tag !== '');
    const mecab: MorphAnalyzer = { name: 'mecab', analyze: async () => analysis, close: async () => undefined };
    const verb = (d: { start: number; end: number }) => sentence.slice(d.start, d.end).includes('송금');
    expect((await (await DeidModelRecognizer.load(model, undefined, { piiThreshold: 0 })).find(sentence)).some(verb)).toBe(true);
    const kept = await (await DeidModelRecognizer.load(model, mecab, { piiThreshold: 0 })).find(sentence);
    expect(kept.some(verb)).toBe(false);
    // The entities that are no verb's form stay.
    expect(kept.some((d) => sentence.slice(d.start, d.end).includes('김민서'))).toBe(true);
    // Nor is a quantity: an amount, a count, a date's part.
    const amount: MorphAnalyzer = { name: 'mecab', analyze: async () => [{ surface: '300', tag: 'SN', start: 0, end: 3 }, { surface: '만', tag: 'NR', start: 3, end: 4 }, { surface: '원', tag: 'NNBC', start: 4, end: 5 }], close: async () => undefined };
    expect((await (await DeidModelRecognizer.load(model, undefined, { piiThreshold: 0 })).find('300만원')).length).toBe(1);
    expect(await (await DeidModelRecognizer.load(model, amount, { piiThreshold: 0 })).find('300만원')).toEqual([]);
    const bad = await cli('--quiet', 'blacklist', 'build', '--corpus', 'examples/legal-ko/judgments.csv', '--lang', 'ko', '--deid-model', model, '--deid-threshold', '2', '--out', join(dir, 'bad.tsv'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--deid-threshold/);
    const out = join(dir, 'bl.tsv');
    const r = await cli('--quiet', 'blacklist', 'build', '--corpus', 'examples/legal-ko/judgments.csv', '--lang', 'ko', '--recognizers', 'none', '--deid-model', model, '--out', out, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).direct).toBeGreaterThan(10);
    expect(await readFile(out, 'utf8')).toMatch(/\tdirect\t(내국인이름|은행|계좌번호)\t\d+\t\d+\tmodel:deid/);
    expect((await readBlacklist(out)).header.extra['model-agreement']).toBe('0.2');
    // Every term the model found, however seldom it marked it where the term stands.
    const everyTerm = await cli('--quiet', 'blacklist', 'build', '--corpus', 'examples/legal-ko/judgments.csv', '--lang', 'ko', '--recognizers', 'none', '--deid-model', model, '--model-agreement', '0', '--out', join(dir, 'every.tsv'), '--json');
    expect(everyTerm.code, everyTerm.stderr).toBe(0);
    const built = JSON.parse(r.stdout) as { direct: number; modelDropped: number; modelCommonNouns: number; modelCommonWords: number };
    expect(JSON.parse(everyTerm.stdout)).toMatchObject({ modelDropped: 0, modelCommonNouns: 0, modelCommonWords: 0, direct: built.direct + built.modelDropped + built.modelCommonNouns + built.modelCommonWords });
    const share = await cli('--quiet', 'blacklist', 'build', '--corpus', 'examples/legal-ko/judgments.csv', '--deid-model', model, '--model-agreement', '1.5', '--out', join(dir, 'share.tsv'));
    expect(share.code).toBe(2);
    expect(share.stderr).toMatch(/--model-agreement/);
    // A model trained on documents not declared public cannot help build a blacklist declared public.
    const declared = await cli('--quiet', 'blacklist', 'build', '--corpus', 'examples/legal-ko/judgments.csv', '--lang', 'ko', '--recognizers', 'none', '--deid-model', model, '--public-corpus', '--out', join(dir, 'public.tsv'));
    expect(declared.code).toBe(2);
    expect(declared.stderr).toMatch(/--public-corpus: the de-identification model .* was not trained on documents declared public \(deid train --public-corpus\)/);

    // An ensemble: a second model of the same tokenizer and labels, here the first with its O bias raised
    // (so it marks less) and a threshold of its own recorded.
    const second = join(dir, 'deid-b');
    await cp(model, second, { recursive: true });
    const weights = parseSafetensors(await readFile(join(model, 'model.safetensors')), 'model.safetensors').tensors;
    const bias = weights.get('classifier.bias')!;
    const outsideId = Number(Object.entries(JSON.parse(await readFile(join(model, 'config.json'), 'utf8')).id2label as Record<string, string>).find(([, l]) => l === 'O')![0]);
    weights.set('classifier.bias', { shape: bias.shape, data: bias.data.map((v, i) => (i === outsideId ? v + 2 : v)) });
    await writeFile(join(second, 'model.safetensors'), serializeSafetensors(weights));
    const recordedA = JSON.parse(await readFile(join(model, 'ppmlm.json'), 'utf8'));
    await writeFile(join(second, 'ppmlm.json'), JSON.stringify({ ...recordedA, piiThreshold: 0.3 }));
    // Each token's PII probability is the mean of the two models' (an oracle: each model alone).
    const [first, raised] = await Promise.all([loadTokenClassifier(model), loadTokenClassifier(second)]);
    const predict = (m: EncoderModel | EncoderModel[]) => predictLabels(m, first.tokenizer, first.labels, sentence, { seqLen: 64, piiThreshold: 0.5 });
    const [alone, other, both] = [await predict(first.model), await predict(raised.model), await predict([first.model, raised.model])];
    expect(both.piiProbability.length).toBe(alone.piiProbability.length);
    both.piiProbability.forEach((p, i) => expect(p).toBeCloseTo((alone.piiProbability[i]! + other.piiProbability[i]!) / 2, 5));
    expect(Math.max(...other.piiProbability.map((p, i) => p - alone.piiProbability[i]!))).toBeLessThan(0);
    // The CLI takes --deid-model again for an ensemble: one recogniser, both models in its source, the
    // mean of their recorded thresholds.
    const ensembleOut = join(dir, 'ensemble.tsv');
    const ensemble = await cli('blacklist', 'build', '--corpus', 'examples/legal-ko/judgments.csv', '--lang', 'ko', '--recognizers', 'none', '--deid-model', model, '--deid-model', second, '--out', ensembleOut);
    expect(ensemble.code, ensemble.stderr).toBe(0);
    expect(ensemble.stderr).toMatch(/2 de-identification models added as one recogniser, their label probabilities averaged \(PII threshold 0\.\d{3}\)/);
    expect(await readFile(ensembleOut, 'utf8')).toMatch(/\tmodel:deid\+deid-b(\n|,)/);
    expect((await DeidModelRecognizer.load([model, second])).piiThreshold).toBeCloseTo((recordedA.piiThreshold + 0.3) / 2, 10);
    expect((await DeidModelRecognizer.load([model, second], undefined, { piiThreshold: 0.7 })).piiThreshold).toBe(0.7);
    // A model without a threshold decides by its likeliest label: no mean with one that has a threshold.
    const unrecorded = join(dir, 'deid-unrecorded');
    await cp(model, unrecorded, { recursive: true });
    const { piiThreshold: _, ...withoutThreshold } = recordedA;
    await writeFile(join(unrecorded, 'ppmlm.json'), JSON.stringify(withoutThreshold));
    await expect(DeidModelRecognizer.load([model, unrecorded])).rejects.toThrow(`--deid-model ${unrecorded}: its ppmlm.json records no PII threshold and the others do, so theirs cannot be averaged with it; give one with --deid-threshold`);
    expect((await DeidModelRecognizer.load([model, unrecorded], undefined, { piiThreshold: 0.5 })).piiThreshold).toBe(0.5);
    // One model twice is no ensemble, however its folder is written.
    await expect(DeidModelRecognizer.load([model, `${model}/`])).rejects.toThrow(`--deid-model ${model}/ is given twice; an ensemble's models are trained apart (deid train --model BASE --seed N)`);
    await symlink(model, join(dir, 'linked'));
    await expect(DeidModelRecognizer.load([model, join(dir, 'linked')])).rejects.toThrow(/linked is given twice/);
    // A recorded threshold that is no probability would mark nothing (above 1), silently: refused.
    const broken = join(dir, 'deid-broken-threshold');
    await cp(model, broken, { recursive: true });
    await writeFile(join(broken, 'ppmlm.json'), JSON.stringify({ ...recordedA, piiThreshold: 1.7 }));
    const brokenBuild = await cli('blacklist', 'build', '--corpus', 'examples/legal-ko/judgments.csv', '--lang', 'ko', '--recognizers', 'none', '--deid-model', broken, '--out', join(dir, 'broken.tsv'));
    expect(brokenBuild.code).toBe(2);
    expect(brokenBuild.stderr).toBe(`ppmlm: ${join(broken, 'ppmlm.json')}: "piiThreshold" must be a probability from 0 to 1, got 1.7; train the model again, or give one with --deid-threshold or --pii-threshold\n`);
    expect((await cli('blacklist', 'build', '--corpus', 'examples/legal-ko/judgments.csv', '--deid-model', '', '--out', join(dir, 'empty.tsv'))).stderr).toBe('ppmlm: --deid-model is empty; give a model folder or public-ner-en\n');
    expect((await cli('blacklist', 'build', '--corpus', 'examples/legal-ko/judgments.csv', '--deid-threshold', '0.5', '--out', join(dir, 'alone.tsv'))).stderr).toBe('ppmlm: --deid-threshold sets the threshold of a --deid-model; add one, or drop --deid-threshold\n');
    // Models whose probabilities cannot be averaged are refused, naming what differs.
    const relabelled = join(dir, 'deid-relabelled');
    await cp(model, relabelled, { recursive: true });
    const config = JSON.parse(await readFile(join(model, 'config.json'), 'utf8'));
    await writeFile(join(relabelled, 'config.json'), JSON.stringify({ ...config, id2label: Object.fromEntries(Object.entries(config.id2label as Record<string, string>).map(([i, l]) => [i, l === 'O' ? l : `X-${l}`])) }));
    const mixed = await cli('blacklist', 'build', '--corpus', 'examples/legal-ko/judgments.csv', '--lang', 'ko', '--recognizers', 'none', '--deid-model', model, '--deid-model', relabelled, '--out', join(dir, 'mixed.tsv'));
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toBe(`ppmlm: --deid-model ${relabelled}: other labels than ${model}, so their label probabilities cannot be averaged; give models trained from one base encoder with the same labels (deid train --model BASE --seed N for each)\n`);
    const retokenised = await swappedTokensCopy(model, join(dir, 'deid-retokenised'));
    await expect(DeidModelRecognizer.load([model, retokenised])).rejects.toThrow(/another tokenizer than/);
    // Another window, another cut of the text: the models' windows would not be the same tokens.
    for (const [name, record, differs] of [['deid-window', { windowTokens: 16 }, 'another window'], ['deid-cut', { morphemes: true, analyzer: 'rule' }, 'another morpheme cut']] as const) {
      const other = join(dir, name);
      await cp(model, other, { recursive: true });
      await writeFile(join(other, 'ppmlm.json'), JSON.stringify({ ...recordedA, ...record }));
      await expect(DeidModelRecognizer.load([model, other])).rejects.toThrow(`--deid-model ${other}: ${differs} than ${model}`);
    }
  }, 120_000);
  it('records the documents a public model learned from; a DP run refuses a blacklist it helped build when they overlap the training documents', async () => {
    const dir = await tempDir();
    const model = join(dir, 'deid');
    expect((await cli('--quiet', 'deid', 'train', ...INPUTS, '--no-morphemes', '--epochs', '1', '--hidden', '32', '--layers', '1', '--vocab-size', '800', '--public-corpus', '--out', model)).code).toBe(0);
    const provenance = JSON.parse(await readFile(join(model, 'ppmlm.json'), 'utf8'));
    expect(provenance).toMatchObject({ publicCorpus: true, publicDocuments: expect.stringMatching(/^[0-9a-f]{16}$/) });
    const out = join(dir, 'bl.tsv');
    const built = await cli('--quiet', 'blacklist', 'build', '--corpus', 'examples/legal-ko/judgments.csv', '--lang', 'ko', '--recognizers', 'none', '--deid-model', model, '--public-corpus', '--out', out);
    expect(built.code, built.stderr).toBe(0);
    const blacklist = await readBlacklist(out);
    expect(blacklist.header.extra['recognizer-documents']).toBe(provenance.publicDocuments);
    // Fine-tuning text that holds judgments the model was trained on, as written (placeholders in place).
    const files = (await readdir('examples/legal-ko/judgments', { recursive: true })).filter((f) => f.endsWith('.md'));
    const judged = await Promise.all(files.map(async (f) => parseAnnotated(await readFile(join('examples/legal-ko/judgments', f), 'utf8'), f)));
    const texts = judged.map((d) => d.segments.map((s) => (typeof s === 'string' ? s : s.placeholder)).join(''));
    const problems = await privateInputsOf({ blacklist }, {}, texts);
    expect(problems).toEqual([{ name: 'the blacklist', why: expect.stringMatching(new RegExp(`declared public, but ${provenance.split.documents.train + provenance.split.documents.dev} of the ${texts.length} training documents are in the documents its de-identification model was trained on`)) }]);
    // Unrelated text passes; a record that is not kept here cannot rule the overlap out.
    expect(await privateInputsOf({ blacklist }, {}, ['피고인은 법정에서 진술하였다.'])).toEqual([]);
    const moved = { ...blacklist, header: { ...blacklist.header, extra: { ...blacklist.header.extra, 'recognizer-documents': '0123456789abcdef' } } };
    expect((await privateInputsOf({ blacklist: moved }, {}, texts))[0]?.why).toMatch(/no record of the documents its de-identification model was trained on is kept here/);
    // A public model trained before the record existed is refused for a public blacklist.
    const { publicDocuments: _, ...older } = provenance;
    await writeFile(join(model, 'ppmlm.json'), JSON.stringify(older));
    const old = await cli('--quiet', 'blacklist', 'build', '--corpus', 'examples/legal-ko/judgments.csv', '--lang', 'ko', '--recognizers', 'none', '--deid-model', model, '--public-corpus', '--out', join(dir, 'old.tsv'));
    expect(old.code).toBe(2);
    expect(old.stderr).toMatch(/records no publicDocuments .* retrain it with deid train --public-corpus/);
  }, 120_000);
});
