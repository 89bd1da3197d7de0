"""One torch thread in these tests: pytest-xdist already runs one worker per core, and
oversubscribed OpenMP threads spin instead of working."""

from __future__ import annotations

import torch

torch.set_num_threads(1)
