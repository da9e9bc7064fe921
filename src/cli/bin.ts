import { runCli } from './main.js';
import { exitCleanlyOnSignals } from './signals.js';

exitCleanlyOnSignals();
process.exitCode = await runCli(process.argv.slice(2));
