#!/usr/bin/env bash
# The PhysioNet evidence run of the README (issue: risk audit and experiments), end to end:
#   bash bench/experiments/physionet-evidence/run.sh ../shared/data/physionet-deid OUT_DIR
# 1. split the nursing notes by patient: 10 member patients (fine-tuning), 20 non-member patients
#    (membership inference, >= 400 notes), the other 133 patients public (tokenizer and pretraining);
# 2. blacklist: direct identifiers (patterns; PhysioNet's unambiguous name and location lists) + words and n-grams used by fewer than 2 of all 163 patients;
# 3. a WordPiece tokenizer and a BERT (hidden 128, 2 layers) pretrained on the public notes only (6 epochs);
# 4. `ppmlm experiment` with config.json (strategies x epochs, canaries as the positive control).
# Every step is resumable: finished outputs are kept (delete OUT_DIR/<step> to redo one).
set -euo pipefail
DATA=$(cd "${1:?path to ../shared/data/physionet-deid}" && pwd)
OUT=${2:?output folder}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
PPMLM="node $ROOT/bin/ppmlm.js"
mkdir -p "$OUT"
cd "$OUT"
[ -f members.jsonl ] || npx --prefix "$ROOT" tsx "$ROOT/bench/experiments/physionet-corpus.ts" "$DATA" . 10 20
LISTS="$DATA/lists"
[ -f blacklist.tsv ] || $PPMLM blacklist build --corpus all.jsonl --k 2 --ngrams 1-3 --recognizers all \
  --gazetteer "$LISTS/female_names_unambig.txt" --gazetteer "$LISTS/male_names_unambig.txt" \
  --gazetteer "$LISTS/last_names_unambig.txt" --gazetteer "$LISTS/locations_unambig.txt" --out blacklist.tsv
[ -d tokenizer ] || $PPMLM tokenizer train --corpus public.jsonl --type wordpiece --vocab-size 8000 --out tokenizer
[ -d init ] || $PPMLM model init --vocab tokenizer --hidden 128 --layers 2 --heads 2 --intermediate 512 --max-positions 128 --out init
if [ ! -d pretrained ]; then
  $PPMLM finetune --model init --corpus public.jsonl --strategy standard --epochs 6 --seq-len 128 --batch-size 16 --lr 2e-3 \
    --out pretrained --json $([ -d pretrained.checkpoint ] && echo --resume) > pretrain.json
fi
cp "$HERE/config.json" config.json
$PPMLM experiment --config config.json --out experiment
