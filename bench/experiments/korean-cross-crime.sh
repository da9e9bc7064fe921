#!/usr/bin/env bash
# The Korean recognisers and a de-identification model on the crime type the model never saw:
#   bash bench/experiments/korean-cross-crime.sh ../shared/data OUT_DIR [TRAIN_TYPE]
# Trains ppmlm's de-identification model (level-2 labels, hidden 128 / 2 layers, 8 epochs, per-epoch
# surrogates, 10% outside noise) on the Thunder-DeID judgments of one crime type (default
# crime_of_violence), fills the other type's judgments with surrogates of another seed, and measures the
# direct terms of a blacklist built on them with `blacklist eval`: the rules alone, the model alone, both
# (every term everywhere, as fine-tuning masks), the same with every term the model found however seldom
# it marked it (--model-agreement 0), the model beside every rule but the dates and the Korean places
# (neither of which Thunder-DeID's gold marks above an address's district), and both only where they fired.
# The model is never trained or tuned on the judgments it is measured on. A finished model is kept.
# THRESHOLDS="0.5 0.7 0.9" also measures the model alone and with the rules at each probability a token
# needs (--deid-threshold), in place of the one its training chose on its own dev split.
set -euo pipefail
data=${1:-../shared/data}
out=${2:-korean-cross-crime}
train=${3:-crime_of_violence}
case "$train" in crime_of_violence) test=fraud ;; fraud) test=crime_of_violence ;; *) echo "TRAIN_TYPE is crime_of_violence or fraud" >&2; exit 2 ;; esac
ppmlm="node $(dirname "$0")/../../bin/ppmlm.js"
T="$data/thunder-deid"
KO=(--replacements "$T/replacement" --replace-map "$T/replace_map.json" --skip-bad-docs)
mkdir -p "$out"
model="$out/model-$train"
if [ ! -d "$model" ]; then
  resume=$([ -d "$model.checkpoint" ] && echo --resume || true)
  time $ppmlm deid train --judgments "$T/judgments/$train" "${KO[@]}" --replacement per-epoch --label-level 2 --epochs 8 \
    --hidden 128 --layers 2 --heads 2 --intermediate 512 --lr 1e-3 --outside-noise 0.1 --out "$model" $resume
fi
gold="$out/$test.jsonl"
[ -f "$gold" ] || $ppmlm --quiet deid generate --judgments "$T/judgments/$test" "${KO[@]}" --seed 7 --out "$gold"
for args in "" "--recognizers none --deid-model $model" "--deid-model $model" "--recognizers none --deid-model $model --model-agreement 0" "--deid-model $model --model-agreement 0" "--recognizers -DATE,-korean-places --deid-model $model"; do
  echo "== $test judgments, direct terms everywhere: ${args:-the rules alone}"
  time $ppmlm --quiet blacklist eval --gold "$gold" --lang ko --analyzer mecab --only direct $args
done
for threshold in ${THRESHOLDS:-}; do
  for args in "--recognizers none --deid-model $model" "--deid-model $model"; do
    echo "== $test judgments, direct terms everywhere, threshold $threshold: $args"
    $ppmlm --quiet blacklist eval --gold "$gold" --lang ko --analyzer mecab --only direct --deid-threshold "$threshold" $args
  done
done
echo "== $test judgments, the rules and the model, where they fired only (no indirect terms: k=1)"
time $ppmlm --quiet blacklist eval --gold "$gold" --lang ko --analyzer mecab --k 1 --ngrams 1-1 --deid-model "$model" --protection occurrences
