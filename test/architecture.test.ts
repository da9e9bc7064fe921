import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, dirname, resolve, sep } from 'node:path';

const SRC = resolve(new URL('../src', import.meta.url).pathname);

/** Imported by anything: typed errors and the package version. */
const BASE = ['errors', 'version'];

/** What each top-level module may import (DESIGN.md: dependencies point one way, nothing imports the CLI). */
const ALLOWED: Record<string, string[]> = {
  errors: [],
  version: [],
  io: ['errors'],
  corpus: ['errors', 'io'],
  text: ['errors', 'io'],
  engine: ['errors', 'io'],
  identifiers: ['errors', 'io', 'corpus', 'text'],
  tokenizer: ['errors', 'io', 'corpus', 'text'],
  model: ['errors', 'io', 'engine', 'tokenizer'],
  privacy: ['errors', 'io', 'engine'],
  mlm: ['errors', 'io', 'corpus', 'text', 'identifiers', 'tokenizer', 'engine', 'model', 'privacy'],
  deid: ['errors', 'io', 'corpus', 'text', 'identifiers', 'tokenizer', 'engine', 'model', 'privacy'],
  onnx: ['errors', 'io', 'model'],
  audit: ['errors', 'io', 'corpus', 'text', 'identifiers', 'tokenizer', 'engine', 'model', 'privacy', 'mlm', 'deid'],
  demo: ['errors', 'io', 'corpus', 'text', 'identifiers', 'tokenizer', 'engine', 'model', 'privacy', 'mlm', 'deid', 'audit'],
  experiment: ['errors', 'io', 'corpus', 'text', 'identifiers', 'tokenizer', 'engine', 'model', 'privacy', 'mlm', 'deid', 'audit'],
  dataset: ['errors', 'io', 'corpus', 'text', 'identifiers', 'tokenizer', 'engine', 'model', 'mlm'],
  review: ['errors', 'io', 'corpus', 'text', 'identifiers', 'engine', 'privacy', 'audit'],
};

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (name.endsWith('.ts')) yield path;
  }
}

function moduleOf(file: string): string {
  const rel = relative(SRC, file);
  const top = rel.split(sep)[0]!;
  return top.replace(/\.(ts|js)$/, '');
}

describe('architecture', () => {
  it('imports only downward (DESIGN.md layering) and never the CLI', () => {
    const violations: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const from = moduleOf(file);
      if (from === 'cli' || from === 'index') continue;
      const allowed = ALLOWED[from];
      expect(allowed, `module ${from} is missing from the layering table`).toBeDefined();
      const source = readFileSync(file, 'utf8');
      for (const [, spec] of source.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
        const to = moduleOf(resolve(dirname(file), spec!));
        if (to !== from && !BASE.includes(to) && !allowed!.includes(to)) violations.push(`${relative(SRC, file)} imports ${spec} (${from} → ${to})`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('ends every relative import in .js (ESM resolution)', () => {
    const bad: string[] = [];
    for (const file of sourceFiles(SRC)) {
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from\s+'(\.[^']+)'/g)) {
        if (!spec!.endsWith('.js') && !spec!.endsWith('.json')) bad.push(`${relative(SRC, file)}: ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
