#!/usr/bin/env bash
# A learned recogniser trained on the silver labels the rules put on the corpus itself, measured as a
# --deid-model beside the default rules on the PhysioNet notes:
#   bash bench/experiments/silver-recogniser.sh ../shared/data OUT_DIR [EPOCHS]
# The rules label every note (blacklist build --silver-out); ppmlm's token classifier learns those labels
# (no gold span is read); the blacklist is then built with the rules and the model, and measured against
# the gold spans. The model and the silver labels stay in OUT_DIR (mode 0600: they hold the notes' names).
. "$(dirname "$0")/common.sh"
data=${1:-../shared/data}
out=${2:-silver-run}
epochs=${3:-2}
here=$(dirname "$0")
ppmlm="node $here/../../bin/ppmlm.js"
mkdir -p "$out"
npx tsx "$here/physionet-corpus.ts" "$data/physionet-deid" "$out/corpus" 0 0 > /dev/null
$ppmlm --quiet blacklist build --corpus "$out/corpus/all.jsonl" --out "$out/rules.tsv" --silver-out "$out/silver.jsonl" --force
if [ ! -f "$out/model/ppmlm.json" ]; then
  time $ppmlm deid train --spans "$out/silver.jsonl" --spans-format jsonl --no-morphemes --epochs "$epochs" \
    --hidden 128 --layers 2 --heads 2 --intermediate 512 --vocab-size 8000 --batch-size 32 --split 90/5/5 \
    --out "$out/model" --force --json $(resume "$out/model")
fi
for args in "--only direct" ""; do
  echo "== PhysioNet notes, the rules and the silver model${args:+, direct terms only}"
  time $ppmlm --quiet blacklist eval --gold "$data/physionet-deid" --deid-model "$out/model" $args
done
