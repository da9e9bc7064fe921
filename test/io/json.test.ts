import { describe, expect, it } from 'vitest';
import { jsonErrorOffset, jsonRepeatedKey, jsonValueLine, parseJson, readJsonFile } from '../../src/io/index.js';
import { FormatError, UsageError } from '../../src/errors.js';
import { tempFile } from '../helpers/tmp.js';

const VALID = ['{}', '[]', ' {"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"], "b": {"c": []}}\n', '"s"', '0', '[[[[]]]]'];

function errorOf(fn: () => unknown): FormatError {
  try {
    fn();
  } catch (err) {
    if (err instanceof FormatError) return err;
    throw err;
  }
  throw new Error('expected an error');
}

describe('jsonErrorOffset', () => {
  it('finds no error in JSON, and the first bad character otherwise', () => {
    for (const text of VALID) expect(jsonErrorOffset(text)).toBe(-1);
    expect(jsonErrorOffset('{"a": oops}')).toBe(6);
    expect(jsonErrorOffset('{"a": 1,}')).toBe(8);
    expect(jsonErrorOffset('[01]')).toBe(2);
    expect(jsonErrorOffset('{"a": "tab\there"}')).toBe(10);
    expect(jsonErrorOffset('{"a": 1} x')).toBe(9);
    expect(jsonErrorOffset('{"a": [1, 2')).toBe(11);
  });

  it('agrees with JSON.parse on whether a mutated text is JSON', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const alphabet = '{}[]",:.-+eE0123456789 \\untrfals\n\t';
    for (let k = 0; k < 3000; k++) {
      const chars = [...VALID[k % VALID.length]!];
      for (let m = 0; m < 1 + Math.floor(next() * 3); m++) {
        const at = Math.floor(next() * (chars.length + 1));
        const op = next();
        if (op < 0.4) chars.splice(at, 1);
        else if (op < 0.8) chars.splice(at, 0, alphabet[Math.floor(next() * alphabet.length)]!);
        else chars[at] = alphabet[Math.floor(next() * alphabet.length)]!;
      }
      const text = chars.join('');
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      expect(jsonErrorOffset(text) === -1, text).toBe(parses);
    }
  });

  it('survives nesting far deeper than the call stack', () => {
    expect(jsonErrorOffset('['.repeat(1_000_000))).toBe(1_000_000);
  });
});

describe('jsonValueLine', () => {
  const text = '{\n  "model": "m",\n  "finetune": {\n    "lr": -1,\n    "a\\"b": [\n      1,\n      {"lr": 2}\n    ]\n  },\n  "lr": 3\n}\n';

  it('finds the line of a value by its path of keys and indexes', () => {
    expect(jsonValueLine(text, [])).toBe(1);
    expect(jsonValueLine(text, ['model'])).toBe(2);
    expect(jsonValueLine(text, ['finetune'])).toBe(3);
    // The same key elsewhere is another path.
    expect(jsonValueLine(text, ['finetune', 'lr'])).toBe(4);
    expect(jsonValueLine(text, ['lr'])).toBe(10);
    // Keys are compared unescaped; array elements by index.
    expect(jsonValueLine(text, ['finetune', 'a"b'])).toBe(5);
    expect(jsonValueLine(text, ['finetune', 'a"b', 1, 'lr'])).toBe(7);
    expect(jsonValueLine(text, ['finetune', 'a"b', 0])).toBe(6);
  });

  it('gives none for a path the text does not hold, and the last of a repeated key, the one JSON.parse keeps', () => {
    expect(jsonValueLine(text, ['finetune', 'dropout'])).toBeUndefined();
    expect(jsonValueLine(text, ['finetune', 'a"b', 2])).toBeUndefined();
    expect(jsonValueLine(text, ['model', 'x'])).toBeUndefined();
    expect(jsonValueLine('{"k": 1,\n"k": 2}', ['k'])).toBe(2);
    // Lines end at \r\n and at a lone \r too.
    expect(jsonValueLine('{\r\n"a": 1,\r\n"b": 2}', ['b'])).toBe(3);
    expect(jsonValueLine('{\r"a": 1,\r"b": 2}', ['b'])).toBe(3);
  });

  it('agrees with JSON.stringify on where each key of a pretty-printed document stands', () => {
    const doc = { a: { b: [1, { c: null, d: [[], {}] }], e: 'x\ny' }, f: [true, false], g: {} };
    const lines = JSON.stringify(doc, null, 2).split('\n');
    const pretty = lines.join('\n');
    // Each key of this document is its own letter, written once: its line is where `"key":` stands.
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) {
      const path = key === 'a' || key === 'f' || key === 'g' ? [key] : key === 'b' || key === 'e' ? ['a', key] : ['a', 'b', 1, key];
      expect(jsonValueLine(pretty, path), key).toBe(lines.findIndex((l) => l.trimStart().startsWith(`"${key}":`)) + 1);
    }
  });
});

describe('jsonRepeatedKey', () => {
  it('finds the first key an object holds twice, with the line of its second writing', () => {
    expect(jsonRepeatedKey('{"a": 1,\n "b": {"c": 2,\n "c": 3}, "a": 4}')).toEqual({ path: ['b', 'c'], line: 3 });
    expect(jsonRepeatedKey('[{"k": 1},\n {"k": 2}]')).toBeUndefined();
    // An empty container closes as any other: its keys are not the next object's.
    expect(jsonRepeatedKey('{"a": {}, "b": [], "a": 1}')).toEqual({ path: ['a'], line: 1 });
    expect(jsonRepeatedKey('[{}, {"a": 1}, {"a": 2}]')).toBeUndefined();
    expect(jsonRepeatedKey('{"k": {"k": 1}, "j": [{"k": 2, "x": {"k": 3}}]}')).toBeUndefined();
    // Keys are compared as JSON.parse reads them.
    expect(jsonRepeatedKey('{"m": 1, "\\u006d": 2}')).toEqual({ path: ['m'], line: 1 });
  });
});

describe('parseJson', () => {
  it('names the line and column and the fix, never the text', () => {
    const err = errorOf(() => parseJson('{\n  "name": "Okonkwo Adaeze",\n  "mrn": 48213377x\n}', 'run.json', 'a config is one JSON object', 1));
    expect(err.located).toBe('run.json:3: not valid JSON at column 18; a config is one JSON object');
    expect(errorOf(() => parseJson('{"a": [1,', 'c.jsonl', 'fix it', 12)).located).toBe('c.jsonl:12: not valid JSON: it ends at column 10 before the value is complete; fix it');
  });
});

describe('readJsonFile', () => {
  it('reads UTF-8 with a BOM, and names a missing file, bad UTF-8 and bad syntax by file:line', async () => {
    const ok = await tempFile('ok.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"이름": 1}')]));
    expect(await readJsonFile(ok, { fix: 'x' })).toEqual({ 이름: 1 });
    await expect(readJsonFile('/nonexistent/c.json', { fix: 'x', hint: 'check --config' })).rejects.toThrow(new UsageError('/nonexistent/c.json: no such file or folder; check --config'));
    const latin1 = await tempFile('l.json', Buffer.from([0x7b, 0x0a, 0xe9, 0x7d]));
    await expect(readJsonFile(latin1, { fix: 'x' })).rejects.toThrow(/invalid UTF-8/);
    const bad = await tempFile('b.json', '{\n"a": }');
    await expect(readJsonFile(bad, { fix: 'x' })).rejects.toMatchObject({ located: `${bad}:2: not valid JSON at column 6; x` });
  });
});
