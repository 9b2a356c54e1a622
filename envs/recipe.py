"""Broccoli recipe tasks (AndroidWorld ``task_evals/single/recipe.py`` with ``common_validators/sqlite_validators.py``
and ``utils/sqlite_schema_utils.py``).

Every task starts from an emptied ``recipes`` table with its rows inserted as AndroidWorld inserts them (noise
first, then the targets, all columns but ``recipeId``), and is checked on the table: added rows must pair one to
one with the requested recipes (text fields fuzzily, ``favorite`` exactly) and deleted rows must be exactly the
targets, every other row untouched.

One deviation: ``RecipeDeleteMultipleRecipesWithConstraint`` draws its ingredient only among those some recipe's
directions contain (79 of AndroidWorld's 120). For the other 41 AndroidWorld ends up with no target at all
(capitalised ones such as "Parmesan cheese" never match its lower-cased directions, exotic ones appear in no
recipe), so doing nothing would succeed.

Oracles act as a person does: open a recipe from the list (searching for its title when the goal names it, else
scrolling to it, and opening look-alike cards in turn until the details match), delete it from the overflow menu,
or fill in the new-recipe form. What they type is folded to ASCII, as ``adb shell input text`` can type nothing
else.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from android_gym.actions import Action, ActionType
from android_gym.device.base import Device
from android_gym.sim.apps.broccoli import DB_PATH, PACKAGE, direction_items, ingredient_items
from android_gym.tasks import register_task
from android_gym.tasks.draws import Rng, exact_draws, integer_rows
from android_gym.tasks.oracle import (
    OracleError,
    OracleStep,
    Selector,
    act,
    complete,
    expect,
    open_app,
    replace_text,
    scroll_to,
    tap,
    touch_target,
    type_into,
)
from android_gym.tasks.sqlite_rows import AppTable, Row, SqliteRowsTask, rows_added_exactly, rows_removed_exactly
from android_gym.tasks.validators import fuzzy_match, wrapped
from android_gym.ui import UIElement

APP_NAME = "Broccoli"
RECIPES = AppTable(PACKAGE, DB_PATH, "recipes", "recipeId")
#: The text columns AndroidWorld compares fuzzily when checking added recipes (``favorite`` is compared exactly).
FREE_FORM_FIELDS = ("title", "description", "servings", "preparationTime", "source", "ingredients", "directions")
#: The columns the goal of an add task lists, in AndroidWorld's order.
GOAL_FIELDS = ("title", "description", "servings", "preparationTime", "ingredients", "directions")

# AndroidWorld's recipe generator (_generate_random_recipe and its tables).
_DESCRIPTIONS = (
    "A quick and easy meal, perfect for busy weekdays.",
    "A delicious and healthy choice for any time of the day.",
    "An ideal recipe for experimenting with different flavors and ingredients.",
)
_DIRECTIONS_ADDITIONS = (
    "Try adding a pinch of your favorite spices for extra flavor.",
    "Feel free to substitute with ingredients you have on hand.",
    "Garnish with fresh herbs for a more vibrant taste.",
)
_INGREDIENT_DESCRIPTORS = (
    "see directions", "as per recipe", "varies", "to preference", "quantities to taste", "as needed",
    "optional ingredients", "n/a", "various amounts", "adjustable", "to your liking", "flexible ingredients",
    "per individual taste", "as desired", "subject to change",
)
_SERVINGS = ("1 serving", "2 servings", "3-4 servings", "6 servings", "8 servings")
PREP_TIMES = ("10 mins", "20 mins", "30 mins", "45 mins", "1 hrs", "2 hrs", "3 hrs", "4 hrs")
_BASE_RECIPES = (
    ("Spicy Tuna Wraps", "Mix canned tuna with mayo and sriracha. Spread on tortillas, add lettuce and cucumber "
     "slices, roll up."),
    ("Avocado Toast with Egg", "Toast bread, top with mashed avocado, a fried egg, salt, pepper, and chili flakes."),
    ("Greek Salad Pita Pockets", "Fill pita pockets with lettuce, cucumber, tomato, feta, olives, and Greek "
     "dressing."),
    ("Quick Fried Rice", "Sauté cooked rice with vegetables, add soy sauce and scrambled eggs. Toss until hot."),
    ("Pesto Pasta with Peas", "Cook pasta, stir in pesto sauce and cooked peas. Add Parmesan cheese before serving."),
    ("BBQ Chicken Quesadillas", "Mix shredded cooked chicken with BBQ sauce. Place on tortillas with cheese, fold and "
     "cook until crispy."),
    ("Tomato Basil Bruschetta", "Top sliced baguette with a mix of chopped tomatoes, basil, garlic, olive oil, salt, "
     "and pepper."),
    ("Lemon Garlic Tilapia", "Sauté tilapia in butter, add lemon juice and garlic. Serve with steamed vegetables."),
    ("Turkey and Cheese Panini", "Layer turkey and cheese on bread, grill in a panini press until golden."),
    ("Veggie and Hummus Sandwich", "Spread hummus on bread, add cucumber, bell pepper, carrot, and lettuce."),
    ("Mango Chicken Curry", "Cook chicken pieces in a pan, add onions, garlic, and ginger. Stir in curry powder, "
     "coconut milk, and mango pieces. Simmer until chicken is cooked."),
    ("Beef Stir Fry", "Stir-fry beef slices with broccoli, bell peppers, and onions in soy sauce and garlic. Serve "
     "over rice or noodles."),
    ("Shrimp Avocado Salad", "Mix cooked shrimp with avocado, tomatoes, cucumber, and onion. Dress with lime juice, "
     "olive oil, salt, and pepper."),
    ("Spinach and Feta Stuffed Chicken", "Stuff chicken breasts with a mixture of spinach, feta, garlic, and herbs. "
     "Bake until chicken is cooked through."),
    ("Zucchini Noodles with Pesto", "Spiralize zucchini into noodles, sauté with garlic, then mix with pesto sauce. "
     "Top with grated Parmesan cheese."),
    ('Cauliflower Fried "Rice"', "Pulse cauliflower in a food processor until it resembles rice. Sauté with "
     "vegetables, soy sauce, and add scrambled eggs."),
    ("Sweet Potato and Black Bean Tacos", "Roast sweet potato cubes, mix with black beans, and use as filling for "
     "tacos. Top with avocado and cilantro lime sauce."),
    ("Salmon with Dill Sauce", "Bake salmon fillets and serve with a sauce made from Greek yogurt, dill, lemon juice, "
     "and garlic."),
    ("Quinoa Salad with Vegetables", "Mix cooked quinoa with diced vegetables, feta cheese, and a lemon olive oil "
     "dressing."),
    ("Chickpea Vegetable Soup", "Sauté onions, carrots, and celery, add broth, canned tomatoes, and chickpeas. Simmer "
     "with spinach and seasonings."),
    ("Chicken Caesar Salad Wrap", "Toss chopped romaine lettuce with Caesar dressing, grilled chicken strips, and "
     "Parmesan cheese. Wrap in a large tortilla."),
    ("Vegetarian Chili", "Cook onions, garlic, bell peppers, and carrots. Add canned tomatoes, kidney beans, black "
     "beans, corn, and chili seasoning. Simmer until vegetables are tender."),
    ("Pan-Seared Salmon with Quinoa", "Pan-sear salmon fillets until crispy. Serve over cooked quinoa with a side of "
     "steamed asparagus."),
    ("Caprese Salad Skewers", "Thread cherry tomatoes, basil leaves, and mozzarella balls onto skewers. Drizzle with "
     "balsamic glaze."),
    ("Chicken Alfredo Pasta", "Cook fettuccine pasta, toss with Alfredo sauce and grilled chicken strips. Serve with "
     "a sprinkle of Parmesan cheese."),
    ("Stuffed Bell Peppers", "Mix cooked quinoa, black beans, corn, tomato sauce, and spices. Stuff into bell peppers "
     "and bake until tender."),
    ("Eggplant Parmesan", "Slice eggplant, bread, and fry. Layer in a baking dish with marinara sauce and mozzarella "
     "cheese. Bake until bubbly."),
    ("Thai Peanut Noodle Salad", "Toss cooked noodles with a Thai peanut sauce, sliced red bell peppers, cabbage, "
     "carrots, and cilantro."),
    ("Butternut Squash Soup", "Sauté onions and garlic, add cubed butternut squash and broth. Puree until smooth and "
     "season with nutmeg, salt, and pepper."),
    ("Baked Cod with Lemon and Dill", "Place cod fillets in a baking dish, season with lemon juice, dill, salt, and "
     "pepper. Bake until fish flakes easily."),
    ("Vegetable Stir Fry with Tofu", "Stir-fry tofu cubes until golden, add assorted vegetables and a stir-fry sauce. "
     "Serve over rice or noodles."),
    ("Classic Margherita Pizza", "Spread pizza dough with tomato sauce, top with slices of mozzarella cheese and "
     "fresh basil leaves. Bake until crust is golden."),
    ("Raspberry Almond Smoothie", "Blend together raspberries, almond milk, banana, and a scoop of almond butter "
     "until smooth."),
    ("Moroccan Chickpea Stew", "Sauté onions, garlic, carrots, and spices. Add canned chickpeas, diced tomatoes, and "
     "vegetable broth. Simmer until flavors meld."),
    ("Kale and Quinoa Salad", "Toss chopped kale, cooked quinoa, dried cranberries, sliced almonds, and feta cheese "
     "with a lemon vinaigrette."),
    ("Grilled Cheese with Tomato and Basil", "Butter bread slices, layer with cheese, tomato slices, and basil. Grill "
     "until bread is toasted and cheese is melted."),
    ("Sausage and Peppers Skillet", "Sauté sliced sausage, bell peppers, and onions until browned. Serve with mustard "
     "or on a hoagie roll."),
    ("Lentil Soup", "Cook onions, carrots, celery, garlic, and lentils in vegetable broth until lentils are tender. "
     "Season with thyme and bay leaves."),
    ("Garlic Butter Shrimp", "Sauté shrimp in butter and minced garlic until pink. Sprinkle with parsley and serve "
     "with lemon wedges."),
)
_COMMON_INGREDIENTS = (
    "tuna", "mayonnaise", "sriracha", "tortillas", "lettuce", "cucumber", "bread", "avocado", "eggs", "salt",
    "pepper", "chili flakes", "pita bread", "tomatoes", "feta cheese", "olives", "Greek dressing", "rice",
    "vegetables", "soy sauce", "pesto sauce", "peas", "Parmesan cheese", "chicken", "BBQ sauce", "cheese",
    "baguette", "basil", "garlic", "olive oil", "tilapia", "butter", "lemon juice", "turkey", "hummus",
    "bell peppers", "carrots", "mango", "curry powder", "coconut milk", "beef", "broccoli", "onions", "shrimp",
    "spinach", "herbs", "zucchini", "cauliflower", "sweet potato", "black beans", "cilantro", "Greek yogurt", "dill",
    "quinoa", "chickpeas", "romaine lettuce", "Caesar dressing", "Parmesan", "kidney beans", "corn",
    "chili seasoning", "asparagus", "mozzarella balls", "balsamic glaze", "fettuccine", "Alfredo sauce", "quinoa",
    "tomato sauce", "eggplant", "marinara sauce", "mozzarella cheese", "noodles", "Thai peanut sauce",
    "red bell peppers", "cabbage", "butternut squash", "nutmeg", "tofu", "pizza dough", "mozzarella cheese",
    "raspberries", "almond milk", "banana", "almond butter", "lentils", "thyme", "bay leaves", "parsley",
    "lemon wedges", "ghee", "cardamom", "fenugreek", "amchur (dry mango powder)", "rose water",
    "pomegranate molasses", "kaffir lime leaves", "galangal", "lemongrass", "furikake", "black garlic", "hemp seeds",
    "chia seeds", "açai berry", "maca powder", "spirulina", "cassava flour", "arrowroot powder", "seaweed",
    "escargot", "venison", "quail eggs", "duck fat", "morel mushrooms", "chanterelle mushrooms", "black truffle",
    "edible flowers", "salsify", "rutabaga", "celeriac", "finger limes",
)
#: The ingredients that some generated recipe's directions contain (AndroidWorld's test: ``in directions.lower()``).
_MATCHABLE_INGREDIENTS = tuple(
    ingredient for ingredient in _COMMON_INGREDIENTS
    if any(ingredient in f"{directions} {addition}".lower()
           for _, directions in _BASE_RECIPES for addition in _DIRECTIONS_ADDITIONS))
_MAX_DRAWS = 10_000  # get_random_items gives up after this many candidates


def recipe_row(title: str, description: str = "", servings: str = "", preparation_time: str = "", source: str = "",
               ingredients: str = "", directions: str = "") -> Row:
    """A ``recipes`` row as AndroidWorld's ``Recipe`` inserts it: every column but ``recipeId``, no photo, not a
    favorite."""
    return {"title": title, "description": description, "servings": servings, "preparationTime": preparation_time,
            "source": source, "ingredients": ingredients, "directions": directions, "favorite": 0, "imageName": ""}


#: What ``_generate_random_recipe`` draws from, in its order: title, description, servings, preparation time, the
#: sentence added to the directions, ingredients.
_RECIPE_CHOICES = (_BASE_RECIPES, _DESCRIPTIONS, _SERVINGS, PREP_TIMES, _DIRECTIONS_ADDITIONS, _INGREDIENT_DESCRIPTORS)
_CHOICE_COUNTS = [len(choices) for choices in _RECIPE_CHOICES]
#: The row fields ``_variants_of`` matches, each with the choice it comes from and the values of that choice.
_CHOSEN_BY = {"title": (0, [title for title, _ in _BASE_RECIPES]), "description": (1, _DESCRIPTIONS)}


#: Each base recipe's directions with each added sentence.
_DIRECTIONS = tuple(tuple(f"{directions} {addition}" for addition in _DIRECTIONS_ADDITIONS)
                    for _, directions in _BASE_RECIPES)


def _recipe(choices: Sequence[int]) -> Row:
    """The recipe of one draw of each of ``_RECIPE_CHOICES`` (indices into them)."""
    title, description, servings, preparation_time, addition, ingredients = choices
    return recipe_row(_BASE_RECIPES[title][0], _DESCRIPTIONS[description], _SERVINGS[servings],
                      PREP_TIMES[preparation_time], "", _INGREDIENT_DESCRIPTORS[ingredients],
                      _DIRECTIONS[title][addition])


def _pick(rng: Rng, options: Sequence[str]) -> str:
    return options[int(rng.integers(len(options)))]


def random_recipe(rng: Rng) -> Row:
    """``_generate_random_recipe``: one of AndroidWorld's 39 recipes with a random description, servings,
    preparation time, ingredients descriptor and an extra sentence of directions."""
    return _recipe([int(rng.integers(len(choices))) for choices in _RECIPE_CHOICES])


def recipe_draws(rng: Rng) -> Iterator[Row]:
    """``random_recipe`` again and again, its draws worked out in blocks (``draws.integer_rows``: a recipe's draws
    are made when it is taken)."""
    return map(_recipe, integer_rows(rng, _CHOICE_COUNTS))


def random_recipes(rng: Rng, n: int, replacement: bool = False,
                   where: Callable[[Row], bool] = lambda recipe: True) -> list[Row]:
    """``get_random_items``: ``n`` random recipes passing ``where``, no two equal unless ``replacement``."""
    found: list[Row] = []
    if not n:
        return found
    with exact_draws(rng) as draws:
        for candidate in itertools.islice(recipe_draws(draws), _MAX_DRAWS):
            if where(candidate) and (replacement or candidate not in found):
                found.append(candidate)
                if len(found) == n:
                    return found
    raise ValueError(f"could not draw {n} recipes in {_MAX_DRAWS} tries")


def _variants_of(rng: np.random.Generator, target: Row, rows: list[Row], count: int,
                 fields: Sequence[str]) -> list[Row]:
    """AndroidWorld's duplicate-task filler: recipes with the target's ``fields`` (``title``, ``description``), other
    than ``target``, appended to ``rows`` until it has ``count`` (they may repeat each other); each the first of up to
    ``_MAX_DRAWS`` candidates (``random_recipes`` of one), told by the choices drawn before a row is made of them (a
    variant of a title and a description comes once in hundreds)."""
    rows = list(rows)
    (first, kept), *rest = [(index, {i for i, value in enumerate(values) if value == target[field]})
                            for field in fields for index, values in (_CHOSEN_BY[field],)]
    with exact_draws(rng) as draws:
        candidates = integer_rows(draws, _CHOICE_COUNTS)  # one run of draws: the rows a new one per variant would draw
        while len(rows) < count:
            choices = next((choices for choices in itertools.islice(candidates, _MAX_DRAWS) if choices[first] in kept
                            and all(choices[index] in values for index, values in rest)), None)
            if choices is None:
                raise ValueError(f"could not draw a recipe with the {' and '.join(fields)} of {target['title']!r} in "
                                 f"{_MAX_DRAWS} tries")
            value = _recipe(choices)
            if value != target:
                rows.append(value)
    return rows


def recipes_text(rows: Sequence[Mapping[str, Any]], format_type: str, wrap_width: int | None = None) -> str:
    """``get_text_representation_of_rows`` over the goal's fields: ``|``-separated CSV with a header, or one
    "Recipe: <title>" block per recipe (values wrapped at ``wrap_width`` characters, if given)."""
    if format_type == "csv":
        return "\n".join(["|".join(GOAL_FIELDS), *("|".join(str(r[f]) for f in GOAL_FIELDS) for r in rows)])
    blocks = [f"Recipe: {r['title']}\n" + "".join(f" {f}: {wrapped(str(r[f]), wrap_width)}\n" for f in GOAL_FIELDS[1:])
              for r in rows]
    return "\n".join(blocks)


# ----- the UI as the oracles read it ------------------------------------------------------------------------
def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


NEW_RECIPE = Selector(resource_id=_id("fab_recipes"))
SEARCH_ACTION = Selector(resource_id=_id("action_search"))
SEARCH_FIELD = Selector(resource_id=_id("search_src_text"))
RECIPE_LIST = Selector(resource_id=_id("recycler_view"))
SAVE = Selector(resource_id=_id("button_save_recipe"))
FORM = Selector(class_suffix="ScrollView")
MORE_OPTIONS = Selector(content_desc="More options")
DELETE_ITEM = Selector(text="Delete", resource_id=_id("title"))
CONFIRM_DELETE = Selector(text="DELETE", resource_id="android:id/button1")
#: The new-recipe form's fields: (column, resource id).
FORM_FIELDS = (("title", "new_title"), ("description", "new_description"), ("source", "new_source"),
               ("servings", "new_servings"), ("preparationTime", "new_preparation_time"),
               ("ingredients", "new_ingredients"), ("directions", "new_directions"))
_MAX_LOOKS = 12  # cards a person opens, one after the other, looking for a recipe
_MAX_SCROLLS = 16  # half-screen scrolls through the list (eight screens of cards) before searching instead


def _typable(text: str) -> str:
    """``text`` without accents (what ``input text`` can type)."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def _norm(text: str | None) -> str:
    """Whitespace-normalized text (the dump's attribute values carry newlines as spaces)."""
    return " ".join((text or "").split())


def _texts(elements: Sequence[UIElement], name: str) -> list[str]:
    return [e.text or "" for e in elements if e.resource_name == _id(name)]


def _cards_like(elements: Sequence[UIElement], row: Mapping[str, Any]) -> list[UIElement]:
    """The recipe cards on screen showing ``row``'s title and description, top to bottom."""
    title, description = _norm(row["title"]), _norm(row["description"])
    cards, pending = [], None
    for element in elements:
        if element.resource_name == _id("card_text_view_title"):
            pending = element if _norm(element.text) == title else None
        elif element.resource_name == _id("card_text_view_description") and pending is not None:
            if _norm(element.text) == description:
                cards.append(touch_target(pending, elements))
            pending = None
    return cards


def _on_details(elements: Sequence[UIElement]) -> bool:
    return any(e.resource_name == _id("details_title") for e in elements)


def _shows(elements: Sequence[UIElement], row: Mapping[str, Any]) -> bool:
    """Whether the open details screen shows ``row``: title, servings, time, description and source, and the
    ingredient and direction lines that are on screen (the first ones: a long recipe scrolls)."""
    for name, column in (("details_title", "title"), ("details_servings", "servings"),
                         ("details_preparation_time", "preparationTime"), ("details_description", "description"),
                         ("details_source", "source")):
        if [_norm(text) for text in _texts(elements, name)] != ([_norm(row[column])] if _norm(row[column]) else []):
            return False
    quantities, texts = _texts(elements, "ingredient_quantity"), _texts(elements, "ingredient_text")
    ingredients = [_norm(q + t) for q, t in ingredient_items(row["ingredients"] or "")]
    directions = [_norm(line) for line in direction_items(row["directions"] or "")]
    shown_directions = [_norm(text) for text in _texts(elements, "direction_text")]
    return ([_norm(q + t) for q, t in zip(quantities, texts)] == ingredients[:len(texts)]
            and shown_directions == directions[:len(shown_directions)])


def open_recipe(row: Mapping[str, Any], search: bool = False) -> list[OracleStep]:
    """From the recipe list: open the details of a recipe with ``row``'s content. With ``search`` (the goal names
    the recipe) its title is typed into the search first, unless its card is on screen. Then the list is scrolled
    until the last card showing its title and description is on screen (a card with another title follows it, or
    the list ends), and those cards are opened from the last one up (BACK when the details differ; a recipe added
    later lists after its look-alikes). Where the list is too long for that (the look-alikes passed without a
    card after them, none of those on screen is the one, or ``_MAX_SCROLLS`` did not get there), it searches
    for the title read on the cards and opens the look-alikes the search leaves the same way. ``OracleError``
    when it cannot be found.

    Its scrolling is no ``scroll_until``: what it looks for is the end of the run of look-alikes, a card of another
    title after the last or the list's end, which ``scroll_until`` reads only as a reason to turn back (it stops on
    an element found); and the look-alikes it opens are told apart only by their place counted from that end, which
    a scroll of half the list can take off screen, so no screen after it says which card to scroll to. A look-alike
    above the last may thus be tapped cut at the list's top, where the run is longer than the list shows."""
    title = _norm(row["title"])
    state = {"looked": 0, "searched": not search, "settled": False, "narrowed": False, "direction": "down",
             "contents": None, "passing": False, "scrolls": 0}

    def type_search(text: str, elements: Sequence[UIElement]) -> Action:
        if not SEARCH_FIELD.present(elements):
            return tap(SEARCH_ACTION)(elements)
        state.update(looked=0, settled=False, contents=None, passing=False)
        return replace_text(SEARCH_FIELD, text)(elements)

    def narrow(elements: Sequence[UIElement]) -> Action:
        if state["narrowed"] and SEARCH_FIELD.present(elements):
            raise OracleError(f"no recipe on screen shows {row['title']!r}")
        action = type_search(_typable(row["title"]), elements)
        if action.action_type is ActionType.INPUT_TEXT:  # what it finds are the look-alikes, told apart as before
            state.update(narrowed=True, scrolls=0, direction="down")
        return action

    def settle(elements: Sequence[UIElement], cards: Sequence[UIElement]) -> Action | None:
        """Scroll towards the end of the look-alikes; ``None`` once it is on screen."""
        contents = tuple((e.text, e.bbox_pixels.y_min) for e in elements
                         if e.resource_name == _id("card_text_view_title"))
        at_end, state["contents"] = bool(contents) and contents == state["contents"], contents
        if cards:
            following = [_norm(e.text) for e in elements[cards[-1].index + 1:]
                         if e.resource_name == _id("card_text_view_title")
                         and touch_target(e, elements).index != cards[-1].index]
            if at_end or any(text != title for text in following):
                state["settled"] = True
                return None
        elif (state["passing"] or state["scrolls"] >= _MAX_SCROLLS or (at_end and state["direction"] == "up")
              or not RECIPE_LIST.present(elements)):
            return narrow(elements)  # passed, too far, both ends of the list seen, or a search found nothing
        state["passing"], state["scrolls"] = bool(cards), state["scrolls"] + 1
        if at_end:
            state["direction"] = "up"
        return Action(ActionType.SCROLL, index=RECIPE_LIST.find(elements).index, direction=state["direction"])

    def step(elements: Sequence[UIElement]) -> Action | None:
        if _on_details(elements):
            if _shows(elements, row):
                return None
            state["looked"] += 1
            return Action(ActionType.NAVIGATE_BACK)
        cards = _cards_like(elements, row)
        if not state["searched"] and not cards:
            state["searched"] = SEARCH_FIELD.present(elements)
            return type_search(_typable(row["title"]), elements)
        if SEARCH_FIELD.present(elements) and not cards and not state["narrowed"]:
            return narrow(elements)  # an earlier search left other recipes on screen
        if not state["settled"]:
            action = settle(elements, cards)
            if action is not None:
                return action
        if state["looked"] < len(cards):
            return Action(ActionType.CLICK, index=cards[-1 - state["looked"]].index)
        return narrow(elements)

    return [step] * (4 * _MAX_LOOKS)


def delete_open_recipe() -> list[OracleStep]:
    """On a recipe's details: overflow menu, Delete, confirm."""
    return [tap(MORE_OPTIONS), tap(DELETE_ITEM), tap(CONFIRM_DELETE)]


def by_title(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """``rows`` in the list's order (by title, ignoring case), the order a person meets them scrolling down."""
    return sorted(rows, key=lambda row: (row["title"] or "").lower())


def _shared_word(rows: Sequence[Mapping[str, Any]]) -> str | None:
    """The first word of three letters or more that every one of several rows' ingredients hold (the ingredient a
    question asks about), or ``None``."""
    words = [set(re.findall(r"[a-z]{3,}", _typable(row["ingredients"] or "").lower())) for row in rows]
    first = re.findall(r"[a-z]{3,}", _typable(rows[0]["ingredients"] or "").lower()) if len(rows) > 1 else []
    return next((word for word in first if all(word in other for other in words)), None)


def reveal_rows(rows: Sequence[Mapping[str, Any]]) -> list[OracleStep]:
    """From the home screen: open Broccoli and each row's details in turn, checking that the details show the row;
    the last one stays open. Rows that share an ingredient are searched for by it (as a person looks for the
    recipes with saffron); the cards are opened in the list's order (by title), so the list scrolls one way."""
    steps: list[OracleStep] = [open_app(APP_NAME)]
    shared = _shared_word(rows)
    if shared:
        steps += [tap(SEARCH_ACTION), replace_text(SEARCH_FIELD, shared)]
    for i, row in enumerate(by_title(rows)):
        if i:
            steps.append(act(Action(ActionType.NAVIGATE_BACK)))
        steps += [*open_recipe(row), expect(Selector(resource_id=_id("details_title"), text=_norm(row["title"])))]
    return steps


def add_recipe(row: Mapping[str, Any]) -> list[OracleStep]:
    """From the recipe list: the new-recipe form, each non-empty field typed (scrolling to it), SAVE."""
    steps: list[OracleStep] = [tap(NEW_RECIPE)]
    for column, name in FORM_FIELDS:
        if row[column]:
            field = Selector(resource_id=_id(name))
            steps += [*scroll_to(field, FORM), type_into(field, _typable(row[column]))]
    return [*steps, tap(SAVE)]


def add_recipes(rows: Sequence[Mapping[str, Any]]) -> list[OracleStep]:
    """From anywhere: open the app and add each recipe through the form (SAVE opens its details; BACK returns to
    the list)."""
    steps: list[OracleStep] = [open_app(APP_NAME)]
    for i, row in enumerate(rows):
        if i:
            steps.append(act(Action(ActionType.NAVIGATE_BACK)))
        steps += add_recipe(row)
    return steps


# ----- tasks ----------------------------------------------------------------------------------------------------
class _RecipeTask(SqliteRowsTask):
    """Starts with the ``recipes`` table holding the noise rows, then the target rows (``params``)."""

    app_packages = (PACKAGE,)
    table: ClassVar[AppTable] = RECIPES

    def initial_rows(self) -> list[Row]:
        """Noise first, then the targets, as AndroidWorld inserts them."""
        return [*self.params["noise"], *self.params.get("targets", [])]


class _DeleteRecipesTask(_RecipeTask):
    """``_RecipeDeleteMultipleRecipes``: delete the recipes named in the goal; ``n_rows`` targets with titles
    unlike each other and the noise."""

    template = "Delete the following recipes from Broccoli app: {titles}."
    n_rows: ClassVar[int] = 3
    n_rows_noise: ClassVar[int] = 0
    #: Whether the goal names the recipes (the oracle then searches for their titles).
    names_recipes: ClassVar[bool] = True

    @property
    def goal(self) -> str:
        """The targets' titles, comma-separated."""
        return self.template.format(titles=", ".join(row["title"] for row in self.params["targets"]))

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Recipes with distinct titles: the first ``n_rows_noise`` are noise, the rest targets."""
        recipes: list[Row] = []
        with exact_draws(rng) as draws:
            candidates = recipe_draws(draws)
            while len(recipes) < cls.n_rows + cls.n_rows_noise:
                candidate = next(candidates)
                if all(candidate["title"] != recipe["title"] for recipe in recipes):
                    recipes.append(candidate)
        return {"noise": recipes[:cls.n_rows_noise], "targets": recipes[cls.n_rows_noise:]}

    def removed_ids(self) -> list[int]:
        """The ids of the rows to delete: the targets, inserted last."""
        count = len(self.params["targets"])
        return [row["recipeId"] for row in self.before[len(self.before) - count:]] if count else []

    def is_successful(self, device: Device) -> float:
        """1.0 when exactly the target rows are gone and nothing else changed."""
        after = self.table.rows(device)
        return 1.0 if rows_removed_exactly(self.before, after, self.removed_ids(), "recipeId") else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Open each target and delete it."""
        steps: list[OracleStep] = [open_app(APP_NAME)]
        targets = self.params["targets"] if self.names_recipes else by_title(self.params["targets"])
        for row in targets:
            steps += [*open_recipe(row, search=self.names_recipes), *delete_open_recipe()]
        return [*steps, complete()]


@register_task
class RecipeDeleteSingleRecipe(_DeleteRecipesTask):
    """Delete the only recipe."""

    name = "RecipeDeleteSingleRecipe"
    complexity = 1
    n_rows, n_rows_noise = 1, 0


@register_task
class RecipeDeleteSingleWithRecipeWithNoise(_DeleteRecipesTask):
    """Delete one recipe among 29 others."""

    name = "RecipeDeleteSingleWithRecipeWithNoise"
    complexity = 2
    n_rows, n_rows_noise = 1, 29


@register_task
class RecipeDeleteMultipleRecipes(_DeleteRecipesTask):
    """Delete all three recipes."""

    name = "RecipeDeleteMultipleRecipes"
    complexity = 2.4
    n_rows, n_rows_noise = 3, 0


@register_task
class RecipeDeleteMultipleRecipesWithNoise(_DeleteRecipesTask):
    """Delete three recipes among 29 others."""

    name = "RecipeDeleteMultipleRecipesWithNoise"
    complexity = 3.4
    n_rows, n_rows_noise = 3, 29


@register_task
class RecipeDeleteMultipleRecipesWithConstraint(_DeleteRecipesTask):
    """Delete the recipes whose directions mention an ingredient (three among 29 that do not); the oracle meets
    them going down the list."""

    name = "RecipeDeleteMultipleRecipesWithConstraint"
    complexity = 4
    n_rows, n_rows_noise = 3, 29
    names_recipes = False
    template = "Delete the recipes from Broccoli app that use {ingredient} in the directions."

    @property
    def goal(self) -> str:
        """Names the ingredient, not the recipes."""
        return self.template.format(ingredient=self.params["ingredient"])

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """An ingredient, noise whose directions lack it and targets whose directions have it (titles may
        repeat)."""
        ingredient = _pick(rng, _MATCHABLE_INGREDIENTS)
        noise = random_recipes(rng, cls.n_rows_noise, where=lambda r: ingredient not in r["directions"].lower())
        targets = random_recipes(rng, cls.n_rows, where=lambda r: ingredient in r["directions"].lower())
        return {"noise": noise, "targets": targets, "ingredient": ingredient}


class _DeleteDuplicateRecipesTask(_DeleteRecipesTask):
    """``RecipeDeleteDuplicateRecipes``: one recipe is in the list twice; either copy must go, nothing else."""

    complexity = 1
    template = ("Delete all but one of any recipes in the Broccoli app that are exact duplicates, ensuring at least "
                "one instance of each unique recipe remains")

    @property
    def goal(self) -> str:
        """The fixed instruction."""
        return self.template

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Six distinct recipes; the last becomes the duplicated target."""
        noise = random_recipes(rng, 6)
        target = noise.pop()
        return {"noise": noise, "targets": [target, dict(target)]}

    def is_successful(self, device: Device) -> float:
        """1.0 when exactly one of the two copies is gone and nothing else changed."""
        after = self.table.rows(device)
        return 1.0 if any(rows_removed_exactly(self.before, after, [copy], "recipeId")
                          for copy in self.removed_ids()) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Open one copy and delete it."""
        return [open_app(APP_NAME), *open_recipe(self.params["targets"][0]), *delete_open_recipe(), complete()]


@register_task
class RecipeDeleteDuplicateRecipes(_DeleteDuplicateRecipesTask):
    """A duplicated recipe among five others."""

    name = "RecipeDeleteDuplicateRecipes"


@register_task
class RecipeDeleteDuplicateRecipes2(_DeleteDuplicateRecipesTask):
    """A duplicated recipe among ten others, four of them with the same title."""

    name = "RecipeDeleteDuplicateRecipes2"
    complexity = 2.4

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Seven distinct recipes, the last the target; variants of the target's title fill up to ten."""
        noise = random_recipes(rng, 7)
        target = noise.pop()
        noise = _variants_of(rng, target, noise, 10, ("title",))
        return {"noise": noise, "targets": [target, dict(target)]}


@register_task
class RecipeDeleteDuplicateRecipes3(_DeleteDuplicateRecipesTask):
    """A duplicated recipe among 30 others, with three "Avocado Toast with Egg" at the top of the list and look-alikes
    of the target (same title and description)."""

    name = "RecipeDeleteDuplicateRecipes3"
    complexity = 3.4

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """22 distinct recipes (no avocado toast), the last the target, three avocado toasts, then variants with
        the target's title and description up to 30."""
        avocado = "Avocado Toast with Egg"
        noise = random_recipes(rng, 22, where=lambda r: r["title"] != avocado)
        target = noise.pop()
        noise += random_recipes(rng, 3, where=lambda r: r["title"] == avocado)
        noise = _variants_of(rng, target, noise, 30, ("title", "description"))
        return {"noise": noise, "targets": [target, dict(target)]}


def _same_recipe(candidate: Mapping[str, Any], expected: Mapping[str, Any]) -> bool:
    """AndroidWorld's comparison of an added recipe: text fields fuzzily, ``favorite`` exactly."""
    return candidate["favorite"] == expected["favorite"] and all(
        fuzzy_match(str(candidate[field] or ""), str(expected[field] or "")) for field in FREE_FORM_FIELDS)


class AddRecipesTask(_RecipeTask):
    """``_RecipeAddMultipleRecipes``: add the recipes the goal lists (as CSV or text blocks); ten noise recipes."""

    template = "Add the following recipes into the Broccoli app:\n{recipes}"
    n_rows: ClassVar[int] = 3

    @property
    def goal(self) -> str:
        """The recipes to add, in the drawn text format."""
        return self.template.format(recipes=recipes_text(self.params["recipes"], self.params["text_format"]))

    def initial_rows(self) -> list[Row]:
        """Only the noise: the recipes to add are not in the table."""
        return list(self.params["noise"])

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """``n_rows`` distinct recipes to add, ten noise recipes and the text format."""
        recipes = random_recipes(rng, cls.n_rows)
        noise = random_recipes(rng, 10, where=lambda r: any(r["title"] != t["title"] for t in recipes))
        return {"recipes": recipes, "noise": noise, "text_format": _pick(rng, ("csv", "text_block"))}

    def is_successful(self, device: Device) -> float:
        """1.0 when the new rows are exactly the requested recipes and the noise is untouched."""
        after = self.table.rows(device)
        return 1.0 if rows_added_exactly(self.before, after, self.params["recipes"], "recipeId", _same_recipe) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Add each recipe through the form."""
        return [*add_recipes(self.params["recipes"]), complete()]


@register_task
class RecipeAddSingleRecipe(AddRecipesTask):
    """Add one recipe."""

    name = "RecipeAddSingleRecipe"
    complexity = 2.4
    n_rows = 1


@register_task
class RecipeAddMultipleRecipes(AddRecipesTask):
    """Add three recipes."""

    name = "RecipeAddMultipleRecipes"
    complexity = 6
    n_rows = 3
