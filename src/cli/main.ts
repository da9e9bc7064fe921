import { Command, CommanderError, Option } from 'commander';
import { ExitCode, PpmlmError } from '../errors.js';
import { BACKEND_REQUESTS, type BackendRequest } from '../engine/backend.js';
import { addCorpusOptions } from './corpusOptions.js';
import { Reporter, processIO, type CliIO } from './reporter.js';
import { PACKAGE_VERSION } from './version.js';

export interface GlobalOptions {
  backend: BackendRequest;
  quiet: boolean;
  verbose: boolean;
}

/** Builds the commander program; command modules are imported only when their command runs. */
export function buildProgram(io: CliIO): Command {
  const program = new Command('ppmlm')
    .description('Privacy-preserving masked-LM fine-tuning: blacklists from corpora, constrained masking, de-identification, risk audits')
    .version(PACKAGE_VERSION, '-V, --version')
    .addOption(new Option('--backend <name>', 'tfjs backend').choices(BACKEND_REQUESTS).default('auto'))
    .option('-q, --quiet', 'no progress or info messages on stderr', false)
    .option('-v, --verbose', 'debug messages, which may include identifiers', false)
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError('(run with --help for usage)');

  const reporterFor = (cmd: Command): [GlobalOptions, Reporter] => {
    const globals = cmd.optsWithGlobals() as GlobalOptions;
    return [globals, new Reporter(io, { quiet: globals.quiet, verbose: globals.verbose })];
  };

  program
    .command('info')
    .description('versions, the backend --backend picks on this machine, and why each backend is (not) usable')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const [globals, out] = reporterFor(cmd);
      const { info } = await import('./commands/info.js');
      await info({ backend: globals.backend, json: opts.json === true }, out);
    });

  const corpus = program.command('corpus').description('inspect corpora');
  addCorpusOptions(corpus.command('stats').description('documents, authors, characters, documents per author'))
    .option('--json', 'machine-readable output')
    .action(async (opts, cmd: Command) => {
      const [, out] = reporterFor(cmd);
      const { corpusStatsCommand } = await import('./commands/corpusStats.js');
      await corpusStatsCommand(opts, out);
    });

  return program;
}

/**
 * Runs the CLI and returns the exit code; the only place that catches errors. Typed errors print
 * one line and map to their code; anything else is a bug and says so.
 */
export async function runCli(argv: readonly string[], io: CliIO = processIO): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv as string[], { from: 'user' });
    return ExitCode.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    if (err instanceof PpmlmError) {
      io.stderr(`ppmlm: ${err.located}\n`);
      return err.code;
    }
    const e = err as Error;
    io.stderr(`ppmlm: internal error: ${e?.stack ?? String(err)}\nThis is a bug; please report it with the command you ran.\n`);
    return ExitCode.internal;
  }
}
