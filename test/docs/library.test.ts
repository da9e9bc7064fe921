import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { cp, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempDir } from '../helpers/tmp.js';
import { tinySetup } from '../helpers/tinyModel.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** tsx's loader, resolved from the repository: the module runs in a folder of its own. */
const TSX = pathToFileURL(createRequire(join(ROOT, 'package.json')).resolve('tsx')).href;

/** The ```ts blocks of a Markdown page, in order, as one module. */
export function typescriptBlocks(markdown: string): string {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!).join('\n');
}

/** Runs a module with tsx in `cwd`; its exit code and output. */
function runModule(file: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', TSX, file], { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

describe('docs/library.md', () => {
  it('has ts blocks that import only from ppmlm', async () => {
    const code = typescriptBlocks(await readFile(join(ROOT, 'docs', 'library.md'), 'utf8'));
    expect(code).toMatch(/mlm\.finetune\(/);
    for (const [, from] of code.matchAll(/from '([^']+)'/g)) expect(from).toBe('ppmlm');
  });

  it('runs as written: a blacklist (0600), a constrained fine-tuned model, its recall of gold spans', async () => {
    const dir = await tempDir();
    // The page's inputs: the example corpus, a BERT folder (a tiny one ppmlm made, in Hugging Face's format), gold spans.
    await mkdir(join(dir, 'examples', 'clinical-en'), { recursive: true });
    await cp(join(ROOT, 'examples', 'clinical-en', 'notes.csv'), join(dir, 'examples', 'clinical-en', 'notes.csv'));
    await cp((await tinySetup(2, 1)).model, join(dir, 'bert-base-uncased'), { recursive: true });
    const gold = [
      { id: 'g1', author: 'a', text: 'Seen by Dr Alice Moreau on 3/12/2021.', spans: [{ start: 11, end: 23, label: 'NAME' }, { start: 27, end: 36, label: 'DATE' }] },
      { id: 'g2', author: 'b', text: 'Call 617-555-0199 if worse.', spans: [{ start: 5, end: 17, label: 'PHONE' }] },
    ];
    await writeFile(join(dir, 'gold.jsonl'), gold.map((d) => JSON.stringify(d)).join('\n'));
    const code = typescriptBlocks(await readFile(join(ROOT, 'docs', 'library.md'), 'utf8')).replaceAll("from 'ppmlm'", `from ${JSON.stringify(join(ROOT, 'src', 'index.ts'))}`);
    await writeFile(join(dir, 'example.mts'), code);

    const r = await runModule(join(dir, 'example.mts'), dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\d+ direct and \d+ indirect terms$/m);
    expect(r.stdout).toMatch(/^\d+ steps; the model is in bert-notes-ppmlm$/m);
    // The bundled recognisers find the name, the date and the phone number.
    expect(r.stdout).toMatch(/^all: 100\.0% \[[\d.]+, [\d.]+\] of 3 spans$/m);
    expect(r.stdout).toMatch(/^other text protected: /m);
    expect((await stat(join(dir, 'notes.blacklist.tsv'))).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(join(dir, 'bert-notes-ppmlm', 'ppmlm.json'), 'utf8'))).toMatchObject({ strategy: 'constrained' });
  }, 120_000);
});
