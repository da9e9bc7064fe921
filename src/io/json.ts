/**
 * Where `JSON.parse` failed, as " at line L column C", " at position P" or " (it ends early)"; "" when V8
 * does not say. Errors quote this rather than V8's message, which quotes the text around the error:
 * corpora and annotations hold personal data, and a snippet may span lines of a one-line error.
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
