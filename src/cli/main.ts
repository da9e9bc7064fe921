import { Command, CommanderError, Option } from 'commander';
import { PpmlmError } from '../errors.js';
import { ExitCode } from './exitCodes.js';
import { BACKEND_REQUESTS, setNativeLogs, setWasmThreads, type BackendRequest } from '../engine/backend.js';
import { MAX_WASM_THREADS } from '../engine/wasmThreads.js';
import { parseIntFlag } from './parseFlags.js';
import { addCorpusOptions } from './corpusOptions.js';
import { addVocabularyOptions, ALLOW_VOCABULARY_HELP } from './vocabularyOptions.js';
import { Reporter, processIO, type CliIO } from './reporter.js';
import { PACKAGE_VERSION } from '../version.js';
import { ANALYZER_CHOICES, LANGUAGES } from '../text/index.js';
import { SPAN_FORMATS } from '../corpus/spans.js';
import { DEFAULT_SEQ_LEN } from '../mlm/settingRanges.js';
import { DEFAULT_SPLIT } from '../deid/split.js';

export interface GlobalOptions {
  backend: BackendRequest;
  threads?: string;
  quiet: boolean;
  verbose: boolean;
}

/** `--analyzer`: the Korean morpheme analyser, for every command that reads Korean text. */
const analyzerOption = (help = 'Korean analyser') => new Option('--analyzer <name>', help).choices(ANALYZER_CHOICES).default('auto');

/** `--lang`: the text's language, for every command that matches terms in text (ko: Korean morphology). */
const langOption = () => new Option('--lang <lang>', 'text language (ko enables Korean morphology)').choices(LANGUAGES).default('auto');
const PII_THRESHOLD_HELP = 'label a token PII when P(not O) reaches this probability, or "argmax" for its likeliest label (default: the threshold the model chose on its dev split)';
const REFERENCE_CORPUS_HELP = 'a public corpus (CSV, JSONL, Parquet or a folder; an author column when it has one) whose words, used by at least --reference-k of its individuals, identify no one; widens the bundled English word list';
const REFERENCE_K_HELP = 'individuals of --reference-corpus who must use a word for it to be public';
const STRIDE_HELP = 'tokens shared by consecutive windows; each token is labelled where it has most context (default: half a window, 0: disjoint windows)';

/**
 * The options every training command shares (AdamW with warmup and cosine decay, checkpoints in
 * <out>.checkpoint), named as Hugging Face's Trainer names them; only the learning rate's default differs,
 * by what the command usually starts from. Parsed by trainingFlags.ts.
 */
const trainingOptions = (cmd: Command, defaults: { lr: string }) =>
  cmd
    .option('--epochs <n>', 'epochs', '3')
    .option('--max-steps <n>', 'stop after n optimizer steps, mid-epoch if need be (replaces --epochs)')
    .option('--batch-size <n>', 'windows per forward pass', '16')
    .option('--grad-accum <n>', 'batches whose gradients make one optimizer step; under --privacy dp each batch is its own noisy release (its own sample and noise, each counted by the accountant), not one logical batch as in Opacus: for a larger DP batch raise --batch-size', '1')
    .option('--seq-len <n>', 'tokens per window, [CLS] and [SEP] included', String(DEFAULT_SEQ_LEN))
    .option('--lr <x>', 'peak learning rate (warmup, then cosine decay)', defaults.lr)
    .option('--warmup-ratio <x>', 'share of optimizer steps warming up linearly', '0.1')
    .option('--weight-decay <x>', 'AdamW decoupled weight decay (none on biases and LayerNorm)', '0.01')
    .option('--resume', 'continue from <out>.checkpoint, with the settings and data it was written with');

/** Declares the DP-SGD flags of a training command (parsed by dpFlags.ts; none has a default, so given means asked for). */
const dpOptions = (cmd: Command) =>
  cmd
    .option('--dp-unit <unit>', 'DP: who epsilon protects: author (an individual, all their windows; finetune\'s default) | document (deid train\'s default) | window (one window, for comparison only)')
    .option('--dp-clip <c>', 'DP: L2 bound on one unit\'s summed gradient (default 1.0)')
    .option('--dp-noise <s>', 'DP: noise multiplier')
    .option('--target-epsilon <e>', 'DP: solve the noise multiplier for this epsilon (per --dp-unit)')
    .option('--delta <d>', 'DP: delta (default min(1e-5, 1/(10 x units)))')
    .option('--dp-max-windows <n>', 'DP, unit author or document: at most n windows of a sampled unit per release (random subset; default 4)')
    .option('--accountant <name>', 'DP: rdp (default) | prv (Gopi et al. 2021, tighter)')
    .option('--dp-insecure-seeded-noise', 'DP: draw sampling and noise from --seed (tests only: NO privacy; recorded and warned)')
    .option('--dp-release-stats', 'DP: also write the loss curve and target counts into the model folder (outside the guarantee)')
    .option('--dp-allow-private-preprocessing', 'DP: train although the blacklist or tokenizer was made from a corpus not declared public (recorded in the dp block; epsilon is then not a guarantee)');

/** commander's message for a bad command line as one line: "error: " off, its suggestion joined, the way to usage after. */
export function parserError(message: string): string {
  const lines = message.trim().replace(/^error: /, '').split('\n').map((l) => l.trim()).filter(Boolean);
  return `${lines.join(' ').replace(/\.$/, '')}; run with --help for usage`;
}

/** Builds the commander program; command modules are imported only when their command runs. */
export function buildProgram(io: CliIO): Command {
  const program = new Command('ppmlm')
    .description('Privacy-preserving masked-LM fine-tuning: blacklists from corpora, constrained masking, de-identification, risk audits')
    .version(PACKAGE_VERSION, '-V, --version')
    .addOption(new Option('--backend <name>', 'tfjs backend').choices(BACKEND_REQUESTS).default('auto'))
    .option('--threads <n>', `wasm backend threads (default: the number of cores, at most ${MAX_WASM_THREADS})`)
    .option('-q, --quiet', 'no progress or info messages on stderr', false)
    .option('-v, --verbose', 'debug messages, which may include identifiers', false)
    .exitOverride()
    // A parsing error is one line like every other: commander's own is two (the message, then its hint).
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: (message, write) => write(`ppmlm: ${parserError(message)}\n`) })
    // Global settings apply before any command runs, whatever the command.
    .hook('preAction', (_program, cmd) => {
      const { threads, verbose } = cmd.optsWithGlobals() as GlobalOptions;
      setNativeLogs(verbose);
      if (threads !== undefined) setWasmThreads(parseIntFlag(threads, '--threads', { min: 1, max: MAX_WASM_THREADS }));
    });

  /**
   * A commander action that imports its command module only when the command runs, and calls it with the
   * command's options (positional arguments under the given names), the global --backend, and a reporter.
   */
  const lazyAction =
    <O>(load: () => Promise<(options: O, out: Reporter) => Promise<void>>, positional: readonly string[] = []) =>
    async (...args: unknown[]): Promise<void> => {
      const cmd = args.at(-1) as Command;
      const globals = cmd.optsWithGlobals() as GlobalOptions;
      const named = Object.fromEntries(positional.map((name, i) => [name, args[i]]));
      const run = await load();
      await run({ ...(args.at(-2) as object), ...named, backend: globals.backend } as O, new Reporter(io, { quiet: globals.quiet, verbose: globals.verbose }));
    };

  program
    .command('info')
    .description('versions, the backend --backend picks on this machine, and why each backend is (not) usable')
    .option('--json', 'machine-readable output')
    .action(lazyAction(async () => (await import('./commands/info.js')).info));

  const corpus = program.command('corpus').description('inspect corpora');
  addCorpusOptions(corpus.command('stats').description('documents, authors, characters, documents per author'))
    .option('--json', 'machine-readable output')
    .action(lazyAction(async () => (await import('./commands/corpusStats.js')).corpusStatsCommand));

  const collect = (value: string, previous: string[] = []) => [...previous, value];
  const blacklist = program.command('blacklist').description('build and inspect blacklists of identifiers');
  /** What decides a blacklist's terms: shared by `build` and by `eval` when it builds one itself. */
  const buildRules = (cmd: Command) =>
    cmd
      .option('--k <n>', 'a term used by fewer than k individuals is an indirect identifier', '2')
      .option('--ngrams <range>', 'n-gram range in words; n-grams above 1 only where they hold a listed name (see --all-ngrams)', '1-3')
      .option('--all-ngrams', 'every rare n-gram, not only those holding a listed name (protects far more text)')
      .addOption(new Option('--common-words <rule>', 'which English words used by fewer than k individuals are indirect identifiers: named (those someone wrote as a name, a capital inside a sentence or text where case means nothing, and no one in lower case), all (the paper\'s rule), none').choices(['named', 'all', 'none']).default('named'))
      .option('--min-occurrences <n>', 'indirect terms must occur at least this often', '1')
      .addOption(langOption())
      .addOption(analyzerOption())
      .option('--recognizers <list>', 'recognisers of direct identifiers, a comma list read left to right: all (patterns, bundled names and places, context rules), none (clears), names, kinds in capitals (DATE: every date rule); -NAME or -KIND leaves one out, and a list that starts with one starts from all (-DATE,-korean-places)', 'all')
      .option('--gazetteer <file>', 'a list of names/places/companies (one per line); repeatable', collect)
      .option('--deid-model <dir>', 'a model from "ppmlm deid train" as a recogniser (source model:<dir>), or public-ner-en: the bundled model of English persons and places from public NER (opt-in; see models/public-ner-en); repeated, an ensemble that averages the models\' label probabilities', collect)
      .option('--deid-threshold <p>', "with --deid-model: a token is an identifier when the model gives it at least this probability (default: the threshold its training chose on its dev split; for an ensemble, the mean of its models')")
      .option('--model-agreement <share>', 'with --deid-model: a term only the model found enters when the model marked at least this share of the places it would be protected in the corpus and, with mecab, when it is no common noun (0 keeps every one): one false alarm would protect a common word everywhere', '0.2')
      .option('--stop-list <file>', 'terms never blacklisted (one per line)')
      .option('--keep-numbers', 'also consider n-grams made only of numbers');
  buildRules(addCorpusOptions(blacklist.command('build').description('direct (recognisers) + indirect (author-word graph) identifiers of a corpus → blacklist TSV (mode 0600)')))
    .requiredOption('--out <file>', 'blacklist to write, e.g. blacklists/notes.tsv')
    .option('--public-corpus', 'declare the corpus public (recorded in the header): a DP run may then use the blacklist, which depends on no private individual')
    .addOption(new Option('--engine <name>', 'author-term engine').choices(['auto', 'counting', 'graph', 'duckdb']).default('auto'))
    .option('--graph-out <file>', 'also write the author-term graph (.gexf or .json, mode 0600)')
    .option('--export-pairs <file>', 'also write the (author, term, n) table as Parquet (mode 0600), for the same SQL elsewhere')
    .option('--silver-out <file>', "also write, the corpus read again, each document's detections whose term the blacklist kept, as span JSONL (mode 0600): silver labels for deid train --spans")
    .option('--force', 'overwrite existing outputs')
    .option('--json', 'machine-readable summary')
    .action(lazyAction(async () => (await import('./commands/blacklist.js')).blacklistBuild));
  buildRules(blacklist.command('eval').description('a blacklist (or one built from the gold corpus) against gold identifier spans: recall, precision, other text protected, with 95% intervals over individuals'))
    .requiredOption('--gold <path>', 'gold spans: ppmlm JSONL, a PhysioNet deid folder (id.text + id-phi.phrase), Presidio JSON or CoNLL columns')
    .addOption(new Option('--gold-format <format>', 'format of --gold (default: a folder is physionet, .json presidio, .jsonl jsonl, else conll)').choices(SPAN_FORMATS))
    .option('--blacklist <file>', 'the blacklist to measure (default: build one from the gold corpus with the rules below)')
    .addOption(new Option('--only <kind>', 'measure one kind of entry: direct (the recognisers alone) or indirect').choices(['direct', 'indirect']))
    .addOption(new Option('--protection <level>', "terms: every found term everywhere, as fine-tuning masks; occurrences: direct identifiers only where a recogniser fired; own-text: each individual's own detections and unknown words, in their documents only (finetune --protect-own-text)").choices(['terms', 'occurrences', 'own-text']).default('terms'))
    .option('--reference-corpus <path>', REFERENCE_CORPUS_HELP)
    .option('--reference-k <n>', REFERENCE_K_HELP, '2')
    .option('--reference-text-col <name>', 'text column of --reference-corpus', 'text')
    .addOption(new Option('--by <what>', 'rows by reporting type (PERSON, LOCATION, DATE, ...) or by the gold label as written').choices(['type', 'label']).default('type'))
    .option('--seed <n>', 'bootstrap seed', '1')
    .option('--misses <file>', 'also write the gold spans not fully protected as span JSONL (mode 0600), each document with those spans only: what to read for errors (--gold reads it)')
    .option('--force', 'overwrite an existing --misses file')
    .option('--json', 'the figures as JSON')
    .action(lazyAction(async () => (await import('./commands/blacklistEval.js')).blacklistEval));
  addCorpusOptions(blacklist.command('review').description('draw a review page of the corpus (--sample N --out page.html), or estimate from its marks (--import marks.json) what the blacklist misses, with intervals'))
    .requiredOption('--blacklist <file>', 'the blacklist under review (never rewritten)')
    .option('--sample <n>', 'passages to draw for the page (200 are meant as an hour of review)')
    .option('--out <file>', 'the review page to write (self-contained HTML, mode 0600)')
    .option('--seed <n>', 'seed of the draw', '1')
    .option('--passage-words <n>', 'words per passage: whole sentences joined up to this many', '40')
    .option('--import <marks>', "the reviewer's marks exported from the page (made mode 0600): estimate and record beside the blacklist")
    .option('--to-gold <file>', 'with --import: the reviewed passages as gold span JSONL for blacklist eval (mode 0600)')
    .option('--apply <file>', "with --import: a new blacklist with the missed identifiers added (never the reviewed one's path)")
    .addOption(langOption())
    .addOption(analyzerOption())
    .option('--force', 'overwrite existing outputs')
    .option('--json', 'the figures as JSON')
    .action(lazyAction(async () => (await import('./commands/blacklistReview.js')).blacklistReview));
  blacklist
    .command('stats <file>')
    .description('counts by kind, category and source (prints no terms)')
    .option('--json', 'machine-readable output')
    .action(lazyAction(async () => (await import('./commands/blacklist.js')).blacklistStats, ['file']));
  blacklist
    .command('show')
    .description('print a text with its protected (blacklisted) spans marked ⟦like this⟧')
    .requiredOption('--blacklist <file>', 'blacklist TSV or plain list')
    .requiredOption('--text <file>', 'a UTF-8 text file')
    .addOption(langOption())
    .addOption(analyzerOption())
    .option('--json', 'the protected spans (start, end, text) and the marked text as JSON')
    .action(lazyAction(async () => (await import('./commands/blacklist.js')).blacklistShow));

  const tokenizerCmd = program.command('tokenizer').description('subword tokenizers');
  addCorpusOptions(tokenizerCmd.command('train').description('train a WordPiece or byte-level BPE tokenizer on a corpus → tokenizer.json (+ vocab.txt)'))
    .requiredOption('--out <dir>', 'folder to write')
    .option('--type <type>', 'wordpiece | bpe', 'wordpiece')
    .option('--vocab-size <n>', 'vocabulary size', '8000')
    .option('--min-frequency <n>', 'pairs seen fewer times are not merged', '2')
    .option('--morphemes', 'pre-tokenize Korean into morphemes (mecab, or the rule analyser)')
    .option('--blacklist <file>', 'learn no token that spells a blacklisted word or number (the vocabulary ships with every model)')
    .option('--public-corpus', 'declare the corpus public (recorded in ppmlm.json): models may ship its vocabulary unchecked')
    .addOption(analyzerOption())
    .option('--force', 'replace an existing folder')
    .option('--json', 'machine-readable summary')
    .action(lazyAction(async () => (await import('./commands/tokenizerTrain.js')).tokenizerTrain));
  tokenizerCmd
    .command('encode')
    .description('the tokens of a text with ids and offsets in code points (Hugging Face return_offsets_mapping)')
    .requiredOption('--model <dir>', 'folder with tokenizer.json or vocab.txt')
    .requiredOption('--text <text>', 'the text to tokenize')
    .option('--no-special-tokens', 'the text\'s tokens only, without the [CLS]/[SEP] (<s>/</s>) a model reads around them (Hugging Face add_special_tokens=False)')
    .option('--json', '{input_ids, tokens, offset_mapping, special_tokens_mask}')
    .action(lazyAction(async () => (await import('./commands/tokenizerEncode.js')).tokenizerEncode));

  const modelCmd = program.command('model').description('encoder models (Hugging Face folders)');
  addVocabularyOptions(modelCmd.command('init'), 'check the tokenizer\'s vocabulary against this blacklist before writing (refused when a token is a term)')
    .description('a randomly initialised BERT masked LM (std 0.02) for a tokenizer')
    .requiredOption('--vocab <dir>', 'folder with tokenizer.json or vocab.txt')
    .requiredOption('--out <dir>', 'model folder to write')
    .option('--hidden <n>', 'hidden size', '128')
    .option('--layers <n>', 'encoder layers', '2')
    .option('--heads <n>', 'attention heads', '2')
    .option('--intermediate <n>', 'feed-forward size', '512')
    .option('--max-positions <n>', 'longest sequence', '512')
    .option('--seed <n>', 'initialisation seed', '42')
    .option('--force', 'replace an existing folder')
    .option('--json', 'machine-readable summary')
    .action(lazyAction(async () => (await import('./commands/modelInit.js')).modelInit));

  program
    .command('fill-mask')
    .description('top-k predictions for each mask token, like the Hugging Face fill-mask pipeline')
    .requiredOption('--model <dir>', 'model folder')
    .requiredOption('--text <text>', 'text containing the mask token, e.g. "Seen by Dr. [MASK]."')
    .option('--top-k <n>', 'candidates per mask', '5')
    .option('--json', 'machine-readable output')
    .action(lazyAction(async () => (await import('./commands/fillMask.js')).fillMaskCommand));

  dpOptions(
    trainingOptions(addCorpusOptions(program.command('finetune').description('masked-LM fine-tuning on three axes: masking (standard | constrained, PPmlm), input (original | pseudonymized), privacy (none | dp, DP-SGD per individual)')), { lr: '5e-5' })
      .requiredOption('--model <dir>', 'model folder to start from')
      .requiredOption('--out <dir>', 'model folder to write')
      .option('--strategy <name>', 'preset of the three axes: standard | constrained | pseudonymized | dp (= standard masking + original input + dp)', 'constrained')
      .option('--masking <policy>', "standard | constrained (overrides the preset's masking)")
      .option('--input <rewrite>', "original | pseudonymized (overrides the preset's input)")
      .option('--privacy <mechanism>', "none | dp (overrides the preset's privacy; e.g. --strategy constrained --privacy dp)")
      .option('--blacklist <file>', 'blacklist TSV or plain list (constrained masking and pseudonymized input need it or --protect-own-text)')
      .option('--protect-own-text', "also protect, in each individual's documents, what the default recognisers find in their own text and their words a public reference does not know: computed from no one else's records, so DP's guarantee holds")
      .option('--reference-corpus <path>', REFERENCE_CORPUS_HELP)
      .option('--reference-k <n>', REFERENCE_K_HELP, '2')
      .option('--reference-text-col <name>', 'text column of --reference-corpus', 'text')
      .option('--mask-prob <p>', 'share of eligible tokens selected as targets', '0.15')
      .option('--dropout <p>', "hidden and attention dropout while training (default: the model config's, 0.1 for BERT and RoBERTa; 0 turns it off)")
      .option('--whole-word', 'select whole words, then all their subwords')
      .option('--freeze-protected-embeddings', 'constrained masking: no gradient into the input word embeddings at protected positions (they stay context)')
      .option('--hide-protected-context', 'constrained masking, an ablation: protected positions hidden as attention keys (no longer context; not PPmlm)')
      .option('--untie-decoder', 'give the MLM head a decoder of its own, starting as a copy of the word embeddings (tie_word_embeddings: false)')
      .option('--random-blacklisted', 'allow random replacements to draw blacklisted terms\' tokens (default: never)')
      .option('--allow-vocabulary-identifiers', ALLOW_VOCABULARY_HELP)
      .option('--seed <n>', 'seed for data order and masking (never DP sampling or noise, unless --dp-insecure-seeded-noise)', '42')
      .option('--save-steps <n>', 'also checkpoint every n optimizer steps')
      .addOption(new Option('--pseudo <style>', 'pseudonymized: [CATEGORY] placeholders or format-preserving surrogates').choices(['placeholder', 'surrogate']).default('placeholder')),
  )
    .option('--save-every-epoch', 'also write <out>.epoch-N after each epoch')
    .option('--save-total-limit <n>', 'with --save-every-epoch: keep only the n most recent <out>.epoch-N (and the best)')
    .option('--eval-corpus <path>', 'held-out corpus (read with the --corpus flags): masked-LM loss at every epoch end')
    .option('--eval-split <p>', 'or hold out this share of the individuals (--author-col) of --corpus, seeded by --seed')
    .option('--load-best-model-at-end', 'with evaluation: --out gets the epoch of the lowest evaluation loss')
    .addOption(langOption())
    .addOption(analyzerOption())
    .option('--force', "replace an existing output folder and, without --resume, an earlier run's <out>.checkpoint")
    .option('--json', 'machine-readable summary')
    .action(lazyAction(async () => (await import('./commands/finetune.js')).finetuneCommand));

  addCorpusOptions(program.command('export-dataset').description('tokenised windows as Parquet shards for Hugging Face Trainer: special_tokens_mask = special ∪ protected (mode 0600)'))
    .requiredOption('--model <dir>', 'model folder whose tokenizer cuts the windows')
    .requiredOption('--blacklist <file>', 'blacklist TSV or plain list: its occurrences are the protected positions')
    .requiredOption('--out <dir>', 'dataset folder to write (data/train-*.parquet, ppmlm_dataset.json)')
    .option('--seq-len <n>', 'tokens per window, [CLS] and [SEP] included; rows are padded to it', String(DEFAULT_SEQ_LEN))
    .option('--stride <n>', 'tokens shared by consecutive windows (default: a quarter window, as finetune)')
    .option('--premasked <epochs>', "also write splits epoch_1..epoch_E with ppmlm's own constrained masks (labels -100 elsewhere)")
    .option('--seed <n>', 'seed of the premasked masks, as finetune --seed', '42')
    .option('--mask-prob <p>', 'premasked: share of eligible tokens selected as targets', '0.15')
    .option('--whole-word', 'premasked: select whole words, then all their subwords')
    .option('--random-blacklisted', "premasked: allow random replacements to draw blacklisted terms' tokens (default: never)")
    .option('--allow-vocabulary-identifiers', ALLOW_VOCABULARY_HELP)
    .option('--shard-rows <n>', 'rows per Parquet shard', '10000')
    .addOption(langOption())
    .addOption(analyzerOption())
    .option('--force', 'replace an existing folder')
    .option('--json', 'machine-readable summary')
    .action(lazyAction(async () => (await import('./commands/exportDataset.js')).exportDatasetCommand));

  const exportCmd = program.command('export').description('models for other runtimes');
  exportCmd
    .command('onnx')
    .description('a model folder with its head (masked LM, token or sequence classification) → onnx/model.onnx + config and tokenizer, as transformers.js loads them')
    .requiredOption('--model <dir>', 'model folder (config.json, model.safetensors, tokenizer)')
    .requiredOption('--out <dir>', 'folder to write')
    .option('--force', 'replace an existing folder')
    .option('--json', 'machine-readable summary')
    .action(lazyAction(async () => (await import('./commands/exportOnnx.js')).exportOnnxCommand));

  const auditCmd = program
    .command('audit')
    .description('privacy score, regurgitation, membership inference, utility → report.json + report.html (mode 0600)')
    .requiredOption('--model <dir>', 'the fine-tuned model')
    .option('--reference <dir>', 'the model before fine-tuning (for the calibrated and PLL ratio attacks)')
    .option('--references <dirs...>', 'reference models for offline LiRA: fine-tuned like --model on data without the members (at least 2)')
    .option('--gold <file>', 'gold identifier spans of the members: span JSONL (as deid generate writes) or a PhysioNet folder / id-phi.phrase')
    .requiredOption('--members <path>', 'corpus the model was fine-tuned on')
    .requiredOption('--non-members <path>', 'held-out corpus of the same distribution')
    .requiredOption('--blacklist <file>', 'blacklist TSV or plain list')
    .requiredOption('--out <dir>', 'folder for report.json and report.html');
  for (const flag of ['--format <format>', '--text-col <name>', '--author-col <name>', '--id-col <name>', '--label-col <name>']) auditCmd.option(flag, 'as for --corpus');
  auditCmd
    .option('--skip-bad-rows', 'skip malformed rows')
    .option('--max-doc-chars <n>', 'longest document accepted', '10000000')
    .option('--seq-len <n>', 'tokens per window', String(DEFAULT_SEQ_LEN))
    .option('--max-occurrences <n>', 'identifier occurrences evaluated (seeded sample)', '2000')
    .option('--mask-prob <p>', 'share of tokens masked for membership inference and utility', '0.15')
    .option('--seed <n>', 'seed of the fixed masks', '7')
    .option('--pll-samples <n>', 'positions and occurrences per document scored one at a time for the PLL ratio attack (with --reference)', '1')
    .option('--show-identifiers', 'show terms in clear in the report (default: salted hashes)')
    .option('--task <path>', 'labelled corpus: fine-tune a classification head and report macro/micro F1')
    .option('--task-label-col <name>', 'label column/key of --task', 'label')
    .option('--task-epochs <n>', 'epochs of the classification fine-tuning', '3')
    .addOption(langOption())
    .addOption(analyzerOption())
    .option('--update-card', "also write the headline figures (member statistics) into the audited model's README.md model card; refused for a DP model (default: the report only)")
    .option('--force', 'replace existing reports')
    .option('--json', 'print the whole report as JSON')
    .action(lazyAction(async () => (await import('./commands/audit.js')).auditCommand));

  const deid = program.command('deid').description('de-identification (Thunder-DeID): training data from annotated judgments');
  deid
    .command('generate')
    .description('annotated judgments + replacement lists → surrogate-filled documents with labelled spans (JSONL)')
    .requiredOption('--judgments <dir>', 'folder of judgments with <<<LABEL>>>X<<</LABEL>>> tags (.md or .txt)')
    .requiredOption('--replacements <dir>', 'folder of {label: [values]} JSON lists (and subset/all_categories.json)')
    .option('--replace-map <file>', 'label synonyms (default: replace_map.json beside the judgments folder)')
    .option('--replicas <n>', 'filled copies of every judgment', '1')
    .addOption(new Option('--replacement <mode>', 'new surrogates for every replica, or the same ones').choices(['per-epoch', 'single']).default('per-epoch'))
    .addOption(new Option('--unknown-label <policy>', 'a label outside the taxonomy is an error, or OTHER').choices(['error', 'other']).default('error'))
    .option('--seed <n>', 'seed of the surrogates', '42')
    .option('--skip-bad-docs', 'skip malformed judgments instead of stopping')
    .requiredOption('--out <file>', 'JSONL to write (mode 0600)')
    .option('--force', 'replace an existing file')
    .option('--json', 'machine-readable summary')
    .action(lazyAction(async () => (await import('./commands/deidGenerate.js')).deidGenerate));

  const deidInputs = (cmd: Command) =>
    cmd
      .option('--judgments <dir>', 'folder of judgments with <<<LABEL>>>X<<</LABEL>>> tags')
      .option('--replacements <dir>', 'folder of {label: [values]} replacement lists (with --judgments)')
      .option('--spans <path>', 'span-annotated documents instead of judgments')
      .addOption(new Option('--spans-format <format>', 'jsonl {id,text,spans:[{start,end,label}]} | presidio JSON | physionet folder | conll columns').choices(SPAN_FORMATS).default('jsonl'))
      .option('--replace-map <file>', 'label synonyms (default: replace_map.json beside the judgments folder)')
      .addOption(new Option('--unknown-label <policy>', 'unknown labels: error, or OTHER').choices(['error', 'other']).default('error'))
      .option('--skip-bad-docs', 'skip malformed judgments')
      .addOption(analyzerOption('Korean analyser for morpheme pre-tokenisation (used where the model was trained with it; deid train cuts --spans data only where mecab or rule is named or the --model vocabulary was learnt on Korean morphemes)'));
  const deidTrainCmd = deid.command('train').description('train a token classifier on surrogate-filled annotated judgments or span-annotated documents (--spans)');
  addVocabularyOptions(dpOptions(trainingOptions(deidInputs(deidTrainCmd), { lr: '5e-4' })), 'keep these terms out of a fresh tokenizer, and refuse a --model whose vocabulary holds them')
    .option('--privacy <mechanism>', 'none | dp (DP-SGD per document by default; the --dp-* flags)')
    .option('--public-corpus', 'declare the training documents public (recorded in ppmlm.json): a blacklist built with this model may be declared public, and under DP its fresh tokenizer is no private input')
    .option('--no-morphemes', 'tokenise without morpheme pre-tokenisation (recorded in the model; eval and apply follow it)')
    .option('--split <shares>', 'train/dev/test shares of the documents', DEFAULT_SPLIT)
    .option('--seed <n>', 'seed of split, surrogates, order', '42')
    .addOption(new Option('--replacement <mode>', 'new surrogates every epoch, or the same').choices(['per-epoch', 'single']).default('per-epoch'))
    .option('--label-level <n>', '1 direct/quasi, 2 categories, 3 fine labels', '3')
    .option('--model <dir>', 'a pretrained encoder folder (default: a tokenizer trained on the training documents and a fresh encoder)')
    .option('--hidden <n>', 'hidden size of a fresh encoder', '128')
    .option('--layers <n>', 'layers of a fresh encoder', '2')
    .option('--heads <n>', 'attention heads of a fresh encoder', '2')
    .option('--intermediate <n>', 'feed-forward size of a fresh encoder', '512')
    .option('--vocab-size <n>', 'vocabulary of a fresh tokenizer', '8000')
    .option('--dropout <p>', "hidden and attention dropout while training (default: the config's, 0.1 for a fresh encoder)")
    .option('--outside-noise <p>', 'share of "O" tokens replaced by random tokens in each training batch, label kept', '0')
    .option('--surrogate-mentions <n>', 'with --spans: each epoch, n copies of every training document that names a person or place, with names and places of the bundled lists in their place (mention replacement; not under --privacy dp)', '0')
    .requiredOption('--out <dir>', 'model folder to write')
    .option('--force', "replace an existing folder and, without --resume, an earlier run's <out>.checkpoint")
    .option('--json', 'machine-readable summary')
    .action(lazyAction(async () => (await import('./commands/deidTrain.js')).deidTrain));
  deidInputs(deid.command('eval').description('token-level binary P/R/F1 and micro F1 over labels on annotated judgments or span-annotated documents'))
    .requiredOption('--model <dir>', 'a model from "ppmlm deid train"')
    .addOption(new Option('--split <name>', "which of the model's splits to evaluate").choices(['test', 'dev', 'all']).default('test'))
    .option('--seq-len <n>', 'tokens per window (default: the windows the model was trained on, at most 128)')
    .option('--stride <n>', STRIDE_HELP)
    .option('--pii-threshold <p>', PII_THRESHOLD_HELP)
    .option('--seed <n>', 'seed of the evaluation surrogates', '7')
    .option('--json', 'machine-readable output')
    .action(lazyAction(async () => (await import('./commands/deidEval.js')).deidEval));
  deid
    .command('apply')
    .description('rewrite texts with every detected entity a consistent letter (A, B, ...) or tag')
    .requiredOption('--model <dir>', 'a model from "ppmlm deid train"')
    .requiredOption('--in <file>', 'a UTF-8 text, or JSONL with a "text" key')
    .requiredOption('--out <file>', 'where the rewritten text goes (mode 0600)')
    .addOption(new Option('--format <format>', 'input format (default: jsonl for a .jsonl or .ndjson file, else text)').choices(['text', 'jsonl']))
    .addOption(new Option('--style <style>', 'replace by letters or by category tags').choices(['letter', 'tag']).default('letter'))
    .option('--spans-out <file>', 'also write the original spans (mode 0600), for audit')
    .option('--seq-len <n>', 'tokens per window (default: the windows the model was trained on, at most 128)')
    .option('--stride <n>', STRIDE_HELP)
    .option('--pii-threshold <p>', PII_THRESHOLD_HELP)
    .addOption(analyzerOption('Korean analyser, where the model was trained on morphemes'))
    .option('--force', 'replace existing outputs')
    .option('--json', 'machine-readable summary (counts only; spans go to --spans-out)')
    .action(lazyAction(async () => (await import('./commands/deidApply.js')).deidApply));

  program
    .command('experiment')
    .description('the paper\'s comparison: strategies x epochs x seeds, fine-tuned and audited → results.csv/.md + plots.html')
    .requiredOption('--config <file>', 'experiment config (JSON; see docs/evidence.md)')
    .requiredOption('--out <dir>', 'folder for runs, cells, results (resumable: finished cells are kept)')
    .option('--json', 'the result rows as JSON')
    .action(lazyAction(async () => (await import('./commands/experiment.js')).experimentCommand));

  program
    .command('demo')
    .description('the whole pipeline on the bundled synthetic clinical corpus (what npm start runs)')
    .option('--out <dir>', 'where the blacklist, models and reports go', 'ppmlm-demo')
    .addOption(new Option('--budget <size>', 'compute budget').choices(['full', 'small']).default('full'))
    .option('--force', 'replace a previous run')
    .option('--json', 'machine-readable summary: headline figures and report paths')
    .action(lazyAction(async () => (await import('./commands/demo.js')).demoCommand));

  return program;
}

/**
 * Runs the CLI and returns the exit code; the only place that catches errors. Typed errors print
 * one line and map to their code; anything else is a bug and says so. An internal error's message and
 * stack may quote the documents being processed (a parser's snippet of a row, a value), so they are
 * printed only with --verbose, which already may show identifiers.
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
    if ((program.opts() as Partial<GlobalOptions>).verbose === true) {
      io.stderr(`ppmlm: internal error: ${(err as Error)?.stack ?? String(err)}\nThis is a bug; please report it with the command you ran.\n`);
    } else io.stderr('ppmlm: internal error, please report it with the command you ran; rerun with --verbose for details (they may quote your documents)\n');
    return ExitCode.internal;
  }
}
