import { FormatError } from '../errors.js';

/** An identifier mention of an annotated judgment: the court's placeholder wrapped in its label. */
export interface Mention {
  label: string;
  placeholder: string;
  /** 1-based line of the opening tag. */
  line: number;
}

/** An annotated document: plain text pieces and mentions, in order. */
export interface AnnotatedDocument {
  id: string;
  /** Where it was read from, for error messages. */
  file: string;
  segments: (string | Mention)[];
}

const OPEN = '<<<';
const CLOSE = '>>>';

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * Parses the Thunder-DeID annotation format `<<<LABEL>>>PLACEHOLDER<<</LABEL>>>`. Adjacent mentions are
 * fine; a nested tag, a closing tag without its opening one, a mismatched or missing closing tag, an
 * empty label or an empty placeholder is a FormatError at file:line.
 */
export function parseAnnotated(text: string, file: string, id = file): AnnotatedDocument {
  const segments: (string | Mention)[] = [];
  let at = 0;
  for (;;) {
    const open = text.indexOf(OPEN, at);
    if (open === -1) break;
    if (open > at) segments.push(text.slice(at, open));
    const line = lineAt(text, open);
    const labelEnd = text.indexOf(CLOSE, open + OPEN.length);
    if (labelEnd === -1) throw new FormatError(`the <<< at column ${open - text.lastIndexOf('\n', open - 1)} is never closed with ">>>"`, { file, line });
    const label = text.slice(open + OPEN.length, labelEnd);
    const column = open - text.lastIndexOf('\n', open - 1);
    if (label.startsWith('/')) throw new FormatError(`closing tag <<<${label}>>> without an opening <<<${label.slice(1)}>>>; add the opening tag before the placeholder or remove this one`, { file, line });
    if (label.trim() === '' || label.includes('\n')) throw new FormatError(`empty or multi-line label in the tag at column ${column}; a tag is <<<LABEL>>> on one line`, { file, line });
    // A bracket short (<<<이름>>A) makes the label run into the next tag: not a label, and not to be quoted.
    if (/[<>]/.test(label)) throw new FormatError(`the tag at column ${column} is malformed (a bracket missing?); a tag is <<<LABEL>>>PLACEHOLDER<<</LABEL>>>`, { file, line });
    const closing = `${OPEN}/${label}${CLOSE}`;
    const end = text.indexOf(closing, labelEnd + CLOSE.length);
    const nextOpen = text.indexOf(OPEN, labelEnd + CLOSE.length);
    if (end === -1) throw new FormatError(`<<<${label}>>> has no closing ${closing}; close it after the placeholder or remove the tag`, { file, line });
    if (nextOpen !== -1 && nextOpen < end) {
      const inner = text.slice(nextOpen + OPEN.length, text.indexOf(CLOSE, nextOpen));
      if (inner !== `/${label}`) {
        throw new FormatError(
          inner.startsWith('/') ? `<<<${label}>>> is closed by <<<${inner}>>>; the tags do not match` : `<<<${inner}>>> is nested inside <<<${label}>>>; nested tags are not supported: keep one of the two`,
          { file, line: lineAt(text, nextOpen) },
        );
      }
    }
    const placeholder = text.slice(labelEnd + CLOSE.length, end);
    // The court's placeholder is a letter or two: a closing tag lines later closes another mention, and
    // taking everything between as one placeholder would lose that text.
    if (placeholder.includes('\n')) throw new FormatError(`<<<${label}>>> is not closed on its line (the next ${closing} is on line ${lineAt(text, end)}); close it after the placeholder or remove the tag`, { file, line });
    // An empty mention has no characters to label, so it would train nothing and mislead the span offsets.
    if (placeholder.trim() === '') throw new FormatError(`<<<${label}>>><<</${label}>>> is empty; put the placeholder between the tags or remove them`, { file, line });
    segments.push({ label, placeholder, line });
    at = end + closing.length;
  }
  if (at < text.length) segments.push(text.slice(at));
  return { id, file, segments };
}
