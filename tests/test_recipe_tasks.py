"""Broccoli recipe tasks: AndroidWorld's parameters and goals, exact success checks (a wrong or extra change scores
0), noise rows in the UI, and ``reveal_rows`` for the information-retrieval tasks."""

from __future__ import annotations

import numpy as np
import pytest

import android_gym
from android_gym.actions import Action, ActionType
from android_gym.envs.recipe import (
    RECIPES,
    add_recipe,
    by_title,
    delete_open_recipe,
    open_recipe,
    random_recipes,
    recipe_row,
    recipes_text,
    reveal_rows,
)
from android_gym.tasks.oracle import OracleError, complete, open_app
from android_gym.testing import play_on_device, play_steps, replay_oracle_ids
from android_gym.wrappers import make_rl_env


def params(task: str, seed: int) -> dict:
    return android_gym.get_task(task).generate_params(np.random.default_rng(seed))


@pytest.mark.parametrize("seed", range(4))
def test_parameters_follow_androidworld(seed):
    single = params("RecipeDeleteSingleWithRecipeWithNoise", seed)
    titles = [row["title"] for row in single["noise"] + single["targets"]]
    assert len(single["noise"]) == 29 and len(single["targets"]) == 1 and len(set(titles)) == 30
    constraint = params("RecipeDeleteMultipleRecipesWithConstraint", seed)
    ingredient = constraint["ingredient"]
    assert len(constraint["targets"]) == 3 and len(constraint["noise"]) == 29
    assert all(ingredient in row["directions"].lower() for row in constraint["targets"])
    assert all(ingredient not in row["directions"].lower() for row in constraint["noise"])
    for task, noise in (("RecipeDeleteDuplicateRecipes", 5), ("RecipeDeleteDuplicateRecipes2", 10),
                        ("RecipeDeleteDuplicateRecipes3", 30)):
        drawn = params(task, seed)
        target = drawn["targets"][0]
        assert drawn["targets"] == [target, target] and len(drawn["noise"]) == noise
        assert target not in drawn["noise"]
    look_alikes = params("RecipeDeleteDuplicateRecipes2", seed)
    assert all(row["title"] == look_alikes["targets"][0]["title"] for row in look_alikes["noise"][6:])
    hard = params("RecipeDeleteDuplicateRecipes3", seed)
    key = (hard["targets"][0]["title"], hard["targets"][0]["description"])
    assert [row["title"] for row in hard["noise"][21:24]] == ["Avocado Toast with Egg"] * 3
    assert all((row["title"], row["description"]) == key for row in hard["noise"][24:])
    add = params("RecipeAddMultipleRecipes", seed)
    assert len(add["recipes"]) == 3 and len(add["noise"]) == 10 and add["text_format"] in ("csv", "text_block")
    assert params("RecipeAddMultipleRecipes", seed) == add  # seeded


def test_goals_are_androidworlds():
    task_class = android_gym.get_task("RecipeDeleteMultipleRecipes")
    task = task_class({"noise": [], "targets": [recipe_row("A"), recipe_row("B")]})
    assert task.goal == "Delete the following recipes from Broccoli app: A, B."
    row = recipe_row("Soup", "Hot.", "2 servings", "10 mins", "", "n/a", "Boil.")
    assert recipes_text([row], "csv") == ("title|description|servings|preparationTime|ingredients|directions\n"
                                          "Soup|Hot.|2 servings|10 mins|n/a|Boil.")
    assert recipes_text([row, row], "text_block") == (
        "Recipe: Soup\n description: Hot.\n servings: 2 servings\n preparationTime: 10 mins\n ingredients: n/a\n"
        " directions: Boil.\n\nRecipe: Soup\n description: Hot.\n servings: 2 servings\n preparationTime: 10 mins\n"
        " ingredients: n/a\n directions: Boil.\n")
    add = android_gym.get_task("RecipeAddSingleRecipe")({"recipes": [row], "noise": [], "text_format": "csv"})
    assert add.goal.startswith("Add the following recipes into the Broccoli app:\ntitle|description|")


def test_deleting_the_wrong_recipe_scores_zero(reset_task):
    env, info = reset_task("RecipeDeleteSingleWithRecipeWithNoise", seed=3)
    drawn = info["params"]
    steps = [open_app("Broccoli"), *open_recipe(drawn["noise"][5]), *delete_open_recipe()]
    info, invalid = play_steps(env, info, steps)
    assert not invalid and info["score"] == 0.0
    info, invalid = play_steps(env, info, [*open_recipe(drawn["targets"][0]), *delete_open_recipe()])
    assert not invalid and info["score"] == 0.0  # the target is gone too, but so is another recipe
    assert len(RECIPES.rows(env.unwrapped.device)) == 28


def test_only_one_copy_of_a_duplicate_may_go(reset_task):
    env, info = reset_task("RecipeDeleteDuplicateRecipes2", seed=1)
    target = info["params"]["targets"][0]
    info, _ = play_steps(env, info, [open_app("Broccoli"), *open_recipe(target), *delete_open_recipe()])
    assert info["score"] == 1.0  # the episode ends here: the other copy goes past it
    assert play_on_device(env, [*open_recipe(target), *delete_open_recipe()]) == 0.0


def test_a_wrong_or_an_extra_recipe_scores_zero(reset_task):
    env, info = reset_task("RecipeAddSingleRecipe", seed=2)
    wanted = info["params"]["recipes"][0]
    wrong = dict(wanted, servings="feeds a crowd")  # "12 servings" would pass: the match is fuzzy
    info, invalid = play_steps(env, info, [open_app("Broccoli"), *add_recipe(wrong)])
    assert not invalid and info["score"] == 0.0
    info, invalid = play_steps(env, info, [lambda _: Action(ActionType.NAVIGATE_BACK), *add_recipe(wanted)])
    assert not invalid and info["score"] == 0.0  # the right recipe, but an extra one too
    assert len(RECIPES.rows(env.unwrapped.device)) == 12


def test_noise_rows_appear_in_the_list_which_scrolls(reset_task):
    env, info = reset_task("RecipeDeleteMultipleRecipesWithNoise", seed=0)
    info, _ = play_steps(env, info, [open_app("Broccoli")])
    expected = sorted((row["title"] for row in info["params"]["noise"] + info["params"]["targets"]), key=str.lower)
    seen: list[str] = []
    for _ in range(20):
        titles = [e.text for e in info["ui_elements"] if e.resource_name.endswith("card_text_view_title")]
        seen += [title for title in titles if title not in seen]
        if seen[-1] == expected[-1]:
            break
        lists = [e for e in info["ui_elements"] if e.is_scrollable]
        _, _, _, _, info = env.step(Action(ActionType.SCROLL, index=lists[0].index, direction="down"))
    assert len(titles) < 10 and seen == expected


def test_reveal_rows_opens_each_rows_details_among_many(reset_task):
    rng = np.random.default_rng(7)
    noise = random_recipes(rng, 29) + [recipe_row("Zesty Tofu", "Mine.", "1 serving", "5 mins", "my notes",
                                                  "1 block tofu\n2 limes", "Press.\nFry.")]
    env, info = reset_task("RecipeDeleteSingleWithRecipeWithNoise", params={"noise": noise, "targets": noise[:1]})
    rows = RECIPES.rows(env.unwrapped.device)
    shown = [rows[-1], rows[15], rows[0], rows[-2]]  # the target (a copy of noise), noise, the hand-made one
    info, invalid = play_steps(env, info, [*reveal_rows(shown), complete()])
    assert not invalid
    details = {e.resource_name.rsplit("/", 1)[-1]: e.text for e in info["ui_elements"]}
    last = by_title(shown)[-1]  # the rows are met in the list's order
    assert details["details_title"] == last["title"]
    assert details["details_servings"] == last["servings"]
    # open; one pass down the list (a scroll moves it by two cards or more); open and back per row; complete
    assert info["actions"] <= 1 + len(rows) // 2 + 2 * len(shown) + 1
    assert info["score"] == 0.0  # only looked


def test_reveal_rows_fails_for_a_recipe_that_is_not_there(reset_task):
    env, info = reset_task("RecipeDeleteSingleRecipe", seed=0)
    with pytest.raises(OracleError, match="Nowhere Stew"):
        play_steps(env, info, reveal_rows([recipe_row("Nowhere Stew", "Hidden.")]))


@pytest.mark.parametrize("task, config", [
    # too short to tell three look-alike cards apart: the oracle searches the title it read on the cards
    ("RecipeDeleteMultipleRecipesWithConstraint",
     {"phone": "small_phone", "font_scale": 0.85, "language": "fr-FR", "navigation": "gestures"}),
    # two fields above the keyboard: ENTER moves from field to field instead of a scroll and a tap each
    ("RecipeAddMultipleRecipesFromMarkor2", {"phone": "small_phone", "font_scale": 1.3, "dark_theme": True}),
])
def test_the_rl_view_replays_the_oracle_on_a_small_phone_within_the_budget(task, config):
    """The oracle types only what the screens showed, so each of its steps has an RL id, and it fits the step
    budget (10 x complexity) where a small screen shows little."""
    env = make_rl_env(android_gym.env_id(task), device_config=config)
    try:
        result, stopped = replay_oracle_ids(env, seed=0)
        assert stopped is None and result.score == 1.0 and not result.truncated, (stopped, result.steps)
    finally:
        env.close()
