import { readFile } from 'node:fs/promises';
import { FormatError } from '../errors.js';
import { fileSystemError } from './fsErrors.js';
import { decodeUtf8Strict } from './utf8.js';

/**
 * Where `JSON.parse` failed, as " at line L column C", " at position P" or " (it ends early)"; "" when V8
 * does not say. Errors quote this rather than V8's message, which quotes the text around the error:
 * corpora and annotations hold personal data, and a snippet may span lines of a one-line error.
 * Where the text is at hand, `parseJson` says more (V8 names no position for an unexpected token).
 *
 * @example
 * try { JSON.parse(text); } catch (err) { throw new FormatError(`not valid JSON${jsonErrorPosition(err)}`, { file }); }
 */
export function jsonErrorPosition(err: unknown): string {
  const message = err instanceof Error ? err.message : '';
  const lineColumn = /\(line (\d+) column (\d+)\)/.exec(message);
  if (lineColumn !== null) return ` at line ${lineColumn[1]} column ${lineColumn[2]}`;
  const position = /at position (\d+)/.exec(message);
  if (position !== null) return ` at position ${position[1]}`;
  return /end of JSON input/.test(message) ? ' (it ends early)' : '';
}

/** Whether a parsed JSON value is an object (not null, not an array): the shape every ppmlm JSON file starts with. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Parses JSON text; a syntax error is a FormatError at `file:line` naming the column and `fix`, never
 * V8's message (it quotes the text around the error, and texts hold personal data).
 *
 * @param firstLine the line of the text's first character in `file` (a JSONL record's line).
 * @example
 * const config = parseJson(text, 'run.json', 'an experiment config is one JSON object');
 */
export function parseJson(text: string, file: string, fix: string, firstLine = 1): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const offset = jsonErrorOffset(text);
    const { line, column } = lineAndColumn(text, offset);
    const where = offset >= text.length ? `: it ends at column ${column} before the value is complete` : ` at column ${column}`;
    throw new FormatError(`not valid JSON${where}; ${fix}`, { file, line: firstLine + line - 1, cause: err });
  }
}

export interface ReadJsonOptions {
  /** What the file must look like, appended to syntax errors. */
  fix: string;
  /** Appended to file-system errors, e.g. 'check --config'. */
  hint?: string;
}

/**
 * Reads a UTF-8 JSON file (a BOM is dropped). A missing or unreadable file is a UsageError naming the
 * path and `hint`; invalid UTF-8 and syntax errors are FormatErrors at `file:line`.
 *
 * @example
 * const raw = await readJsonFile('experiment.json', { fix: 'an experiment config is one JSON object', hint: 'check --config' });
 */
export async function readJsonFile(path: string, options: ReadJsonOptions): Promise<unknown> {
  return (await readJsonFileText(path, options)).value;
}

/** {@link readJsonFile} with the file's text, for errors that name a value's line ({@link jsonValueLine}). */
export async function readJsonFileText(path: string, options: ReadJsonOptions): Promise<{ value: unknown; text: string }> {
  const bytes = await readFile(path).catch((err: unknown) => {
    throw fileSystemError(err, path, options.hint);
  });
  const text = decodeUtf8Strict(bytes, path);
  return { value: parseJson(text, path, options.fix), text };
}

/** 1-based line and column (in UTF-16 units) of `offset` in `text`; a line ends at \n, \r\n or a lone \r (old Mac files). */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (const end of text.slice(0, offset).matchAll(/\r\n?|\n/g)) {
    line++;
    lineStart = end.index + end[0].length;
  }
  return { line, column: offset - lineStart + 1 };
}

const SCALAR = /true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

/**
 * Offset of the first character where `text` stops being JSON (RFC 8259), `text.length` when it ends
 * too early, -1 when it is JSON. Run only after `JSON.parse` failed, to say where.
 */
export function jsonErrorOffset(text: string): number {
  return walkJson(text);
}

/** A key or an array index on the way from a JSON document's root to one of its values. */
export type JsonPath = readonly (string | number)[];

/**
 * The 1-based line where the value at `path` starts in the JSON `text` (the last one where a key is
 * repeated, as `JSON.parse` keeps the last), undefined where there is none: so that an error about a
 * value's meaning, found after parsing, names its line as a syntax error does.
 *
 * @example
 * jsonValueLine('{\n "finetune": {\n  "lr": 5\n }\n}', ['finetune', 'lr']) // 3
 */
export function jsonValueLine(text: string, path: JsonPath): number | undefined {
  let found = -1;
  walkJson(text, (at, offset) => {
    if (at.length === path.length && at.every((key, i) => key === path[i])) found = offset;
  });
  return found < 0 ? undefined : lineAndColumn(text, found).line;
}

/**
 * The first key an object of the JSON `text` holds twice, as the path to it and the line of its second
 * writing: `JSON.parse` keeps the last, silently, where the writer may have meant either.
 */
export function jsonRepeatedKey(text: string): { path: JsonPath; line: number } | undefined {
  let found: { path: JsonPath; line: number } | undefined;
  walkJson(text, undefined, (path, offset) => {
    found ??= { path: [...path], line: lineAndColumn(text, offset).line };
  });
  return found;
}

/**
 * Walks JSON `text`, calling `visit` with the path and offset of every value where it starts, and
 * `repeated` with those of every key its object already holds; returns the offset where the text stops
 * being JSON, `text.length` when it ends too early, -1 when it is JSON. Iterative, so deep nesting cannot
 * overflow the stack.
 */
function walkJson(text: string, visit?: (path: JsonPath, offset: number) => void, repeated?: (path: JsonPath, offset: number) => void): number {
  const n = text.length;
  const open: string[] = [];
  // The key or index of the value being read in each open container, and each open object's keys so far.
  const path: (string | number)[] = [];
  const keys: Set<string>[] = [];
  let expect: 'value' | 'key' | 'after' = 'value';
  let i = 0;
  const skipSpace = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  /** Moves `i` past the string starting at `i`; false (with `i` on the fault) if it is malformed. */
  const string = (): boolean => {
    for (i++; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c !== 0x5c) continue;
      i++;
      if (text[i] === 'u') {
        HEX4.lastIndex = i + 1;
        if (!HEX4.test(text)) return false;
        i += 4;
      } else if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) return false;
    }
    return false;
  };
  for (;;) {
    skipSpace();
    if (i >= n) return expect === 'after' && open.length === 0 ? -1 : n;
    const c = text[i]!;
    if (expect === 'value') {
      visit?.(path, i);
      if (c === '{' || c === '[') {
        open.push(c);
        path.push(0);
        keys.push(new Set());
        i++;
        skipSpace();
        if (text[i] === (c === '{' ? '}' : ']')) {
          open.pop();
          path.pop();
          keys.pop();
          i++;
          expect = 'after';
        } else expect = c === '{' ? 'key' : 'value';
      } else if (c === '"') {
        if (!string()) return i;
        expect = 'after';
      } else {
        SCALAR.lastIndex = i;
        if (!SCALAR.test(text)) return i;
        i = SCALAR.lastIndex;
        expect = 'after';
      }
    } else if (expect === 'key') {
      const start = i;
      if (c !== '"' || !string()) return i;
      if (visit || repeated) {
        const key = JSON.parse(text.slice(start, i)) as string;
        path[path.length - 1] = key;
        const seen = keys.at(-1)!;
        if (seen.has(key)) repeated?.(path, start);
        seen.add(key);
      }
      skipSpace();
      if (text[i] !== ':') return i;
      i++;
      expect = 'value';
    } else {
      const top = open.at(-1);
      if (top === undefined) return i;
      if (c === ',') {
        i++;
        if (top === '[') path[path.length - 1] = (path.at(-1) as number) + 1;
        expect = top === '{' ? 'key' : 'value';
      } else if (c === (top === '{' ? '}' : ']')) {
        open.pop();
        path.pop();
        keys.pop();
        i++;
      } else return i;
    }
  }
}
