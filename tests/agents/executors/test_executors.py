"""Executors: the same results in this process, in local processes and on Ray; a worker
that dies is replaced and loses no item; Ray is asked for only when wanted."""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from agents.executors import (
    InlineExecutor,
    ProcessExecutor,
    WorkerLostError,
    open_executor,
)
from agents.executors.ray_cluster import RayExecutor, check_reachable
from tests.agents.executors.work import (
    DieOnce,
    ReadShared,
    exit_process,
    refuse_negative,
    slow_square,
    square,
    thread_share,
)

REPOSITORY = Path(__file__).resolve().parents[3]
ITEMS = list(range(-3, 9))
SQUARES = {position: number * number for position, number in enumerate(ITEMS)}


def test_inline_and_process_pools_give_every_result_once() -> None:
    with InlineExecutor() as inline:
        assert list(inline.map_unordered(square, ITEMS)) == list(SQUARES.items())
    with ProcessExecutor(2) as pool:
        assert dict(pool.map_unordered(square, ITEMS)) == SQUARES
        shared = pool.share(100)
        assert dict(pool.map_unordered(ReadShared(shared), [1, 2])) == {0: 101, 1: 102}


def test_workers_split_the_cpus_unless_the_user_set_a_share(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.setattr("os.cpu_count", lambda: 8)
    with ProcessExecutor(4) as pool:
        assert set(dict(pool.map_unordered(thread_share, [1, 2])).values()) == {"2"}
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    with ProcessExecutor(2) as pool:
        assert set(dict(pool.map_unordered(thread_share, [1, 2])).values()) == {"3"}


def test_a_dead_local_worker_is_a_worker_lost_error() -> None:
    with ProcessExecutor(2) as pool, pytest.raises(WorkerLostError):
        dict(pool.map_unordered(exit_process, ITEMS))


def test_bad_worker_counts_name_the_value() -> None:
    with pytest.raises(ValueError, match="jobs must be an int >= 1, got 0"):
        open_executor(jobs=0)
    with pytest.raises(ValueError, match="workers must be an int >= 1, got -1"):
        ProcessExecutor(-1)


def test_nothing_imports_ray_unless_asked() -> None:
    program = (
        "import sys\n"
        "from gomoku_apps.cli.main import main\n"
        "import agents.alphazero.trainer, agents.alphazero.selfplay_workers\n"
        "assert main(['arena', 'random', 'random', '--board-size', '7',\n"
        "             '--games', '2', '--jobs', '2', '--no-progress']) == 0\n"
        "assert 'ray' not in sys.modules, 'ray was imported'\n"
    )
    finished = subprocess.run(
        [sys.executable, "-c", program],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert finished.returncode == 0, finished.stderr


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("127.0.0.1:1", "cannot reach a Ray head at '127.0.0.1:1'"),
        ("ray://127.0.0.1:1", "cannot reach a Ray head at 'ray://127.0.0.1:1'"),
        ("headnode", "a Ray address is HOST:PORT.*got 'headnode'"),
        ("host:port", "a Ray address is HOST:PORT.*got 'host:port'"),
    ],
)
def test_an_address_without_a_ray_head_is_refused_at_once(
    address: str, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        check_reachable(address)
    check_reachable("auto")  # Ray finds these itself
    check_reachable("local")


def test_without_ray_installed_asking_for_it_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ValueError, match=r"pip install -e '\.\[ray\]'"):
        open_executor(ray="local")
    with InlineExecutor() as inline:  # everything else works without it
        assert dict(inline.map_unordered(square, [3])) == {0: 9}


@pytest.mark.usefixtures("ray_cluster")
class TestRay:
    def test_ray_gives_the_same_results_and_shared_values(self) -> None:
        with RayExecutor(workers=2) as executor:
            assert executor.workers == 2
            assert dict(executor.map_unordered(square, ITEMS)) == SQUARES
            shared = executor.share(100)
            reader = ReadShared(shared)
            assert dict(executor.map_unordered(reader, [1, 2])) == {0: 101, 1: 102}

    def test_an_actor_killed_mid_run_is_replaced_and_loses_no_item(
        self, ray_cluster
    ) -> None:
        with RayExecutor(workers=2) as executor:
            results = {}
            for position, result in executor.map_unordered(slow_square, ITEMS):
                if not results:  # items are still queued on both actors
                    ray_cluster.kill(executor.actors[0])
                results[position] = result
            assert results == SQUARES
            assert executor.replaced == 1
            # The pool works on with its new actor.
            assert dict(executor.map_unordered(square, ITEMS)) == SQUARES

    def test_a_worker_whose_item_ends_its_process_is_replaced(
        self, tmp_path: Path
    ) -> None:
        marker = tmp_path / "died"
        with RayExecutor(workers=2) as executor:
            results = dict(executor.map_unordered(DieOnce(str(marker)), ITEMS))
            assert results == SQUARES
            assert marker.exists() and executor.replaced == 1

    def test_an_item_that_always_kills_its_worker_is_given_up(self) -> None:
        with RayExecutor(workers=1, max_retries=1) as executor:
            with pytest.raises(WorkerLostError) as lost:
                dict(executor.map_unordered(exit_process, [5]))
            assert lost.value.position == 0 and lost.value.tries == 2

    def test_workers_that_cannot_import_our_code_say_so(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # A module only this process can import, as on a machine without gomoku_env.
        (tmp_path / "only_here.py").write_text("def goodbye():\n    pass\n")
        monkeypatch.syspath_prepend(str(tmp_path))
        from only_here import goodbye

        with pytest.raises(ValueError, match=r"No module named 'only_here'.*installed"):
            RayExecutor(workers=1, worker_exit=goodbye)

    def test_more_workers_than_cpus_is_refused(self) -> None:
        with pytest.raises(
            ValueError, match=r"3 Ray workers need one CPU each.* has 2"
        ):
            RayExecutor(workers=3)

    def test_an_error_in_the_work_reaches_the_caller_as_it_was(self) -> None:
        with (
            RayExecutor(workers=1) as executor,
            pytest.raises(ValueError, match="negative: -3"),
        ):
            dict(executor.map_unordered(refuse_negative, [1, -3]))


def test_the_docstring_example_runs_as_written() -> None:
    import agents.executors

    result = doctest.testmod(agents.executors)
    assert result.attempted > 0 and result.failed == 0


class _RayStartedThenInterrupted:
    """Stands in for the ``ray`` module: a Ctrl-C arrives while ``stage`` runs."""

    class exceptions:  # noqa: N801 - the name of ray's own submodule
        class RayActorError(Exception):
            pass

    def __init__(self, stage: str) -> None:
        self.stage, self.calls = stage, []

    def is_initialized(self) -> bool:
        return False

    def init(self, **options: object) -> None:
        self.calls.append("init")
        if self.stage == "init":
            raise KeyboardInterrupt

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": 2.0}

    def remote(self, **options: object):
        return lambda cls: type("Actor", (), {"remote": staticmethod(self._actor)})

    def _actor(self, *arguments: object) -> SimpleNamespace:
        self.calls.append("actor")
        return SimpleNamespace(ready=SimpleNamespace(remote=lambda: "ready"))

    def get(self, references: object) -> None:
        raise KeyboardInterrupt  # while waiting for the workers to answer

    def kill(self, actor: object) -> None:
        self.calls.append("kill")

    def shutdown(self) -> None:
        self.calls.append("shutdown")


@pytest.mark.parametrize("stage", ["init", "workers"])
def test_a_ctrl_c_while_ray_starts_leaves_no_ray_behind(
    monkeypatch: pytest.MonkeyPatch, stage: str
) -> None:
    fake = _RayStartedThenInterrupted(stage)
    monkeypatch.setattr("agents.executors.ray_cluster.import_ray", lambda: fake)
    with pytest.raises(KeyboardInterrupt):
        RayExecutor("local", workers=2)
    assert fake.calls[-1] == "shutdown"
    if stage == "workers":
        assert fake.calls == ["init", "actor", "actor", "kill", "kill", "shutdown"]
