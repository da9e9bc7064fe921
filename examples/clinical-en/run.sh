#!/usr/bin/env bash
# The full PPmlm pipeline on the bundled synthetic clinical notes, step by step with the CLI.
# Run from the repository root after `npm ci`:  bash examples/clinical-en/run.sh [OUT_DIR]
# (`npm start` does the same through `ppmlm demo`, in one process.)
set -euo pipefail
OUT=${1:-ppmlm-example-clinical}
EX=examples/clinical-en
mkdir -p "$OUT"

# Members: the notes of patients P001-P040; non-members: P041-P080 (same distribution, never trained on).
node -e '
  const fs = require("fs");
  const [head, ...rows] = fs.readFileSync(process.argv[1], "utf8").trim().split(/\n(?=P\d{3}-\d,)/);
  const part = (f) => [head, ...rows.filter((r) => f(Number(r.slice(1, 4))))].join("\n") + "\n";
  fs.writeFileSync(process.argv[2] + "/members.csv", part((p) => p <= 40));
  fs.writeFileSync(process.argv[2] + "/non-members.csv", part((p) => p > 40));
' "$EX/notes.csv" "$OUT"

npx ppmlm corpus stats --corpus "$OUT/members.csv"
npx ppmlm blacklist build --corpus "$OUT/members.csv" --out "$OUT/blacklist.tsv" --force
npx ppmlm blacklist stats "$OUT/blacklist.tsv"

# A small encoder pretrained on public notes (other invented patients) stands in for a Hub checkpoint.
npx ppmlm tokenizer train --corpus "$EX/public.csv" --public-corpus --blacklist "$OUT/blacklist.tsv" --vocab-size 2000 --out "$OUT/tokenizer" --force
npx ppmlm model init --vocab "$OUT/tokenizer" --out "$OUT/init" --hidden 128 --layers 2 --heads 2 --intermediate 512 --max-positions 64 --force
npx ppmlm finetune --model "$OUT/init" --corpus "$EX/public.csv" --strategy standard --epochs 6 --seq-len 64 --lr 1e-3 --out "$OUT/pretrained" --force

for strategy in standard constrained; do
  npx ppmlm finetune --model "$OUT/pretrained" --corpus "$OUT/members.csv" --strategy "$strategy" --blacklist "$OUT/blacklist.tsv" \
    --epochs 16 --seq-len 64 --lr 1e-3 --out "$OUT/$strategy" --force
  npx ppmlm audit --model "$OUT/$strategy" --reference "$OUT/pretrained" --members "$OUT/members.csv" \
    --non-members "$OUT/non-members.csv" --blacklist "$OUT/blacklist.tsv" --seq-len 64 --out "$OUT/audit-$strategy" --force
done

npx ppmlm fill-mask --model "$OUT/standard" --text "History of [MASK] disease, followed since diagnosis."
