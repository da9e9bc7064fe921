/** Where a command writes. Tests pass buffers; the binary passes process streams. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether stderr is a terminal (progress lines then redraw in place). */
  isTTY?: boolean;
}

export const processIO: CliIO = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  isTTY: process.stderr.isTTY === true,
};

/**
 * Human-facing messages on stderr, results on stdout. `info` never carries identifiers (terms,
 * names, spans): those go to `debug`, shown only with --verbose.
 */
export class Reporter {
  private lastProgress = 0;
  private readonly warned = new Set<string>();
  constructor(
    private readonly io: CliIO,
    private readonly level: { quiet: boolean; verbose: boolean },
  ) {}

  /** Results: always printed, to stdout. */
  result(text: string): void {
    this.io.stdout(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** A value as the JSON every --json prints: indented, one document on stdout. */
  json(value: unknown): void {
    this.result(JSON.stringify(value, null, 2));
  }

  /**
   * A command's result: `value` as JSON with --json, else the human-readable `text` of it. Commands build
   * one summary object and hand both forms here, so the two never report different things.
   */
  summary<T>(json: boolean | undefined, value: T, text: (value: T) => string): void {
    if (json) this.json(value);
    else this.result(text(value));
  }

  info(text: string): void {
    if (!this.level.quiet) this.io.stderr(`${text}\n`);
  }

  warn(text: string): void {
    this.io.stderr(`warning: ${text}\n`);
  }

  /** The library's `onInfo` and `onWarn` callbacks, said through this reporter. */
  get messages(): { onInfo: (text: string) => void; onWarn: (text: string) => void } {
    return { onInfo: (text) => this.info(text), onWarn: (text) => this.warn(text) };
  }

  /** A warning said once a run, where the same one comes again (from each model an audit reads). */
  warnOnce(text: string): void {
    if (this.warned.has(text)) return;
    this.warned.add(text);
    this.warn(text);
  }

  debug(text: string): void {
    if (this.level.verbose) this.io.stderr(`debug: ${text}\n`);
  }

  /** A progress line, at most ~2 per second unless `force`. */
  progress(text: string, force = false): void {
    if (this.level.quiet) return;
    const now = Date.now();
    if (!force && now - this.lastProgress < 500) return;
    this.lastProgress = now;
    this.io.stderr(this.io.isTTY ? `\r\x1b[2K${text}` : `${text}\n`);
  }

  /** Ends a run of redrawn progress lines. */
  progressDone(): void {
    if (this.io.isTTY && !this.level.quiet && this.lastProgress > 0) this.io.stderr('\n');
    this.lastProgress = 0;
  }
}
