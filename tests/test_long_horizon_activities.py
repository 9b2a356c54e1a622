"""The long-horizon activity tasks (``envs/long_horizon_activities.py``): what the catalogue tests (oracle, doing
nothing, determinism, the RL and LLM views) do not check — partial credit on the way, and checks that tell a near
miss from the goal."""

from __future__ import annotations

import shlex

import gymnasium as gym
import pytest

import android_gym
from android_gym.device import state
from android_gym.envs import expense, opentracks, osmand
from android_gym.envs import long_horizon as lh
from android_gym.envs import long_horizon_activities as lha
from android_gym.envs import retro_music as retro
from android_gym.tasks import SubgoalTask
from android_gym.tasks.oracle import OraclePolicy

TASKS = sorted(cls.name for cls in vars(lha).values()
               if isinstance(cls, type) and issubclass(cls, SubgoalTask) and cls.name)


@pytest.fixture
def make():
    """``make(task)``: the task's env on the small screen without pixels, reset at seed 0; closed afterwards."""
    made = []

    def factory(task: str) -> gym.Env:
        env = gym.make(android_gym.env_id(task), device="sim:270x600", pixels=False)
        made.append(env)
        env.reset(seed=0)
        return env

    yield factory
    for env in made:
        env.close()


def test_the_module_has_its_tasks_in_the_long_horizon_suite():
    from android_gym.evaluation.suite import long_horizon_tasks

    assert len(TASKS) >= 14 and set(TASKS) <= set(long_horizon_tasks())


@pytest.mark.parametrize("task", TASKS)
def test_an_oracle_earns_partial_credit_on_the_way_with_sub_goals_in_order(task):
    """Sub-goals are met one after another (a multi-select can meet two in one step, as Retro's playlist of several
    songs does), so a prefix of the oracle earns partial credit."""
    env = gym.make(android_gym.env_id(task), device="sim:270x600", pixels=False)
    try:
        _, info = env.reset(seed=0)
        policy, scores, reached, ended = OraclePolicy(env.unwrapped.task.oracle()), [], [], False
        while not ended:
            _, _, terminated, truncated, info = env.step(policy.act(info["ui_elements"]))
            scores.append(info["score"])
            reached.append(list(env.unwrapped.task.subgoal_scores))
            ended = terminated or truncated
    finally:
        env.close()
    assert scores[-1] == 1.0
    assert any(0.0 < score < 1.0 for score in scores[:-1]), scores
    firsts = [next(step for step, subgoals in enumerate(reached) if subgoals[k] >= 1.0)
              for k in range(len(reached[-1]))]
    assert firsts == sorted(firsts), firsts


def test_mentions_reads_amounts_by_value_and_words_whole_without_accents():
    assert lh.mentions("I paid $30.10, thanks", "30.1") and lh.mentions("total: 1,204.5", "1204.50")
    assert not lh.mentions("I paid 130.1", "30.1") and not lh.mentions("I paid 30.15", "30.1")
    assert lh.mentions("It makes 3-4 servings.", "3-4 servings")
    assert lh.mentions("See you in Schonberg!", "Schönberg") and not lh.mentions("Schonbergen", "Schönberg")
    assert not lh.mentions("Quick Sweaty", "Quick Sweat") and not lh.mentions("1:39:001", "1:39:00")


def _sent(device, number: str, body: str) -> None:
    """A text sent to ``number`` (a row of the SMS store, as the app writes it)."""
    result = device.shell(f"content insert --uri content://sms/sent --bind address:s:{shlex.quote(number)} "
                          f"--bind body:s:{shlex.quote(body)} --bind read:i:1")
    assert result.ok, result.output


def test_a_text_with_a_near_miss_amount_or_to_someone_else_does_not_count(make):
    env = make("ExpenseAmountToTextNoteAndEvent")
    task, device = env.unwrapped.task, env.unwrapped.device
    texted = task.subgoals()[0].check
    cents = task.params["target"]["amount"]
    _sent(device, task.params["friend_number"], f"It was {expense.two_decimals(cents + 1)}")
    _sent(device, task.params["people"][1][1], f"It was {expense.two_decimals(cents)}")
    assert texted(device) == 0.0
    _sent(device, task.params["friend_number"], f"It was {expense.two_decimals(cents)}")
    assert texted(device) == 1.0


def test_an_expense_a_cent_off_is_not_the_share(make):
    env = make("TextedBillToExpenseNoteAndReply")
    task, device = env.unwrapped.task, env.unwrapped.device
    logged = task.subgoals()[1].check
    row = task.params["row"]
    expense.EXPENSES.insert(device, [{**row, "amount": row["amount"] + 1}])
    assert logged(device) == 0.0
    expense.EXPENSES.insert(device, [row])
    assert logged(device) == 1.0


def test_a_favourite_named_right_in_another_town_is_not_the_place(make):
    env = make("EventPlaceToFavouriteMarkerAndText")
    task, device = env.unwrapped.task, env.unwrapped.device
    saved = task.subgoals()[0].check
    elsewhere = next(point for point in osmand.LOCATIONS.values() if list(point) != task.params["point"])
    osmand.OsmAndMarkFavorite({"favourites": [[task.params["outing"], *elsewhere]]}).seed_state(device)
    assert saved(device) == 0.0
    osmand.OsmAndMarkFavorite({"favourites": [[task.params["outing"], *task.params["point"]]]}).seed_state(device)
    assert saved(device) == 1.0


def test_a_playlist_in_the_wrong_order_is_only_started(make):
    env = make("NotedSongsToPlaylistAndText")
    task, device = env.unwrapped.task, env.unwrapped.device
    started, complete = (subgoal.check for subgoal in task.subgoals()[:2])
    wanted = task.params["wanted"]
    retro.seed_playlists(device, {task.params["playlist"]: [wanted[0], *reversed(wanted[1:])]})
    assert (started(device), complete(device)) == (1.0, 0.0)


def test_the_place_in_another_activitys_description_does_not_count(make):
    env = make("EventPlaceToTrackDescriptionAndText")
    task, device = env.unwrapped.task, env.unwrapped.device
    described = task.subgoals()[0].check
    place, name = task.params["event"]["location"], task.params["track"]
    update = "UPDATE tracks SET description = ? WHERE name = ?"
    other = next(row["name"] for row in opentracks.TRACKS_TABLE.rows(device) if row["name"] != name)
    state.sqlite_execute(device, opentracks.TRACKS_TABLE.db_path, update, (place, other))
    assert described(device) == 0.0
    state.sqlite_execute(device, opentracks.TRACKS_TABLE.db_path, update, (place, name))
    assert described(device) == 1.0
