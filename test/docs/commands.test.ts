import { describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/main.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SILENT = { stdout: () => undefined, stderr: () => undefined };

/** Every `ppmlm …` command line in a fenced block of a Markdown file, continuation lines joined. */
function fencedCommands(markdown: string): { line: number; words: string[] }[] {
  const found: { line: number; words: string[] }[] = [];
  let fenced = false;
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*(```|~~~)/.test(lines[i]!)) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) continue;
    let text = lines[i]!.replace(/^\s*\$\s+/, '').trim();
    if (!/^(npx )?ppmlm\s/.test(text)) continue;
    const start = i + 1;
    while (text.endsWith('\\') && i + 1 < lines.length) text = `${text.slice(0, -1)} ${lines[++i]!.trim()}`;
    // A comment or a shell operator ends the command.
    text = text.replace(/\s#.*$/, '').split(/\s(?:\||&&|;|>|2>)\s/)[0]!;
    found.push({ line: start, words: text.split(/\s+/).filter(Boolean).slice(text.startsWith('npx ') ? 2 : 1) });
  }
  return found;
}

/** The command a line names (its sub-commands followed as far as they go), or why it names none. */
function resolve(program: Command, words: string[]): { command: Command; rest: string[] } | string {
  let command = program;
  let rest = words;
  // Global options may come before the command.
  while (rest[0]?.startsWith('-')) rest = rest.slice(program.options.find((o) => o.long === rest[0])?.required ? 2 : 1);
  while (rest.length > 0 && !rest[0]!.startsWith('-')) {
    const next = command.commands.find((c) => c.name() === rest[0] || c.aliases().includes(rest[0]!));
    if (next === undefined) break;
    command = next;
    rest = rest.slice(1);
  }
  if (command === program) return `no command "${rest[0] ?? ''}"`;
  if (command.commands.length > 0) return `"${command.name()}" needs a sub-command (${command.commands.map((c) => c.name()).join(', ')})`;
  return { command, rest };
}

/** The long flags a command accepts: its own, commander's negations, and the program's global ones. */
function flagsOf(program: Command, command: Command): Set<string> {
  const flags = new Set<string>(['--help']);
  for (const c of [program, command]) for (const o of c.options) if (o.long) flags.add(o.long);
  return flags;
}

async function docsFiles(): Promise<string[]> {
  const docs = (await readdir(join(ROOT, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => join('docs', f));
  return ['README.md', ...docs];
}

describe('the commands shown in README.md and docs/', () => {
  it('finds commands in fenced blocks, joining continuation lines and dropping comments', () => {
    const md = ['text ppmlm info --nope', '```sh', '$ ppmlm finetune --model m \\', '  --strategy constrained  # a comment --nope', 'npm ci', '```', 'ppmlm outside --x'].join('\n');
    expect(fencedCommands(md)).toEqual([{ line: 3, words: ['finetune', '--model', 'm', '--strategy', 'constrained'] }]);
  });

  it('catches an unknown flag and an unknown command', () => {
    const program = buildProgram(SILENT);
    const bad = resolve(program, ['finetune', '--no-such-flag']);
    expect(typeof bad === 'object' && flagsOf(program, bad.command).has('--no-such-flag')).toBe(false);
    expect(resolve(program, ['no-such-command'])).toBe('no command "no-such-command"');
    expect(resolve(program, ['blacklist'])).toMatch(/needs a sub-command/);
  });

  it('name existing commands with flags each command accepts', async () => {
    const program = buildProgram(SILENT);
    const problems: string[] = [];
    let checked = 0;
    for (const file of await docsFiles()) {
      for (const { line, words } of fencedCommands(await readFile(join(ROOT, file), 'utf8'))) {
        checked++;
        const resolved = resolve(program, words);
        if (typeof resolved === 'string') {
          problems.push(`${file}:${line}: ${resolved}`);
          continue;
        }
        const known = flagsOf(program, resolved.command);
        for (const word of resolved.rest) {
          const flag = word.split('=')[0]!;
          if (flag.startsWith('--') && !known.has(flag)) problems.push(`${file}:${line}: ppmlm ${words[0]} has no ${flag}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // README.md alone shows the three commands of the Hugging Face path.
    expect(checked).toBeGreaterThanOrEqual(3);
  });
});
