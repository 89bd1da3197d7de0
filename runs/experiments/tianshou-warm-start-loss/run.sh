#!/usr/bin/env bash
# Does exploration or the Q regression undo Tianshou's warm start? Short runs from the
# same 8,000-game warm start (seed 1, 150,000 env steps): the example's exploration
# (epsilon 0.5 falling to 0.05 over the run), almost none (0.05 throughout), and almost
# none at a tenth of the learning rate; then the example's exploration with Q-values read
# as the value plus 0.1 times the policy's log-probabilities (--soft-q-temperature). Each
# final network then plays 100 games against heuristic. `bash run.sh NAME` runs one of
# them (all four by default).
set -euo pipefail
cd "$(dirname "$0")"
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
common=(--board-size 9 --win-length 5 --seed 1 --steps 150000 --eval-games 2
        --teacher-games 8000 --channels 48 --layers 5 --border)
declare -A flags=(
  [explore]="--epsilon-start 0.5"
  [greedy]="--epsilon-start 0.05"
  [greedy-lr1e-4]="--epsilon-start 0.05 --learning-rate 1e-4"
  [soft-q]="--soft-q-temperature 0.1"
)
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(explore greedy greedy-lr1e-4 soft-q)
for run in "${runs[@]}"; do
  # shellcheck disable=SC2086
  python ../../../examples/tianshou_dqn.py "${common[@]}" ${flags[$run]} \
    --policy-path "$run/policy.pt" > "$run.log" 2>&1
  gomoku arena "python:agents.training.torch_policy:load_agent,path=$run/policy.pt" \
    heuristic --board-size 9 --seed 1 --games 100 --no-progress > "$run-vs-heuristic.txt" 2>&1
done
