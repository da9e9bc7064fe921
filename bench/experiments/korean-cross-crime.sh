#!/usr/bin/env bash
# The Korean recognisers and a de-identification model on the crime type the model never saw:
#   bash bench/experiments/korean-cross-crime.sh ../shared/data OUT_DIR [TRAIN_TYPE]
# Trains ppmlm's de-identification model (level-2 labels by default, hidden 128 / 2 layers, 8 epochs, per-epoch
# surrogates, 10% outside noise) on the Thunder-DeID judgments of one crime type (default
# crime_of_violence), fills the other type's judgments with surrogates of another seed, and measures the
# direct terms of a blacklist built on them (`blacklist build`, once per selection) with `blacklist eval`: the rules alone, the model alone, both
# (every term everywhere, as fine-tuning masks), the same with every term the model found however seldom
# it marked it (--model-agreement 0), the model beside every rule but the dates and the Korean places
# (neither of which Thunder-DeID's gold marks above an address's district; the Korean facilities, which it
# marks, kept), the same without the facilities too (the row of runs before korean-facilities was a
# recogniser of its own), those again without the gold spans that hold only the court's placeholder, and
# both only where they fired.
# The model is never trained or tuned on the judgments it is measured on (SILVER=1's second model is, on
# their text and no gold: below). A finished model and the filled
# golds are kept, so a change to `deid generate` or the training needs a fresh OUT_DIR; the blacklists are
# built afresh in every run. The table of every measurement: OUT_DIR/results.md (korean-cross-crime-table.ts).
# THRESHOLDS="0.5 0.7 0.9" also measures the model alone and with the rules at each probability a token
# needs (--deid-threshold), in place of the one its training chose on its own dev split.
# EPOCHS (default 8) sets the de-identification epochs. PRETRAIN=1 first pretrains the encoder as a masked
# LM (3 epochs, same shape, a WordPiece tokenizer of its own on mecab morphemes) on KMOU-NER's sentences and
# two surrogate fillings of the training type's judgments (korean-pretraining-corpus.ts), then trains
# de-identification from it: model-TYPE-pretrained (-eN when EPOCHS is set). The pretraining checkpoints every
# 500 steps (about 2 minutes on 2 cores) and a rerun resumes it; a finished model is kept. LEVEL sets the
# label level the model learns (default 2, the 16 categories; 1, direct or quasi): model-...-lLEVEL when not 2.
# SILVER=1 then self-trains: a second model learns the labels the model and every rule but dates and Korean
# places put on the measured type's judgments, read for their text alone (`blacklist build --silver-out`; no
# gold span is read: a build reads a corpus's text only), from the same start as the model (8 epochs), as
# `--silver-out` serves a user's own corpus. Two ways, each measured beside the model's rows: on all the
# judgments it is then measured on (MODEL-silver-TYPE; what a user runs), and cross-fitted, so that no
# judgment is measured by a model trained on it: the judgments split by line into halves, each half's
# blacklist built with the model self-trained on the other half (MODEL-silver-TYPE-halfN, trained on half N).
# Beside the cross-fitted rows, on the same halves and pooled the same way: the first model, and each half's
# own self-trained model (on the judgments it was trained on), so that what halving the corpus moves and
# what reading the measured judgments moves can be told apart.
. "$(dirname "$0")/common.sh"
experiment_setup "${1:-../shared/data}" "${2:-korean-cross-crime}"
crime_types "${3:-}"
KO=(--replacements "$THUNDER/replacement" --replace-map "$THUNDER/replace_map.json" --skip-bad-docs)
pretrain=$([ "${PRETRAIN:-0}" = 1 ] && echo 1 || true)
level=${LEVEL:-2}
model="$OUT/model-$TRAIN${pretrain:+-pretrained}${EPOCHS:+-e$EPOCHS}$([ "$level" = 2 ] || echo "-l$level")"
encoder=(--hidden 128 --layers 2 --heads 2 --intermediate 512)
if [ -n "$pretrain" ] && [ ! -d "$model" ] && [ ! -d "$OUT/mlm-$TRAIN" ]; then
  pre="$OUT/pretrain-$TRAIN"
  mkdir -p "$pre"
  [ -f "$pre/judgments.jsonl" ] || $PPMLM --quiet deid generate --judgments "$THUNDER/judgments/$TRAIN" "${KO[@]}" --seed 11 --replicas 2 --out "$pre/judgments.jsonl"
  [ -f "$pre/corpus.jsonl" ] || npx tsx "$(dirname "$0")/korean-pretraining-corpus.ts" "$DATA/kmou-ner/corpus_morph_ner" "$pre/judgments.jsonl" "$pre/corpus.jsonl"
  [ -d "$pre/tokenizer" ] || $PPMLM --quiet tokenizer train --corpus "$pre/corpus.jsonl" --out "$pre/tokenizer" --type wordpiece --vocab-size 8000 --morphemes --analyzer mecab --public-corpus
  [ -d "$pre/init" ] || $PPMLM --quiet model init --vocab "$pre/tokenizer" --out "$pre/init" "${encoder[@]}" --allow-vocabulary-identifiers
  time $PPMLM finetune --model "$pre/init" --corpus "$pre/corpus.jsonl" --out "$OUT/mlm-$TRAIN" --strategy standard --epochs 3 --seq-len 128 --batch-size 16 --lr 1e-3 --analyzer mecab --save-steps 500 $(resume "$OUT/mlm-$TRAIN")
fi
base=("${encoder[@]}")
[ -n "$pretrain" ] && base=(--model "$OUT/mlm-$TRAIN")
if [ ! -d "$model" ]; then
  time $PPMLM deid train --judgments "$THUNDER/judgments/$TRAIN" "${KO[@]}" --replacement per-epoch --label-level "$level" --epochs "${EPOCHS:-8}" \
    "${base[@]}" --lr 1e-3 --outside-noise 0.1 --out "$model" $(resume "$model")
fi
gold="$OUT/$TEST.jsonl"
[ -f "$gold" ] || $PPMLM --quiet deid generate --judgments "$THUNDER/judgments/$TEST" "${KO[@]}" --seed 7 --out "$gold"
# The same without the gold spans that hold only the court's placeholder, which hold no personal data
# (placeholders.ts): what the goal's shortfall is made of.
text="$OUT/$TEST-text.jsonl"
[ "$text" -nt "$gold" ] || npx tsx "$(dirname "$0")/placeholders.ts" "$gold" "$text"
self_train() { # self_train CORPUS OUT: the model trained on the silver labels of CORPUS's text
  [ -d "$2" ] && return
  # --force: a run killed after the labeller's blacklist and before its silver labels starts them again.
  [ -f "$2.jsonl" ] || time $PPMLM --quiet blacklist build --corpus "$1" --lang ko --analyzer mecab --recognizers -DATE,-korean-places --deid-model "$model" --silver-out "$2.jsonl" --out "$2.labeller.tsv" --force
  time $PPMLM deid train --spans "$2.jsonl" --spans-format jsonl --analyzer mecab "${base[@]}" --epochs 8 --lr 1e-3 --outside-noise 0.1 --out "$2" $(resume "$2")
}
silver=
if [ "${SILVER:-0}" = 1 ]; then
  silver="$model-silver-$TEST"
  self_train "$gold" "$silver"
  for half in 1 2; do
    [ "$OUT/$TEST-half$half.jsonl" -nt "$gold" ] || awk -v h="$half" 'NR % 2 == h % 2' "$gold" > "$OUT/$TEST-half$half.jsonl"
    self_train "$OUT/$TEST-half$half.jsonl" "$silver-half$half"
  done
fi
# One blacklist per selection of recognisers, built afresh in each run (the rules may have changed since)
# and measured against both golds, which hold the same texts; each measurement is kept as JSON for the
# table (OUT_DIR/results.md).
blacklists="$OUT/blacklists"
rows="$OUT/rows"
rm -rf "$blacklists" "$rows" && mkdir -m 700 "$blacklists" "$rows"
measured=0
row() { # row TITLE [EVAL ARGS...]: one `blacklist eval`, kept in the table's order
  local title=$1
  shift
  measured=$((measured + 1))
  echo "== $title"
  $PPMLM --quiet blacklist eval --lang ko --analyzer mecab --json "$@" > "$rows/$measured.json"
  printf '%s\t%s\n' "$measured" "$title" >> "$rows/index.tsv"
}
measure() { # measure TITLE GOLD [BUILD ARGS...]: the direct terms of the blacklist those arguments build on
  # $corpus (default: the measured judgments)
  local title=$1 against=$2 file from=${corpus:-$gold}
  shift 2
  file="$blacklists/$(basename "$from" .jsonl)-$(printf '%s' "${*:-rules}" | tr -c 'A-Za-z0-9.' _).tsv"
  [ -f "$file" ] || $PPMLM --quiet blacklist build --corpus "$from" --lang ko --analyzer mecab "$@" --out "$file"
  row "$title" --gold "$against" --only direct --blacklist "$file"
}
for args in "" "--recognizers none --deid-model $model" "--deid-model $model" "--recognizers none --deid-model $model --model-agreement 0" "--deid-model $model --model-agreement 0" "--recognizers -DATE,-korean-places --deid-model $model" "--recognizers -DATE,-korean-places,-korean-facilities --deid-model $model"; do
  time measure "$TEST judgments, direct terms everywhere: ${args:-the rules alone}" "$gold" $args
done
for threshold in ${THRESHOLDS:-}; do
  for args in "--recognizers none --deid-model $model" "--deid-model $model" "--recognizers -DATE,-korean-places --deid-model $model"; do
    measure "$TEST judgments, direct terms everywhere, threshold $threshold: $args" "$gold" --deid-threshold "$threshold" $args
  done
done
for args in "" "--recognizers none --deid-model $model" "--recognizers -DATE,-korean-places --deid-model $model" "--recognizers -DATE,-korean-places,-korean-facilities --deid-model $model"; do
  time measure "$TEST judgments, spans holding text (placeholders left out), direct terms everywhere: ${args:-the rules alone}" "$text" $args
done
if [ -n "$silver" ]; then
  for args in "--recognizers none --deid-model $silver" "--recognizers -DATE,-korean-places --deid-model $silver"; do
    time measure "$TEST judgments, self-trained on their silver labels, direct terms everywhere: $args" "$gold" $args
    measure "$TEST judgments, self-trained on their silver labels, spans holding text (placeholders left out): $args" "$text" $args
  done
  for half in 1 2; do
    part="$OUT/$TEST-half$half.jsonl"
    for args in "--recognizers none --deid-model $silver-half$((3 - half))" "--recognizers -DATE,-korean-places --deid-model $silver-half$((3 - half))"; do
      corpus=$part measure "$TEST judgments, half $half, cross-fitted: self-trained on half $((3 - half))'s silver labels, direct terms everywhere: $args" "$part" $args
    done
    corpus=$part measure "$TEST judgments, half $half, the model trained on the other type: --recognizers -DATE,-korean-places --deid-model $model" "$part" --recognizers -DATE,-korean-places --deid-model "$model"
    corpus=$part measure "$TEST judgments, half $half, self-trained on this half's own silver labels: --recognizers -DATE,-korean-places --deid-model $silver-half$half" "$part" --recognizers -DATE,-korean-places --deid-model "$silver-half$half"
  done
fi
time row "$TEST judgments, the rules and the model, where they fired only (no indirect terms: k=1)" --gold "$gold" --k 1 --ngrams 1-1 --deid-model "$model" --protection occurrences
npx tsx "$(dirname "$0")/korean-cross-crime-table.ts" "$OUT" "$model" ${silver:+"$silver" "$silver-half1" "$silver-half2"} > "$OUT/results.md"
cat "$OUT/results.md"
