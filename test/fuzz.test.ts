import { describe, expect, it } from 'vitest';
import { dirname, join } from 'node:path';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadCorpus } from '../src/corpus/index.js';
import { Rng } from '../src/engine/index.js';
import { PpmlmError } from '../src/errors.js';
import { formatBlacklist, parseBlacklist } from '../src/identifiers/index.js';
import { defaultConfig, parseSafetensors, serializeSafetensors, validateConfig } from '../src/model/index.js';
import { loadTokenizer, toTokenizerJson, WordPieceTokenizer } from '../src/tokenizer/index.js';
import { cli } from './helpers/cli.js';
import { tempDir } from './helpers/tmp.js';

/**
 * Mutation fuzzing of every reader of user files: seeded, so a failure names a case that replays. Each
 * mutant must read, or fail with a PpmlmError whose message is one line and quotes no document text, within
 * a time limit; through the CLI it must never exit 1 or print a stack trace.
 */

const TEXTS = ['Zebulon Quixote-Marsh, 42, seen for asthma today.', 'Follow-up: "wheeze" improved,\ncontinue the inhaler twice daily.', 'Bob Jones reports chest pain since Monday morning.'];
const CSV = `id,author,text\n${TEXTS.map((t, i) => `${i + 1},p${i % 2},"${t.replace(/"/g, '""')}"`).join('\n')}\n`;
const TSV = `id\tauthor\ttext\n${TEXTS.map((t, i) => `${i + 1}\tp${i % 2}\t${t.replace(/\n/g, ' ')}`).join('\n')}\n`;
const JSONL = `${TEXTS.map((t, i) => JSON.stringify({ id: String(i + 1), author: `p${i % 2}`, text: t, label: 'x' })).join('\n')}\n`;
const BLACKLIST = formatBlacklist({
  header: { version: 1, k: 2, ngrams: [1, 3], extra: {} },
  entries: [
    { term: 'zebulon quixote-marsh', kind: 'direct', category: 'PERSON', authors: 1, occurrences: 2, sources: ['rule:name'] },
    { term: 'inhaler', kind: 'indirect', category: 'RARE', authors: 1, occurrences: 1, sources: ['graph:k=2'] },
  ],
});
const SAFETENSORS = serializeSafetensors(new Map([['a', { shape: [2, 3], data: Float32Array.from([1, 2, 3, 4, 5, 6]) }], ['b', { shape: [4], data: new Float32Array(4) }]]));
const CONFIG = JSON.stringify(defaultConfig({ vocab_size: 8, hidden_size: 8, num_hidden_layers: 1, num_attention_heads: 2, intermediate_size: 16, max_position_embeddings: 32 }));
const TOKENIZER = JSON.stringify(toTokenizerJson(new WordPieceTokenizer(['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'alice', 'saw', '##s'])));

const WRONG_JSON = [null, [], {}, 'x', -1, 1.5, 1e9, 1e308, true, [null], { '0': null }];
const INSERTS = ['"', '\t', '\0', '\r', '\n', ',', '""', '\\', '1e308', '-1', '99999999999999999999', '\uFFFD'];

type Mutation = (bytes: Buffer, rng: Rng) => Buffer;

const pick = <T>(rng: Rng, items: readonly T[]): T => items[rng.int(items.length)]!;
const lines = (b: Buffer) => b.toString('utf8').split('\n');
const text = (s: string) => Buffer.from(s, 'utf8');

const MUTATIONS: Record<string, Mutation> = {
  flip: (b, rng) => {
    const out = Buffer.from(b);
    for (let n = out.length === 0 ? 0 : 1 + rng.int(3); n > 0; n--) {
      const i = rng.int(out.length);
      out[i] = out[i]! ^ (1 << rng.int(8));
    }
    return out;
  },
  truncate: (b, rng) => b.subarray(0, rng.int(b.length)),
  duplicateLine: (b, rng) => {
    const l = lines(b);
    const i = rng.int(l.length);
    l.splice(i, 0, ...Array.from({ length: 1 + rng.int(3) }, () => l[i]!));
    return text(l.join('\n'));
  },
  deleteLine: (b, rng) => {
    const l = lines(b);
    l.splice(rng.int(l.length), 1);
    return text(l.join('\n'));
  },
  insert: (b, rng) => {
    const s = b.toString('utf8');
    const at = rng.int(s.length + 1);
    return text(s.slice(0, at) + pick(rng, INSERTS) + s.slice(at));
  },
  hugeNumber: (b, rng) => {
    const s = b.toString('utf8');
    const digits = [...s.matchAll(/\d+/g)];
    if (digits.length === 0) return b;
    const m = pick(rng, digits);
    return text(s.slice(0, m.index) + pick(rng, ['1e308', '-7', '1000000000', '4.5', '9007199254740993', 'NaN']) + s.slice(m.index! + m[0].length));
  },
  /** One line's JSON (a JSONL record, or a whole one-line .json file) with a node of another type. */
  wrongJsonType: (b, rng) => {
    const l = lines(b);
    const i = rng.int(l.length);
    try {
      l[i] = JSON.stringify(replaceSomewhere(JSON.parse(l[i]!), rng));
    } catch {
      return b;
    }
    return text(l.join('\n'));
  },
};

/** `value` with one node (the root included) replaced by a value of another JSON type. */
function replaceSomewhere(value: unknown, rng: Rng): unknown {
  if (value === null || typeof value !== 'object' || rng.next() < 0.15) return pick(rng, WRONG_JSON);
  const keys = Object.keys(value);
  if (keys.length === 0) return pick(rng, WRONG_JSON);
  const key = pick(rng, keys);
  const copy: Record<string, unknown> = Array.isArray(value) ? ([...value] as unknown as Record<string, unknown>) : { ...(value as Record<string, unknown>) };
  copy[key] = replaceSomewhere((value as Record<string, unknown>)[key], rng);
  return copy;
}

/** A safetensors file whose JSON header is mutated as JSON; the data bytes stay. */
function mutateSafetensorsHeader(b: Buffer, rng: Rng): Buffer {
  const length = Number(b.readBigUInt64LE(0));
  const header = MUTATIONS.wrongJsonType!(b.subarray(8, 8 + length), rng);
  const prefix = Buffer.alloc(8);
  prefix.writeBigUInt64LE(BigInt(header.length));
  return Buffer.concat([prefix, header, b.subarray(8 + length)]);
}

interface Target {
  name: string;
  seed: Buffer;
  file: string;
  mutations: Mutation[];
  read(path: string, bytes: Buffer): unknown;
}

const textMutations = Object.entries(MUTATIONS).filter(([k]) => k !== 'wrongJsonType').map(([, m]) => m);
// Weighted towards wrong types: byte-level mutations mostly make JSON unparseable, which one check covers.
const jsonMutations = [...Object.values(MUTATIONS), MUTATIONS.wrongJsonType!, MUTATIONS.wrongJsonType!];

const TARGETS: Target[] = [
  { name: 'CSV corpus', seed: text(CSV), file: 'c.csv', mutations: textMutations, read: (path) => loadCorpus(path, { maxDocChars: 10_000 }) },
  { name: 'CSV corpus, skipping bad rows', seed: text(CSV), file: 'c.csv', mutations: textMutations, read: (path) => loadCorpus(path, { skipBadRows: true, maxDocChars: 10_000 }) },
  { name: 'TSV corpus', seed: text(TSV), file: 'c.tsv', mutations: textMutations, read: (path) => loadCorpus(path) },
  { name: 'JSONL corpus', seed: text(JSONL), file: 'c.jsonl', mutations: jsonMutations, read: (path) => loadCorpus(path) },
  { name: 'blacklist TSV', seed: text(BLACKLIST), file: 'bl.tsv', mutations: textMutations, read: (path, bytes) => parseBlacklist(bytes.toString('utf8'), path) },
  { name: 'safetensors', seed: Buffer.from(SAFETENSORS), file: 'model.safetensors', mutations: [MUTATIONS.flip!, MUTATIONS.truncate!, mutateSafetensorsHeader, mutateSafetensorsHeader, mutateSafetensorsHeader], read: (path, bytes) => parseSafetensors(bytes, path) },
  { name: 'config.json', seed: text(CONFIG), file: 'config.json', mutations: jsonMutations, read: (path, bytes) => validateConfig(parsedOrSkip(bytes), path) },
  { name: 'tokenizer.json', seed: text(TOKENIZER), file: 'tokenizer.json', mutations: jsonMutations, read: (path) => loadTokenizer(dirname(path)) },
];

/** config.json is parsed by loadModelDir, which needs the rest of a model folder: text that is not JSON is covered there. */
function parsedOrSkip(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return defaultConfig({ vocab_size: 8 });
  }
}

const CASES_PER_TARGET = 40;
const CASE_MS = 2000;

/** Whether a failure is acceptable: a typed error, one line, quoting no document text. */
function checkError(err: unknown, label: string): void {
  if (!(err instanceof PpmlmError)) throw new Error(`${label}: not a PpmlmError: ${(err as Error)?.stack ?? String(err)}`);
  expect(err.located, label).not.toContain('\n');
  for (const t of TEXTS) expect(err.located, label).not.toContain(t.split('\n')[0]);
}

describe('fuzzed input files', () => {
  it.each(TARGETS.map((t, i) => [t.name, t, i] as const))('%s: a typed one-line error or a result, never a crash or a hang', async (_name, target, index) => {
    const dir = await tempDir();
    const rng = new Rng(1000 + index);
    for (let n = 0; n < CASES_PER_TARGET; n++) {
      let bytes = target.seed;
      for (let k = 1 + rng.int(2); k > 0; k--) bytes = pick(rng, target.mutations)(bytes, rng);
      const label = `${target.name} case ${n} (seed ${1000 + index})`;
      const path = join(dir, String(n), target.file);
      await mkdir(dirname(path));
      await writeFile(path, bytes);
      const t0 = performance.now();
      try {
        await target.read(path, bytes);
      } catch (err) {
        checkError(err, label);
      }
      expect(performance.now() - t0, `${label} took too long`).toBeLessThan(CASE_MS);
    }
  }, 60_000);

  it('through the CLI: exit 0 or 2, one line on stderr, no stack trace or document text', async () => {
    const dir = await tempDir();
    const rng = new Rng(7);
    const runs: [string, string[]][] = [];
    for (let n = 0; n < 6; n++) {
      const [file, seed, mutations] = pick(rng, [['c.csv', CSV, textMutations], ['c.tsv', TSV, textMutations], ['c.jsonl', JSONL, jsonMutations]] as const);
      const path = join(dir, `${n}-${file}`);
      await writeFile(path, pick(rng, mutations)(text(seed), rng));
      runs.push([path, ['corpus', 'stats', '--corpus', path, ...(rng.next() < 0.5 ? ['--skip-bad-rows'] : [])]]);
    }
    for (let n = 0; n < 3; n++) {
      const path = join(dir, `${n}-bl.tsv`);
      await writeFile(path, pick(rng, textMutations)(text(BLACKLIST), rng));
      await writeFile(join(dir, 'note.txt'), TEXTS[0]!);
      runs.push([path, ['blacklist', 'show', '--blacklist', path, '--text', join(dir, 'note.txt')]]);
    }
    for (let n = 0; n < 3; n++) {
      const model = join(dir, `model-${n}`);
      await mkdir(model);
      await writeFile(join(model, 'config.json'), MUTATIONS.wrongJsonType!(text(CONFIG), rng));
      await writeFile(join(model, 'model.safetensors'), mutateSafetensorsHeader(Buffer.from(SAFETENSORS), rng));
      await writeFile(join(model, 'tokenizer.json'), MUTATIONS.wrongJsonType!(text(TOKENIZER), rng));
      runs.push([model, ['fill-mask', '--model', model, '--text', 'alice [MASK]']]);
    }
    for (const [path, args] of runs) {
      const r = await cli(...args);
      const label = `${args.join(' ')} -> ${r.code}: ${r.stderr}`;
      expect([0, 2], label).toContain(r.code);
      if (r.code === 2) expect(r.stderr.trim().split('\n'), label).toHaveLength(1);
      expect(r.stderr, label).not.toMatch(/internal error|\n\s+at /);
      for (const t of TEXTS) expect(`${r.stderr}`, `${path}: ${label}`).not.toContain(t.split('\n')[0]);
    }
  }, 60_000);
});
