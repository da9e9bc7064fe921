#!/usr/bin/env bash
# The pipelines on the bundled synthetic Korean judgments, with the CLI. From the repository root after
# `npm ci` (and `apt-get install mecab` for real Korean morphology):  bash examples/legal-ko/run.sh [OUT_DIR]
set -euo pipefail
OUT=${1:-ppmlm-example-legal}
EX=examples/legal-ko
mkdir -p "$OUT"

# 1. De-identification (Thunder-DeID): train a token classifier on surrogate-filled judgments, evaluate it
#    on the held-out test split, and rewrite a judgment with letters in place of the identifiers.
npx ppmlm deid generate --judgments "$EX/judgments" --replacements "$EX/replacements" --replicas 2 --out "$OUT/generated.jsonl" --force
npx ppmlm deid train --judgments "$EX/judgments" --replacements "$EX/replacements" --epochs 4 --hidden 64 --layers 1 \
  --vocab-size 1500 --lr 2e-3 --out "$OUT/deid" --force
npx ppmlm deid eval --model "$OUT/deid" --judgments "$EX/judgments" --replacements "$EX/replacements"
printf '피고인은 2021. 3. 14. 주식회사 누리상사 사무실에서 피해자 김민서에게 거짓말하였다. 피해자 김민서는 국민은행 창구에서 송금하였다.\n' > "$OUT/judgment.txt"
npx ppmlm deid apply --model "$OUT/deid" --in "$OUT/judgment.txt" --out "$OUT/judgment.deid.txt" --force
cat "$OUT/judgment.deid.txt"

# 2. PPmlm: members = even-numbered judgments, non-members = odd ones.
node -e '
  const fs = require("fs");
  const text = fs.readFileSync(process.argv[1], "utf8");
  const [head, ...rows] = text.trim().split(/\n(?=(?:violence|fraud)\/doc_\d{5},)/);
  const part = (even) => [head, ...rows.filter((r) => (Number(r.match(/doc_(\d{5})/)[1]) % 2 === 0) === even)].join("\n") + "\n";
  fs.writeFileSync(process.argv[2] + "/members.csv", part(true));
  fs.writeFileSync(process.argv[2] + "/non-members.csv", part(false));
' "$EX/judgments.csv" "$OUT"
npx ppmlm blacklist build --corpus "$OUT/members.csv" --lang ko --deid-model "$OUT/deid" --out "$OUT/blacklist.tsv" --force
npx ppmlm tokenizer train --corpus "$OUT/members.csv" --blacklist "$OUT/blacklist.tsv" --morphemes --vocab-size 1500 --out "$OUT/tokenizer" --force
npx ppmlm model init --vocab "$OUT/tokenizer" --out "$OUT/init" --hidden 64 --layers 2 --heads 2 --intermediate 256 --max-positions 128 --force
for strategy in standard constrained; do
  npx ppmlm finetune --model "$OUT/init" --corpus "$OUT/members.csv" --strategy "$strategy" --blacklist "$OUT/blacklist.tsv" --lang ko \
    --epochs 10 --seq-len 128 --lr 2e-3 --out "$OUT/$strategy" --force
  npx ppmlm audit --model "$OUT/$strategy" --reference "$OUT/init" --members "$OUT/members.csv" --non-members "$OUT/non-members.csv" \
    --blacklist "$OUT/blacklist.tsv" --lang ko --out "$OUT/audit-$strategy" --force
done
