#!/usr/bin/env bash
# Does exploration or the Q regression undo Tianshou's warm start? Two short runs from
# the same 8,000-game warm start (seed 1, 150,000 env steps): the example's exploration
# (epsilon 0.5 falling to 0.05 over the run) and almost none (0.05 throughout); each
# final network then plays 100 games against heuristic, as does the warm start alone.
set -euo pipefail
cd "$(dirname "$0")"
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
common=(--board-size 9 --win-length 5 --seed 1 --steps 150000 --eval-games 2
        --teacher-games 8000 --channels 48 --layers 5 --border)
for variant in "explore:0.5" "greedy:0.05"; do
  name=${variant%%:*}; start=${variant##*:}
  python ../../../examples/tianshou_dqn.py "${common[@]}" --epsilon-start "$start" \
    --policy-path "$name/policy.pt" > "$name.log" 2>&1
done
for policy in explore/policy.pt greedy/policy.pt; do
  gomoku arena "python:agents.training.torch_policy:load_agent,path=$policy" heuristic \
    --board-size 9 --seed 1 --games 100 --no-progress > "${policy%%/*}-vs-heuristic.txt" 2>&1
done
