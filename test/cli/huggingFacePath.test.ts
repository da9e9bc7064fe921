import { describe, expect, it } from 'vitest';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateClinicalNotes } from '../../examples/clinical-en/generate.js';
import { readBlacklist } from '../../src/identifiers/index.js';
import { BlacklistedTerms, blacklistedTokens, loadTokenizer } from '../../src/tokenizer/index.js';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** The commands of README.md's "On your own data with a Hugging Face model" block, as argv lists. */
async function readmeHuggingFacePath(): Promise<string[][]> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## On your own data with a Hugging Face model'));
  const block = section.slice(section.indexOf('```sh') + 5, section.indexOf('```', section.indexOf('```sh') + 5));
  return block
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('ppmlm '))
    .map((l) => l.split(/\s+/).slice(1));
}

const csv = (docs: { id: string; author: string; text: string }[]) => `patient_id,note_id,text\n${docs.map((d) => `${d.author},${d.id},"${d.text.replace(/"/g, '""')}"`).join('\n')}\n`;

describe("README's Hugging Face path", () => {
  it('runs as written on a Hugging Face folder whose vocabulary holds blacklisted terms but was not trained on the members', async () => {
    const dir = await tempDir();
    // The "public" model: a tokenizer and encoder made from other patients' notes, then stripped to the
    // standard Hugging Face layout (no ppmlm.json, no card), as a downloaded bert-base-uncased would be.
    const hf = join(dir, 'bert-base-uncased');
    const publicNotes = join(dir, 'public.jsonl');
    await writeFile(publicNotes, generateClinicalNotes(5, 30, 2).map((d) => JSON.stringify(d)).join('\n'));
    expect((await cli('--quiet', 'tokenizer', 'train', '--corpus', publicNotes, '--public-corpus', '--vocab-size', '600', '--out', join(dir, 'tok'))).code).toBe(0);
    const init = await cli('--quiet', 'model', 'init', '--vocab', join(dir, 'tok'), '--out', hf, '--hidden', '16', '--layers', '1', '--heads', '2', '--intermediate', '32', '--max-positions', '128');
    expect(init.code, init.stderr).toBe(0);
    await rm(join(hf, 'ppmlm.json'));
    await rm(join(hf, 'README.md'));

    const members = generateClinicalNotes(11, 6, 2);
    const nonMembers = generateClinicalNotes(12, 6, 2).map((d) => ({ ...d, id: `h${d.id}`, author: `h${d.author}` }));
    const files: Record<string, string> = { 'notes.csv': csv([...members, ...nonMembers]), 'train.csv': csv(members), 'heldout.csv': csv(nonMembers) };
    for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
    const paths: Record<string, string> = { ...Object.fromEntries(Object.keys(files).map((f) => [f, join(dir, f)])), './bert-base-uncased': hf, './bert-ppmlm': join(dir, 'bert-ppmlm'), 'blacklists/notes.tsv': join(dir, 'notes.tsv'), 'audit/': join(dir, 'audit') };

    const commands = await readmeHuggingFacePath();
    expect(commands.map((c) => c[0])).toEqual(['blacklist', 'finetune', 'audit']);
    const outputs: Record<string, { code: number; stderr: string }> = {};
    for (const argv of commands) {
      const r = await cli(...argv.map((a) => paths[a] ?? a));
      expect(r.code, `${argv[0]}: ${r.stderr}`).toBe(0);
      outputs[argv[0]!] = r;
      if (argv[0] === 'blacklist') {
        // What the old check refused: the public vocabulary spells terms of the members' blacklist.
        const terms = new BlacklistedTerms((await readBlacklist(join(dir, 'notes.tsv'))).entries.map((e) => e.term));
        expect(blacklistedTokens(await loadTokenizer(hf), terms).length).toBeGreaterThan(0);
      }
    }
    expect(outputs.finetune!.stderr).toContain('vocabulary unchecked: no provenance');
    const provenance = JSON.parse(await readFile(join(dir, 'bert-ppmlm', 'ppmlm.json'), 'utf8'));
    expect(provenance).toMatchObject({ strategy: 'constrained', protectedTargets: 0, vocabularyCheck: { status: 'unchecked', reason: 'no provenance' } });
    expect(provenance).not.toHaveProperty('vocabulary');
    expect(await readFile(join(dir, 'bert-ppmlm', 'README.md'), 'utf8')).toMatch(/vocabulary.*unchecked: not trained by ppmlm/);
    expect(JSON.parse(await readFile(join(dir, 'audit', 'report.json'), 'utf8'))).toHaveProperty('privacy');
  }, 180_000);
});
