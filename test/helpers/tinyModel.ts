import { join } from 'node:path';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { parseSafetensors, serializeSafetensors } from '../../src/model/index.js';
import { generateClinicalNotes } from '../../examples/clinical-en/generate.js';
import { cli } from './cli.js';
import { tempDir } from './tmp.js';

/** A small synthetic corpus, its blacklist, and a tiny randomly initialised BERT, in a temp folder. */
export async function tinySetup(patients = 8, notes = 3): Promise<{ dir: string; corpus: string; blacklist: string; model: string }> {
  const dir = await tempDir();
  const corpus = join(dir, 'notes.jsonl');
  const docs = generateClinicalNotes(11, patients, notes);
  await writeFile(corpus, docs.map((d) => JSON.stringify(d)).join('\n'));
  const blacklist = join(dir, 'bl.tsv');
  const model = join(dir, 'init');
  for (const args of [
    ['blacklist', 'build', '--corpus', corpus, '--out', blacklist],
    ['tokenizer', 'train', '--corpus', corpus, '--blacklist', blacklist, '--out', join(dir, 'tok'), '--vocab-size', '400'],
    ['model', 'init', '--vocab', join(dir, 'tok'), '--out', model, '--hidden', '32', '--layers', '1', '--heads', '2', '--intermediate', '64', '--max-positions', '64'],
  ]) {
    const r = await cli('--quiet', ...args);
    if (r.code !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  }
  return { dir, corpus, blacklist, model };
}

/** A copy of `model` at `to` whose weights lack the masked-LM head: a bare encoder, as a BertModel download is. */
export async function bareEncoderCopy(model: string, to: string): Promise<string> {
  await cp(model, to, { recursive: true });
  const weights = parseSafetensors(await readFile(join(model, 'model.safetensors')), 'model.safetensors').tensors;
  await writeFile(join(to, 'model.safetensors'), serializeSafetensors(new Map([...weights].filter(([name]) => !name.startsWith('cls.')))));
  return to;
}

/** A copy of `model` at `to` whose tokenizer reads its last two tokens' ids the other way round: the same size, another vocabulary. */
export async function swappedTokensCopy(model: string, to: string): Promise<string> {
  await cp(model, to, { recursive: true });
  const tokenizer = JSON.parse(await readFile(join(model, 'tokenizer.json'), 'utf8')) as { model: { vocab: Record<string, number> } };
  const [a, b] = Object.keys(tokenizer.model.vocab).slice(-2) as [string, string];
  [tokenizer.model.vocab[a], tokenizer.model.vocab[b]] = [tokenizer.model.vocab[b]!, tokenizer.model.vocab[a]!];
  await writeFile(join(to, 'tokenizer.json'), JSON.stringify(tokenizer));
  return to;
}
