#!/usr/bin/env bash
# The GPU checks as one prepared run, for a machine with an NVIDIA GPU, a CUDA build of torch and
# no network (docs/runtime.md, "Checking on a GPU"). Wheels of the linter's dependencies that the
# machine lacks go in .whl/ beforehand (libcst and pathspec, for its Python):
#
#   python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 \
#       --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 -d .whl libcst pathspec
#
# It installs them beside the machine's own torch, then runs scripts/gpu_check.py (everything
# only a GPU shows, the CUDA tests included), the runtime and op-probe tests with CUDA present,
# the docstring test against the installed torch, and `repro-lint doctor`. Everything it prints
# also goes to $OUT (default: gpu-out/). Exit status: gpu_check's.
set -u
out=${OUT:-gpu-out}
mkdir -p "$out"
if ls .whl/*.whl >/dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/repro-lint-site .whl/*.whl || exit 2
    export PYTHONPATH=/tmp/repro-lint-site${PYTHONPATH:+:$PYTHONPATH}
fi
export PYTHONUNBUFFERED=1
nvidia-smi -L 2>&1 | tee "$out/nvidia-smi.txt"
timeout 300 python3 scripts/gpu_check.py --json "$out/gpu_check.json" 2>&1 | tee "$out/gpu_check.txt"
status=${PIPESTATUS[0]}
workers=$(python3 -c "import xdist" 2>/dev/null && echo "-n 8")
timeout 240 python3 -m pytest -q -p no:cacheprovider $workers tests/test_runtime.py tests/test_runtime_tools.py \
    tests/test_runtime_noise.py tests/test_runtime_ranks.py tests/test_op_probes.py \
    "tests/test_ops.py::test_catalog_matches_the_installed_torch_docstring" > "$out/pytest.txt" 2>&1
echo "pytest exit status $?: $(tail -n 1 "$out/pytest.txt")"
{ python3 -m repro_lint.runtime.doctor; python3 -m repro_lint.runtime.doctor --seed 0; } > "$out/doctor.txt" 2>&1
exit "$status"
