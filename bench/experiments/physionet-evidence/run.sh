#!/usr/bin/env bash
# The PhysioNet evidence run of the README (issue: risk audit and experiments), end to end:
#   bash bench/experiments/physionet-evidence/run.sh ../shared/data/physionet-deid OUT_DIR
# 1. split the nursing notes by patient: 10 member patients (fine-tuning), 20 non-member patients
#    (membership inference, >= 400 notes), the other 133 patients public (tokenizer and pretraining);
# 2. blacklist: direct identifiers (patterns; PhysioNet's unambiguous name and location lists) + words used by
#    fewer than 2 of all 163 patients (unigrams: with 1-3-grams nearly every position of a note is in a
#    trigram no other patient wrote, and constrained fine-tuning would train on ~10% of the tokens);
# 3. a WordPiece tokenizer and a BERT (hidden 128, 2 layers) pretrained on the public notes only;
# 4. `ppmlm experiment` with config.json (strategies x epochs, canaries as the positive control).
# Every step is resumable: finished outputs are kept (delete OUT_DIR/<step> to redo one).
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/../common.sh"
experiment_setup "${1:-}" "${2:-}"
cd "$OUT"
[ -f members.jsonl ] || npx --prefix "$ROOT" tsx "$ROOT/bench/experiments/physionet-corpus.ts" "$DATA" . 10 20
LISTS="$DATA/lists"
[ -f blacklist.tsv ] || $PPMLM blacklist build --corpus all.jsonl --k 2 --ngrams 1-1 --recognizers all \
  --gazetteer "$LISTS/female_names_unambig.txt" --gazetteer "$LISTS/male_names_unambig.txt" \
  --gazetteer "$LISTS/last_names_unambig.txt" --gazetteer "$LISTS/locations_unambig.txt" --out blacklist.tsv
[ -d tokenizer ] || $PPMLM tokenizer train --corpus public.jsonl --type wordpiece --vocab-size 8000 --out tokenizer
[ -d init ] || $PPMLM model init --vocab tokenizer --hidden 128 --layers 2 --heads 2 --intermediate 512 --max-positions 128 --out init
# Pretraining in two stages (as the README's run did): 6 epochs at lr 2e-3, then 8 more at 1e-3.
pretrain() { # FROM OUT EPOCHS LR
  [ -d "$2" ] || $PPMLM finetune --model "$1" --corpus public.jsonl --strategy standard --epochs "$3" --seq-len 128 --batch-size 16 \
    --lr "$4" --out "$2" --json $([ -d "$2.checkpoint" ] && echo --resume) > "$2.json"
}
pretrain init pretrained-1 6 2e-3
pretrain pretrained-1 pretrained 8 1e-3
cp "$HERE/config.json" config.json
$PPMLM experiment --config config.json --out experiment
