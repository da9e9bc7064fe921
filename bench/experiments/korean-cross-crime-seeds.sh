#!/usr/bin/env bash
# A seed ensemble of de-identification models on the crime type they never saw:
#   bash bench/experiments/korean-cross-crime-seeds.sh ../shared/data OUT_DIR [TRAIN_TYPE]
# OUT_DIR is the folder of `PRETRAIN=1 EPOCHS=24 bash bench/experiments/korean-cross-crime.sh`, whose
# pretrained encoder (mlm-TYPE), model (model-TYPE-pretrained-e24) and filled gold of the other type are
# read. SEEDS (default "43 44") more models are trained as that recipe trains its own, from the same encoder
# with another `deid train --seed` (which draws another split, surrogates and order); each is measured
# alone, and all of them with the recipe's model as one recogniser (`--deid-model` repeated: the mean of
# their label probabilities), beside every rule but dates and Korean places, as the recipe's main row.
# Then the recipe's model alone at the ensemble's threshold. Rows go to OUT_DIR/seeds/NAME.json (`blacklist eval
# --json`), kept for a rerun, and one line each to stdout.
. "$(dirname "$0")/common.sh"
experiment_setup "${1:-../shared/data}" "${2:?the folder of korean-cross-crime.sh}"
crime_types "${3:-}"
first="$OUT/model-$TRAIN-pretrained-e24"
gold="$OUT/$TEST.jsonl"
for need in "$OUT/mlm-$TRAIN" "$first" "$gold"; do
  [ -e "$need" ] || { echo "$need: run PRETRAIN=1 EPOCHS=24 bash bench/experiments/korean-cross-crime.sh first" >&2; exit 2; }
done
rows="$OUT/seeds"
mkdir -m 700 -p "$rows"
models=("$first")
for seed in ${SEEDS:-43 44}; do
  model="$first-s$seed"
  [ -d "$model" ] || time $PPMLM deid train --judgments "$THUNDER/judgments/$TRAIN" --replacements "$THUNDER/replacement" --replace-map "$THUNDER/replace_map.json" --skip-bad-docs \
    --replacement per-epoch --label-level 2 --epochs 24 --model "$OUT/mlm-$TRAIN" --lr 1e-3 --outside-noise 0.1 --seed "$seed" --out "$model" $(resume "$model")
  models+=("$model")
done
measure() { # measure NAME [--deid-threshold P] MODEL...: the main row's blacklist with these models as one recogniser; a row written is kept
  local name=$1 flags=()
  shift
  [ "$1" = --deid-threshold ] && { flags=(--deid-threshold "$2"); shift 2; }
  for m in "$@"; do flags+=(--deid-model "$m"); done
  if [ ! -f "$rows/$name.json" ]; then
    time $PPMLM --quiet blacklist build --corpus "$gold" --lang ko --analyzer mecab --recognizers -DATE,-korean-places "${flags[@]}" --out "$rows/$name.tsv" --force
    $PPMLM --quiet blacklist eval --lang ko --analyzer mecab --json --gold "$gold" --only direct --blacklist "$rows/$name.tsv" > "$rows/$name.json.tmp"
    mv "$rows/$name.json.tmp" "$rows/$name.json"
  fi
  node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); const all = r.types.find((t) => t.type === "all").full; const pct = (x) => (100 * x).toFixed(2);
    console.log(`${process.argv[2]}: ${pct(all.value)}% [${all.interval.map(pct).join(", ")}] of all PII spans at ${pct(r.otherTextProtected.value)}% [${r.otherTextProtected.interval.map(pct).join(", ")}] of the other text`)' "$rows/$name.json" "$name"
}
for model in "${models[@]}"; do measure "$(basename "$model")" "$model"; done
measure "ensemble$(printf -- '-%s' 42 ${SEEDS:-43 44})" "${models[@]}"
# The first model alone at the ensemble's threshold (the mean of the recorded ones): what the threshold moves
# apart from what the mean of the probabilities moves.
seeds=$(printf -- '-%s' 42 ${SEEDS:-43 44})
measure "$(basename "$first")-at-the-mean-threshold$seeds" --deid-threshold "$(mean_threshold "${models[@]}")" "$first"
