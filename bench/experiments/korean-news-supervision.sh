#!/usr/bin/env bash
# Does a Korean de-identification model find more of the other crime type's identifiers when it also learns
# the persons, places and organisations of news? Run after korean-cross-crime.sh with PRETRAIN=1 (its
# pretrained encoder OUT_DIR/mlm-TRAIN_TYPE and the gold OUT_DIR/TEST_TYPE.jsonl):
#   bash bench/experiments/korean-news-supervision.sh ../shared/data OUT_DIR [TRAIN_TYPE]
# Two arms from the same encoder, trained on span documents (`deid train --spans --analyzer mecab`, 3
# epochs, cut into morphemes as the encoder's vocabulary was): the training type's judgments
# filled with 8 sets of surrogates (deid generate, seed 11), alone (the control) and with KMOU-NER's first
# 400 files, their PER, LOC and ORG tags as the judgments' PERSON_NAME, LOCATION and ORGANIZATION
# (korean-deid-news-corpus.ts; the other 1,027 files stay untouched). Each is measured on the other type's
# judgments, alone and beside every rule but dates and Korean places, at the threshold its dev split chose
# (the split is by document, so a judgment's fillings fall on both sides of it) and at NEWS_THRESHOLDS (default
# "0.2 0.05"). 8-11 minutes of training and 5 of measuring per arm on 2 cores; a finished model is kept,
# and a training interrupted after its first checkpoint resumes (before it, it starts again).
. "$(dirname "$0")/common.sh"
experiment_setup "${1:-../shared/data}" "${2:-korean-cross-crime}"
crime_types "${3:-}"
for need in "$OUT/mlm-$TRAIN" "$OUT/$TEST.jsonl"; do
  [ -e "$need" ] || { echo "$need is missing: run PRETRAIN=1 bash bench/experiments/korean-cross-crime.sh $DATA $OUT $TRAIN first" >&2; exit 2; }
done
judgments="$OUT/$TRAIN-r8.jsonl"
[ -f "$judgments" ] || $PPMLM --quiet deid generate --judgments "$THUNDER/judgments/$TRAIN" --replacements "$THUNDER/replacement" --replace-map "$THUNDER/replace_map.json" --skip-bad-docs --seed 11 --replicas 8 --out "$judgments"
for arm in control news; do
  files=$([ "$arm" = news ] && echo 400 || echo 0)
  spans="$OUT/$TRAIN-$arm.jsonl"
  model="$OUT/model-$TRAIN-$arm-morphemes"
  [ -f "$spans" ] || npx tsx "$(dirname "$0")/korean-deid-news-corpus.ts" "$DATA/kmou-ner/corpus_morph_ner" "$files" "$judgments" "$spans"
  if [ ! -d "$model" ]; then
    time $PPMLM deid train --spans "$spans" --model "$OUT/mlm-$TRAIN" --analyzer mecab --epochs 3 --lr 1e-3 --outside-noise 0.1 --out "$model" $(resume "$model")
  fi
  for args in "--recognizers none" "--recognizers -DATE,-korean-places,-korean-facilities"; do
    echo "== $TEST judgments, direct terms everywhere, $arm: $args --deid-model $model"
    time $PPMLM --quiet blacklist eval --gold "$OUT/$TEST.jsonl" --lang ko --analyzer mecab --only direct $args --deid-model "$model"
  done
  for threshold in ${NEWS_THRESHOLDS:-0.2 0.05}; do
    echo "== $TEST judgments, direct terms everywhere, $arm, threshold $threshold: --recognizers -DATE,-korean-places,-korean-facilities --deid-model $model"
    time $PPMLM --quiet blacklist eval --gold "$OUT/$TEST.jsonl" --lang ko --analyzer mecab --only direct --recognizers -DATE,-korean-places,-korean-facilities --deid-threshold "$threshold" --deid-model "$model"
  done
done
