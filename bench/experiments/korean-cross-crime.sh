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
# The model is never trained or tuned on the judgments it is measured on. A finished model and the filled
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
if [ ! -d "$model" ]; then
  base=("${encoder[@]}")
  [ -n "$pretrain" ] && base=(--model "$OUT/mlm-$TRAIN")
  time $PPMLM deid train --judgments "$THUNDER/judgments/$TRAIN" "${KO[@]}" --replacement per-epoch --label-level "$level" --epochs "${EPOCHS:-8}" \
    "${base[@]}" --lr 1e-3 --outside-noise 0.1 --out "$model" $(resume "$model")
fi
gold="$OUT/$TEST.jsonl"
[ -f "$gold" ] || $PPMLM --quiet deid generate --judgments "$THUNDER/judgments/$TEST" "${KO[@]}" --seed 7 --out "$gold"
# The same without the gold spans that hold only the court's placeholder, which hold no personal data
# (placeholders.ts): what the goal's shortfall is made of.
text="$OUT/$TEST-text.jsonl"
[ "$text" -nt "$gold" ] || npx tsx "$(dirname "$0")/placeholders.ts" "$gold" "$text"
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
measure() { # measure TITLE GOLD [BUILD ARGS...]: the direct terms of the blacklist those arguments build
  local title=$1 against=$2 file
  shift 2
  file="$blacklists/$(printf '%s' "${*:-rules}" | tr -c 'A-Za-z0-9.' _).tsv"
  [ -f "$file" ] || $PPMLM --quiet blacklist build --corpus "$gold" --lang ko --analyzer mecab "$@" --out "$file"
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
time row "$TEST judgments, the rules and the model, where they fired only (no indirect terms: k=1)" --gold "$gold" --k 1 --ngrams 1-1 --deid-model "$model" --protection occurrences
npx tsx "$(dirname "$0")/korean-cross-crime-table.ts" "$OUT" "$model" > "$OUT/results.md"
cat "$OUT/results.md"
