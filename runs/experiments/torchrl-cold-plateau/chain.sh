#!/usr/bin/env bash
# Each checkpoint of the zoo's cold torchrl run at 2 CPU-h (seed 1) against the one
# 250k env steps before it and against the first (250k env steps); 100 games each,
# the 9x9 opening book, colours alternating, seed 1. Run from the repository root.
set -euo pipefail
D=runs/zoo/torchrl-s1-2h
P=python:agents.training.torch_policy:load_agent,path=$D
prev=""
for c in $(ls $D/policy-0*.pt | xargs -n1 basename); do
  if [ -n "$prev" ]; then
    s=$(gomoku arena $P/$c $P/$prev --board-size 9 --seed 1 --games 100 --no-progress 2>&1 | grep '^score')
    s0=$(gomoku arena $P/$c $P/policy-000250119.pt --board-size 9 --seed 1 --games 100 --no-progress 2>&1 | grep '^score')
    echo "$c vs prev: $s | vs 250k: $s0"
  fi
  prev=$c
done
