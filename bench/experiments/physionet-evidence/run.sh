#!/usr/bin/env bash
# The PhysioNet evidence run (docs/evidence.md), end to end:
#   bash bench/experiments/physionet-evidence/run.sh ../shared/data/physionet-deid OUT_DIR
# and the row with more member individuals (DP per individual needs them; the base model is then
# pretrained on the 43 patients left):
#   PRETRAIN_EPOCHS_32=30 bash bench/experiments/physionet-evidence/run.sh ../shared/data/physionet-deid OUT_DIR2 100 20 config-many-individuals.json
# and the canary-leak ablations of issue #19 (constrained with --untie-decoder, with --freeze-protected-embeddings;
# then standard, constrained and constrained with --freeze-protected-embeddings with 50 canaries):
#   bash bench/experiments/physionet-evidence/run.sh ../shared/data/physionet-deid OUT_DIR 10 20 ablation-untied-decoder.json \
#     ablation-frozen-inputs.json ablation-50-tied.json ablation-50-frozen-inputs.json
# and the dose check of issue #19 (the 50 canaries with 13 copies each instead of 5: each secret then takes
# the share of the fine-tuning text it takes on the judgments, see ../judgments-evidence/dose.sh):
#   bash bench/experiments/physionet-evidence/run.sh ../shared/data/physionet-deid OUT_DIR 10 20 dose-repeats-13.json
# (the 471 public notes left give 69 steps an epoch: 12 epochs of 32-token windows stayed on the plateau)
# 1. split the nursing notes by patient: 10 member patients (fine-tuning), 20 non-member patients
#    (membership inference, >= 400 notes), the other 133 patients public (tokenizer and pretraining);
# 2. blacklist: direct identifiers (patterns; PhysioNet's unambiguous name and location lists) + words used by
#    fewer than 2 of all 163 patients (unigrams: with 1-3-grams nearly every position of a note is in a
#    trigram no other patient wrote, and constrained fine-tuning would train on ~10% of the tokens);
# 3. a WordPiece tokenizer and a BERT (hidden 128, 2 layers, 64 positions) pretrained on the public notes only;
# 4. `ppmlm experiment` with each CONFIG (default config.json: every strategy, seeds 1, 2 and 3, epochs 10 and 20;
#    gold PHI spans, canaries as the positive control, the base model audited as row "base"), config.json
#    into OUT_DIR/experiment, any other into OUT_DIR/experiment-<its name>.
# Every step is resumable: finished outputs are kept (delete OUT_DIR/<step> to redo one).
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/../common.sh"
experiment_setup "${1:-}" "${2:-}"
MEMBERS=${3:-10}
NON_MEMBERS=${4:-20}
shift $(( $# < 4 ? $# : 4 ))
CONFIGS=("${@:-config.json}")
cd "$OUT"
[ -f members.jsonl ] || npx --prefix "$ROOT" tsx "$ROOT/bench/experiments/physionet-corpus.ts" "$DATA" . "$MEMBERS" "$NON_MEMBERS"
LISTS="$DATA/lists"
[ -f blacklist.tsv ] || $PPMLM blacklist build --corpus all.jsonl --k 2 --ngrams 1-1 --recognizers all \
  --gazetteer "$LISTS/female_names_unambig.txt" --gazetteer "$LISTS/male_names_unambig.txt" \
  --gazetteer "$LISTS/last_names_unambig.txt" --gazetteer "$LISTS/locations_unambig.txt" --out blacklist.tsv
[ -d tokenizer ] || $PPMLM tokenizer train --corpus public.jsonl --public-corpus --type wordpiece --vocab-size 8000 --out tokenizer
[ -d init ] || $PPMLM model init --vocab tokenizer --hidden 128 --layers 2 --heads 2 --intermediate 512 --max-positions 64 --out init
# Pretraining in two stages. From scratch, a masked LM first sits on a plateau where it predicts the unigram
# distribution at every mask; with 128-token windows it was still there after 3,200 steps (fill-mask top-1
# 0.108 against a most-frequent-token baseline of 0.106). Attention over short windows is local enough to
# give a gradient: with 32-token windows a PyTorch probe of this shape (../plateau-probe) left the plateau after ~1,000 steps,
# with 64-token windows after ~2,200, with 128 not within 2,500. So: 32-token windows first, then 64.
pretrain init pretrained-32 "${PRETRAIN_EPOCHS_32:-12}" 2e-3 32 64
pretrain pretrained-32 pretrained 6 1e-3 64 32
# Every strategy of the config with seeds 1, 2 and 3 (config.json), or the DP cells with many individuals.
# Gold PHI spans of the members for the audit's gold figures: the data folder's id-phi.phrase.
for config in "${CONFIGS[@]}"; do
  name=$(basename "$config" .json)
  node -e 'const c = require(process.argv[1]); c.gold = process.argv[2]; require("fs").writeFileSync(process.argv[3], JSON.stringify(c, null, 2))' "$HERE/$config" "$DATA" "$name.json"
  $PPMLM experiment --config "$name.json" --out "$([ "$name" = config ] && echo experiment || echo "experiment-$name")"
done
