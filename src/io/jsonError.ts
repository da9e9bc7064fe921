/**
 * What went wrong in a JSON.parse, as a position only: V8's own message quotes the input around the error
 * (`Unexpected token 'J', "John Smith..." is not valid JSON`), and inputs here are documents.
 *
 * @example
 * try { JSON.parse(line) } catch (err) { throw new FormatError(jsonSyntaxError(err), { file, line: n }) }
 * // "not valid JSON at character 12"
 */
export function jsonSyntaxError(err: unknown): string {
  const message = err instanceof Error ? err.message : '';
  const position = /at position (\d+)/.exec(message);
  if (position) return `not valid JSON at character ${Number(position[1]) + 1}`;
  if (/end of (JSON )?input/i.test(message)) return 'not valid JSON: it ends too early';
  return 'not valid JSON';
}
