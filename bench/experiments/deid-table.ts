/**
 * Prints the tables of docs/deid.md from `ppmlm deid eval --json` outputs:
 *   npx tsx bench/experiments/deid-table.ts NAME=eval.json ... [--per-label]
 * one row of binary and micro P/R/F1 per run; with --per-label, the per-label P/R/F1 of each run
 * (labels with support, most frequent first).
 */
import { readFile } from 'node:fs/promises';

interface Prf {
  precision: number;
  recall: number;
  f1: number;
}
interface Evaluation {
  documents: number;
  tokens: number;
  binary: Prf;
  micro: Prf;
  perLabel: Record<string, Prf & { support: number }>;
}

const args = process.argv.slice(2);
const perLabel = args.includes('--per-label');
const runs = await Promise.all(
  args.filter((a) => a.includes('=')).map(async (a) => {
    const [name, path] = a.split('=') as [string, string];
    return { name, e: JSON.parse(await readFile(path, 'utf8')) as Evaluation };
  }),
);
const f = (x: number) => x.toFixed(3);
console.log('| run | documents | tokens | binary P | binary R | binary F1 | micro P | micro R | micro F1 |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const { name, e } of runs) console.log(`| ${name} | ${e.documents} | ${e.tokens} | ${f(e.binary.precision)} | ${f(e.binary.recall)} | ${f(e.binary.f1)} | ${f(e.micro.precision)} | ${f(e.micro.recall)} | ${f(e.micro.f1)} |`);
if (perLabel) {
  for (const { name, e } of runs) {
    console.log(`\n${name}\n\n| label | support (tokens) | precision | recall | F1 |\n|---|---:|---:|---:|---:|`);
    for (const [label, m] of Object.entries(e.perLabel).sort((a, b) => b[1].support - a[1].support)) if (m.support > 0) console.log(`| ${label} | ${m.support} | ${f(m.precision)} | ${f(m.recall)} | ${f(m.f1)} |`);
  }
}
