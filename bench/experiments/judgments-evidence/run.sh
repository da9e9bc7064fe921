#!/usr/bin/env bash
# The Korean judgments evidence run (docs/evidence.md), end to end:
#   bash bench/experiments/judgments-evidence/run.sh ../shared/data/thunder-deid OUT_DIR DEID_MODEL [CONFIG...]
# DEID_MODEL is a model from `ppmlm deid train` (bench/experiments/deid-results.sh makes one), used as the
# recogniser of direct identifiers, or `none` (patterns only: the evidence table, the canary-leak ablations
# of ./ablation.sh and the membership runs of ./membership.sh all use none, so that they share one blacklist;
# the canaries are blacklisted whatever the recognisers find). Each CONFIG (default config.json, beside this
# script) runs into OUT_DIR/experiment-<its name> (config.json into OUT_DIR/experiment).
# 1. the judgments filled with surrogates (`deid generate`, seed 3), split by judgment (author = the
#    judgment's defendant): 30 members, 450 non-members (>= 400 for TPR at 1% FPR), 2,514 public;
# 2. a WordPiece tokenizer (on whole words: the masked LM reads raw text, and a vocabulary of morphemes
#    would turn inflected words into [UNK]) and a BERT (hidden 128, 2 layers, 64 positions) pretrained on
#    the public judgments only, first on 32-token windows, then on 64 (see ../physionet-evidence/run.sh);
# 3. blacklist: direct identifiers (patterns and the de-identification model) + content morphemes used
#    in fewer than 2 of all judgments;
# 4. `ppmlm experiment` with config.json (lang ko: blacklist terms are matched on content morphemes;
#    Korean canaries as the positive control; the base model audited as row "base").
# Every step is resumable: finished outputs are kept (delete OUT_DIR/<step> to redo one).
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/../common.sh"
experiment_setup "${1:-}" "${2:-}"
DEID=(--deid-model "$(realpath -m "${3:?a de-identification model folder, or none}")")
[ "$3" = none ] && DEID=()
shift 3
CONFIGS=("${@:-config.json}")
cd "$OUT"
[ -f generated.jsonl ] || $PPMLM deid generate --judgments "$DATA/judgments" --replacements "$DATA/replacement" --skip-bad-docs --seed 3 --out generated.jsonl
[ -f members.jsonl ] || npx --prefix "$ROOT" tsx "$ROOT/bench/experiments/judgments-corpus.ts" generated.jsonl . 30 450
[ -d tokenizer ] || $PPMLM tokenizer train --corpus public.jsonl --public-corpus --type wordpiece --vocab-size 8000 --out tokenizer
[ -d init ] || $PPMLM model init --vocab tokenizer --hidden 128 --layers 2 --heads 2 --intermediate 512 --max-positions 64 --out init
pretrain init pretrained-32 4 2e-3 32 64
pretrain pretrained-32 pretrained 2 1e-3 64 32
[ -f blacklist.tsv ] || $PPMLM blacklist build --corpus all.jsonl --lang ko --k 2 --ngrams 1-1 --recognizers all "${DEID[@]}" --out blacklist.tsv
# the members-only blacklists of the membership-inference comparison (./membership.sh): unigrams and the
# paper's dense 1-3-grams, k = 2 over the 30 members, patterns as the recognisers of direct identifiers
for n in 1-1 1-3; do
  [ -f "blacklist-members-$n.tsv" ] || $PPMLM blacklist build --corpus members.jsonl --lang ko --k 2 --ngrams "$n" --recognizers all --out "blacklist-members-$n.tsv"
done
# the diluted split of ./dose.sh: the 30 members and the first 120 non-members fine-tuned on, the other 330
# non-members for membership inference (the base model never saw either)
[ -f members-150.jsonl ] || cat members.jsonl <(head -n 120 non-members.jsonl) > members-150.jsonl
[ -f non-members-330.jsonl ] || tail -n +121 non-members.jsonl > non-members-330.jsonl
for config in "${CONFIGS[@]}"; do
  name=$(basename "$config" .json)
  cp "$HERE/$config" "$name.json"
  $PPMLM experiment --config "$name.json" --out "$([ "$name" = config ] && echo experiment || echo "experiment-$name")"
done
