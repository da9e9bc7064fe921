import { describe, expect, it } from 'vitest';
import { DelimitedSplitter, type DelimitedRecord } from '../../src/corpus/csvRecords.js';

const CSV = 'id,author,text\r\n1,홍길동,"세 줄, ""인용""\r\n둘째 줄\n셋째"\r\n2,b,plain 😀 text\r\n3,c,"a,""b"""\n4,d,last';

function split(bytes: Buffer, chunkSize: number, maxFieldChars = 1000): DelimitedRecord[] {
  const splitter = new DelimitedSplitter({ delimiter: ',', quoted: true, maxFieldChars });
  const out: DelimitedRecord[] = [];
  for (let at = 0; at < bytes.length; at += chunkSize) out.push(...splitter.push(bytes.subarray(at, at + chunkSize)));
  return [...out, ...splitter.end()];
}

describe('DelimitedSplitter', () => {
  it('gives the same records however the bytes are cut into chunks, even inside a UTF-8 character or a CRLF', () => {
    const bytes = Buffer.from(CSV);
    const whole = split(bytes, bytes.length);
    expect(whole).toEqual([
      { fields: ['id', 'author', 'text'], line: 1 },
      { fields: ['1', '홍길동', '세 줄, "인용"\r\n둘째 줄\n셋째'], line: 2 },
      { fields: ['2', 'b', 'plain 😀 text'], line: 5 },
      { fields: ['3', 'c', 'a,"b"'], line: 6 },
      { fields: ['4', 'd', 'last'], line: 7 },
    ]);
    for (const size of [1, 2, 3, 5, 7, 64]) expect(split(bytes, size)).toEqual(whole);
  });

  it('counts --max-doc-chars in characters, not UTF-8 bytes', () => {
    const korean = Buffer.from(`text\n"${'가'.repeat(10)}"\n"${'가'.repeat(11)}"\n${'a'.repeat(11)}\n`);
    const records = split(korean, 4, 10);
    expect(records.map((r) => r.problem === undefined)).toEqual([true, true, false, false]);
    expect(records[1]!.fields).toEqual(['가'.repeat(10)]);
    expect(records[2]!.problem).toMatch(/a field is longer than 10 characters/);
  });
});
