"""NetworkEvaluator: a PolicyValueNet behind the search core's Evaluator seam.

The search hands over a batch of leaves (from one search or many stepped together) and
gets priors and values back in one network call. Priors are a softmax over the legal
cells only. An optional cache keyed by the position's bytes spares the network the
transpositions and repeated positions that self-play and tree reuse run into.
"""

from __future__ import annotations

import os
from collections import OrderedDict

import numpy as np
import torch

from agents.alphazero.network import (
    PolicyValueNet,
    masked_log_softmax,
    planes_to_tensor,
)
from gomoku_env.fields import check_number


def default_threads() -> int:
    """Threads for CPU inference: at most 2, since small batches gain nothing beyond,
    and no more than ``OMP_NUM_THREADS`` when it is set (the arena's worker processes
    set it to their share of the CPUs, so two games on two cores do not fight)."""
    share = os.environ.get("OMP_NUM_THREADS", "")
    cpus = int(share) if share.isdigit() and int(share) > 0 else os.cpu_count() or 1
    return max(1, min(2, cpus))


def configure_threads(threads: int | None) -> None:
    """Set torch's CPU thread count (``None``: :func:`default_threads`)."""
    if threads is None:
        threads = default_threads()
    check_number("threads", threads, minimum=1, integer=True)
    if torch.get_num_threads() != threads:
        torch.set_num_threads(threads)


class NetworkEvaluator:
    """Batched priors and values from a network: the search's ``Evaluator``.

    Args:
        network: the policy-value network; put in eval mode here.
        device: where the network runs (its parameters are moved there).
        cache_size: positions remembered (least recently used dropped first); 0: none.
    """

    def __init__(
        self,
        network: PolicyValueNet,
        device: torch.device | str = "cpu",
        cache_size: int = 0,
    ) -> None:
        check_number("cache_size", cache_size, minimum=0, integer=True)
        self.device = torch.device(device)
        self.network = network.to(self.device).eval()
        self.cache_size = cache_size
        self._cache: OrderedDict[bytes, tuple[np.ndarray, float]] = OrderedDict()
        self.evaluations = 0
        self.network_calls = 0
        self.cache_hits = 0

    def evaluate(
        self, planes: np.ndarray, masks: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Priors (batch, cells) over legal cells, values (batch,) for the mover."""
        planes = np.asarray(planes)
        masks = np.asarray(masks)
        if planes.ndim != 4 or masks.shape != (
            planes.shape[0],
            planes.shape[1] * planes.shape[2],
        ):
            raise ValueError(
                f"expected planes (batch, H, W, C) and masks (batch, H*W), got "
                f"{planes.shape} and {masks.shape}"
            )
        if self.cache_size == 0:
            return self._run_network(planes, masks)
        return self._evaluate_cached(planes, masks)

    def _run_network(
        self, planes: np.ndarray, masks: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        self.evaluations += len(planes)
        self.network_calls += 1
        with torch.inference_mode():
            logits, values = self.network(planes_to_tensor(planes, self.device))
            mask_tensor = torch.from_numpy(np.ascontiguousarray(masks)).to(self.device)
            priors = masked_log_softmax(logits, mask_tensor).exp() * (mask_tensor != 0)
        return (
            priors.cpu().numpy().astype(np.float32, copy=False),
            values.cpu().numpy().astype(np.float32, copy=False),
        )

    def _evaluate_cached(
        self, planes: np.ndarray, masks: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        keys = [planes[i].tobytes() + masks[i].tobytes() for i in range(len(planes))]
        out_priors = np.empty(masks.shape, dtype=np.float32)
        out_values = np.empty(len(keys), dtype=np.float32)
        missing = []
        for i, key in enumerate(keys):
            if key in self._cache:
                out_priors[i], out_values[i] = self._cache[key]
                self._cache.move_to_end(key)
            else:
                missing.append(i)
        self.cache_hits += len(keys) - len(missing)
        if missing:
            out_priors[missing], out_values[missing] = self._run_network(
                planes[missing], masks[missing]
            )
            for index in missing:
                self._remember(
                    keys[index], out_priors[index].copy(), float(out_values[index])
                )
        return out_priors, out_values

    def forget(self) -> None:
        """Empty the cache: the network's outputs differ in the last bits with the
        batch a position is evaluated in, so a cache filled by earlier games would make
        a game's moves depend on the games played before it in the same process."""
        self._cache.clear()

    def _remember(self, key: bytes, priors: np.ndarray, value: float) -> None:
        self._cache[key] = (priors, value)
        self._cache.move_to_end(key)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
