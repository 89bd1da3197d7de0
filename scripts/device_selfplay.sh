#!/usr/bin/env bash
# Issue 47: continue a bundled 15x15 AlphaZero network with self-play on one GPU
# machine (16 cores, one GPU), within a hard wall-clock limit, results in $OUT.
#
#   bash scripts/device_selfplay.sh            # run from the repository root
#
# Needs torch, numba and numpy; gymnasium, pettingzoo and farama-notifications come
# as wheels in .whl/ (carried with the working tree: carry [".whl"]), installed into
# $SITE without the network. Self-play runs in JOBS worker processes, each with its
# own copy of the network on DEVICE and GAMES games an iteration; the learner trains
# on DEVICE (scripts/device_selfplay.py). Every iteration rewrites $OUT/final.pt and
# $OUT/metrics.csv, so a kill keeps the last iteration's network.
#
# What comes back in $OUT (7 files at most, each under 2 MiB):
#   train.log      this script's output: set-up times, one line per iteration
#   metrics.csv    the run's metrics (losses, games, samples per iteration)
#   final.pt       the network after the last iteration (the one to rate)
#   snap-33.pt     the network once a third of the budget was spent
#   snap-67.pt     ... two thirds
#   summary.json   counters, throughput, the command and the hardware
#   gpu.log        nvidia-smi every 15 s (utilisation, memory)
#
# Environment (the defaults are the GPU run's; a CPU test shrinks them):
#   DEVICE=cuda  JOBS=15  GAMES=64 (games per worker and iteration)
#   SIMS=200 FAST=40 FULL=0.25 (playout cap: full-search moves give the samples)
#   GUMBEL=0 (k > 0: a Gumbel root over k sampled moves, --gumbel-actions)
#   WALL=470 (seconds from this script's start by which training has ended)
#   HOURS (wall-clock training hours; unset: what WALL leaves after the set-up)
#   INIT=15x15-gumbel (the network to continue: a bundled name or a .pt file)
#   SEED=47  RUN=/tmp/az15-device (run folder, replaced)  SITE=/tmp/site
#   PYTHON=python3  PIP="python3 -m pip"
set -u
START_EPOCH=$(date +%s.%N)
export START_EPOCH
: "${OUT:?set OUT to the folder the results go to}"
DEVICE=${DEVICE:-cuda}
JOBS=${JOBS:-15}
GAMES=${GAMES:-64}
SIMS=${SIMS:-200}
FAST=${FAST:-40}
FULL=${FULL:-0.25}
GUMBEL=${GUMBEL:-0}
INIT=${INIT:-15x15-gumbel}
WALL=${WALL:-470}
SEED=${SEED:-47}
RUN=${RUN:-/tmp/az15-device}
SITE=${SITE:-/tmp/site}
PYTHON=${PYTHON:-python3}
PIP=${PIP:-python3 -m pip}
elapsed() { awk -v now="$(date +%s.%N)" -v start="$START_EPOCH" 'BEGIN { printf "%.1f", now - start }'; }
mkdir -p "$OUT"
LOG="$OUT/train.log"

{
  echo "device_selfplay.sh: $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "DEVICE=$DEVICE JOBS=$JOBS GAMES=$GAMES SIMS=$SIMS FAST=$FAST FULL=$FULL GUMBEL=$GUMBEL WALL=$WALL HOURS=${HOURS:-auto} INIT=$INIT SEED=$SEED"
  nproc; free -g | head -2
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
} >"$LOG" 2>&1

# Missing packages from the carried wheels, into $SITE (no index, no dependencies).
if ls .whl/*.whl >/dev/null 2>&1; then
  $PIP install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target "$SITE" .whl/*.whl >>"$LOG" 2>&1 || echo "pip install failed" >>"$LOG"
fi
export PYTHONPATH="$SITE:$PWD${PYTHONPATH:+:$PYTHONPATH}"
export NUMBA_CACHE_DIR=${NUMBA_CACHE_DIR:-/tmp/numba-cache}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
export PYTHONUNBUFFERED=1
echo "set-up done after $(elapsed) s" >>"$LOG"

GPU_LOGGER=
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used --format=csv,noheader \
    -l 15 >"$OUT/gpu.log" 2>&1 &
  GPU_LOGGER=$!
fi

HOURS_FLAG=()
[ -n "${HOURS:-}" ] && HOURS_FLAG=(--train-hours "$HOURS")
# The hard stop: WALL plus 25 s from the start, then SIGINT (a KeyboardInterrupt in
# the driver closes the workers), SIGKILL 10 s later. The results of the last
# complete iteration are in $OUT whatever happens.
LEFT=$(($(printf '%.0f' "$WALL") + 25 - $(date +%s) + ${START_EPOCH%.*}))
timeout -s INT -k 10 "$LEFT" $PYTHON scripts/device_selfplay.py \
  --results "$OUT" --jobs "$JOBS" --wall-seconds "$WALL" \
  --board-size 15 --init "$INIT" --device "$DEVICE" --out "$RUN" --force \
  --parallel-games "$GAMES" --simulations "$SIMS" --fast-simulations "$FAST" \
  --full-search-probability "$FULL" --gumbel-actions "$GUMBEL" \
  --replay-capacity 50000 --learning-rate 0.001 \
  --evaluation-every 0 --snapshot-every 0 --seed "$SEED" --no-progress \
  "${HOURS_FLAG[@]}" >>"$LOG" 2>&1
STATUS=$?
[ -n "$GPU_LOGGER" ] && kill "$GPU_LOGGER" 2>/dev/null
rm -f "$OUT"/.*.part "$OUT"/.*.tmp 2>/dev/null  # a write cut by the kill
echo "exit status $STATUS after $(elapsed) s" >>"$LOG"
ls -la "$OUT" >>"$LOG"
tail -n 25 "$LOG"
exit "$STATUS"
