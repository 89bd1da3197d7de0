"""What the overlay shows: samples of a running search, and each agent's final report."""

import threading

import numpy as np

import gomoku_env
from agents.specs import make_agent
from gomoku_apps.web.insight import final_insight, live_insight
from gomoku_env import GameConfig


def first_observation(size=9):
    env = gomoku_env.env(board_size=size)
    env.reset(seed=0)
    return env.last()[0]


def test_a_tree_search_reports_visits_value_and_line():
    agent = make_agent("mcts:simulations=300", GameConfig(9), seed=0)
    action = agent.act(first_observation())
    insight = final_insight(agent, 9)
    heat = np.array(insight["heat"])
    assert heat.shape == (81,) and heat.max() == 1.0 and heat.argmax() == action
    assert insight["pv"][0] == gomoku_env.notation.action_to_notation(action, 9)
    assert -1 <= insight["value"] <= 1 and "300 simulations" in insight["text"]


def test_a_search_is_sampled_while_it_runs():
    agent = make_agent("mcts:simulations=1000000,time=1.5", GameConfig(9), seed=0)
    samples, done = [], threading.Event()

    def sample():
        while not done.wait(0.05):
            insight = live_insight(agent, 9)
            if insight is not None:
                samples.append(insight)

    sampler = threading.Thread(target=sample)
    sampler.start()
    agent.act(first_observation())
    done.set()
    sampler.join()
    assert len(samples) >= 2
    assert all(len(sample["heat"]) == 81 and sample["pv"] for sample in samples)
    assert "visits so far" in samples[0]["text"]


def test_pattern_agents_report_their_line_and_random_nothing():
    heuristic = make_agent("heuristic", GameConfig(9), seed=0)
    move = heuristic.act(first_observation())
    insight = final_insight(heuristic, 9)
    assert np.argmax(insight["heat"]) == move and insight["value"] is None
    assert "score" in insight["text"]
    random = make_agent("random", GameConfig(9), seed=0)
    random.act(first_observation())
    assert final_insight(random, 9) is None and live_insight(random, 9) is None
