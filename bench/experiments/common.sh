# Sourced by the experiment scripts: `experiment_setup DATA_DIR OUT_DIR` sets DATA and OUT (absolute,
# OUT created), ROOT (the repository) and PPMLM (the built CLI, with global flags from $PPMLM_FLAGS,
# e.g. "--threads 1"), and stops the script at the first error.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PPMLM="node $ROOT/bin/ppmlm.js ${PPMLM_FLAGS:-}"
experiment_setup() {
  DATA=$(cd "${1:?path to the data folder}" && pwd)
  mkdir -p "${2:?output folder}"
  OUT=$(cd "$2" && pwd)
}
