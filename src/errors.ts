/**
 * Typed errors. Callers branch on the class or `code`, never on message text.
 * Every message is one line that says what is wrong, where (file:line when known), and how to fix it.
 */

/** Exit codes of the CLI; the library only attaches them to errors. */
export const ExitCode = {
  ok: 0,
  internal: 1,
  /** The user must fix something they passed: a flag, a path, or the content of an input file. */
  usage: 2,
  /** A privacy budget (DP epsilon) or resource limit would be exceeded. */
  budget: 4,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export interface PpmlmErrorOptions {
  file?: string;
  line?: number;
  cause?: unknown;
}

export class PpmlmError extends Error {
  readonly code: ExitCodeValue;
  readonly file: string | undefined;
  readonly line: number | undefined;

  constructor(message: string, code: ExitCodeValue, options: PpmlmErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.file = options.file;
    this.line = options.line;
  }

  /** `file:line: message`, the form editors and terminals make clickable. */
  get located(): string {
    if (this.file === undefined) return this.message;
    return this.line === undefined ? `${this.file}: ${this.message}` : `${this.file}:${this.line}: ${this.message}`;
  }
}

/** A flag or argument is wrong or missing. */
export class UsageError extends PpmlmError {
  constructor(message: string, options: PpmlmErrorOptions = {}) {
    super(message, ExitCode.usage, options);
  }
}

/** An input file exists but its content is malformed. */
export class FormatError extends PpmlmError {
  constructor(message: string, options: PpmlmErrorOptions = {}) {
    super(message, ExitCode.usage, options);
  }
}

/** A configuration (model config, experiment config) is inconsistent. */
export class ConfigError extends PpmlmError {
  constructor(message: string, options: PpmlmErrorOptions = {}) {
    super(message, ExitCode.usage, options);
  }
}

/**
 * Training produced a non-finite loss or gradient: the step is not applied, and the checkpoint of the last
 * good step stays as it was. Resuming repeats the same draws, so the fix is other settings (a lower --lr).
 */
export class TrainingDivergedError extends PpmlmError {
  constructor(message: string, options: PpmlmErrorOptions = {}) {
    super(message, ExitCode.usage, options);
  }
}

/** A requested privacy budget cannot be met. */
export class BudgetError extends PpmlmError {
  constructor(message: string, options: PpmlmErrorOptions = {}) {
    super(message, ExitCode.budget, options);
  }
}

/**
 * A model export would ship vocabulary tokens that are blacklisted terms. Carries only their number:
 * the tokens are identifiers and never go into a message.
 */
export class VocabularyIdentifiersError extends UsageError {
  /** `override`: how the caller lets such a vocabulary through (a CLI flag by default, a config key in experiments). */
  constructor(readonly count: number, override = 'pass --allow-vocabulary-identifiers') {
    super(
      `the tokenizer's vocabulary has ${count} token${count === 1 ? '' : 's'} that ${count === 1 ? 'is a blacklisted term' : 'are blacklisted terms'} and would ship with the model; retrain the tokenizer with "ppmlm tokenizer train --blacklist FILE", or ${override} to export anyway (recorded in ppmlm.json)`,
    );
  }
}

/**
 * A model export would ship a vocabulary that ppmlm trained on a corpus not declared public, without a
 * blacklist to check it against: its tokens may spell the corpus's names and numbers.
 */
export class PrivateVocabularyError extends UsageError {
  constructor(override = 'pass --allow-vocabulary-identifiers') {
    super(
      `the tokenizer was trained by ppmlm on a corpus not declared public and without --blacklist, so its vocabulary may spell identifiers and would ship with the model; retrain it with "ppmlm tokenizer train --blacklist FILE" (or "--public-corpus" when the corpus is public), give this run --blacklist FILE to check it, or ${override} to export anyway (recorded in ppmlm.json)`,
    );
  }
}
