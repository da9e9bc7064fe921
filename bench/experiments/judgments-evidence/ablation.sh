#!/usr/bin/env bash
# How never-targeted canaries leak under constrained masking (issue #19, ablations A-E), on the Korean
# judgments with 50 canaries x 5 repeats and seeds 1 and 2, each cell scored by canary exposure minus the
# control secrets' (never planted: ablation A, the null, comes with every audit):
#   bash bench/experiments/judgments-evidence/ablation.sh ../shared/data/thunder-deid OUT_DIR
#   ablation-tied.json           standard (the positive control) and constrained, as shipped
#   ablation-untied-decoder.json constrained with --untie-decoder (B)
#   ablation-frozen-inputs.json  constrained with --freeze-protected-embeddings (C)
#   ablation-sentence-protected.json constrained, the whole canary sentence blacklisted (D)
#   ablation-hidden-context.json constrained with --hide-protected-context (E: identifiers no longer
#                                context; a bound on what hiding them buys, not a candidate fix)
# The blacklist is built without a de-identification model (patterns + words of a single judgment): the
# canaries, the subject here, are blacklisted whatever the recognisers find. Every step resumes.
HERE=$(cd "$(dirname "$0")" && pwd)
bash "$HERE/run.sh" "${1:?path to thunder-deid}" "${2:?output folder}" none ablation-tied.json ablation-untied-decoder.json ablation-frozen-inputs.json ablation-sentence-protected.json ablation-hidden-context.json
