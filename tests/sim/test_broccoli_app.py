"""Broccoli on the simulated phone, driven only through taps, typed text and keys; its Room database is read and
written from outside as a task setup does."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest
from ui_nodes import find, nodes, tap

from android_gym.sim import keycodes
from android_gym.sim.apps.broccoli import (
    DB_PATH,
    PACKAGE,
    ROOM_IDENTITY_HASH,
    direction_items,
    ingredient_items,
)
from android_gym.sim.phone import Phone

MAIN = f"{PACKAGE}.MainActivity"
DETAILS = f"{PACKAGE}.recipe.details.RecipeDetailsActivity"
EDIT = f"{PACKAGE}.recipe.crud.CreateAndEditRecipeActivity"
COLUMNS = ("title", "imageName", "description", "servings", "preparationTime", "source", "ingredients",
           "directions", "favorite")


def rid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def texts(phone: Phone, name: str) -> list[str]:
    return [node.get("text") for node in nodes(phone) if node.get("resource-id") == rid(name)]


def connect(phone: Phone) -> sqlite3.Connection:
    db = sqlite3.connect(phone.fs.host_path(DB_PATH))
    db.row_factory = sqlite3.Row
    return db


def insert(phone: Phone, title: str, **values: str | int) -> None:
    """A row written from outside the app (as AndroidWorld's setup inserts it: every column but the id)."""
    row = {column: "" for column in COLUMNS} | {"favorite": 0, "title": title} | values
    with closing(connect(phone)) as db, db:
        db.execute(f"INSERT INTO recipes ({', '.join(row)}) VALUES ({', '.join('?' for _ in row)})",
                   tuple(row.values()))
    phone.invalidate()  # as a push over adb does


def recipes(phone: Phone) -> list[dict]:
    with closing(connect(phone)) as db:
        return [dict(found) for found in db.execute("SELECT * FROM recipes ORDER BY recipeId")]


def open_app(phone: Phone) -> None:
    tap(phone, text="Broccoli")
    assert phone.activities.foreground() == (PACKAGE, MAIN)


def search(phone: Phone, text: str) -> None:
    tap(phone, resource_id=rid("action_search"))
    phone.input_text(text)


def fill(phone: Phone, name: str, text: str) -> None:
    """Tap the form field ``name`` (scrolling the form down until it is on screen) and type ``text``."""
    for _ in range(6):
        if find(phone, resource_id=rid(name)) is not None:
            break
        phone.swipe(540, 1300, 540, 700)
    tap(phone, resource_id=rid(name))
    phone.input_text(text)


def test_the_room_database_exists_from_install_and_after_pm_clear(phone):
    with closing(connect(phone)) as db:
        objects = {found["name"]: found["type"] for found in db.execute("SELECT name, type FROM sqlite_master")}
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("SELECT identity_hash FROM room_master_table WHERE id = 42").fetchone()[0] \
            == ROOM_IDENTITY_HASH
        columns = [found["name"] for found in db.execute("PRAGMA table_info(recipes)")]
    assert columns == ["recipeId", *COLUMNS[:1], "imageName", *COLUMNS[2:]]
    for name, kind in [("recipes", "table"), ("categories", "table"), ("recipes_with_categories", "table"),
                       ("recipes_fts", "table"), ("index_recipes_with_categories_recipeId", "index"),
                       ("index_recipes_with_categories_categoryId", "index"), ("android_metadata", "table")]:
        assert objects[name] == kind
    assert sorted(name for name, kind in objects.items() if kind == "trigger") == [
        f"room_fts_content_sync_recipes_fts_{when}" for when in ("AFTER_INSERT", "AFTER_UPDATE", "BEFORE_DELETE",
                                                                 "BEFORE_UPDATE")]
    insert(phone, "Lentil Soup")
    assert phone.run(f"pm clear {PACKAGE}").stdout.strip() == b"Success"
    assert recipes(phone) == []
    with closing(connect(phone)) as db:
        assert db.execute("SELECT count(*) FROM room_master_table").fetchone()[0] == 1


def test_empty_list_then_rows_written_from_outside_show_sorted_and_scroll(phone):
    open_app(phone)
    assert find(phone, resource_id=rid("recipes_empty")) is not None
    assert find(phone, text="No recipes found.") is not None
    assert find(phone, content_desc="New Recipe", resource_id=rid("fab_recipes")) is not None
    assert texts(phone, "spinner") == [""] and find(phone, resource_id="android:id/text1").get("text") == "All recipes"
    for i in range(20):
        insert(phone, f"recipe {i:02d}" if i % 2 else f"Recipe {i:02d}", description=f"noise {i}")
    titles = texts(phone, "card_text_view_title")
    assert titles[:3] == ["Recipe 00", "recipe 01", "Recipe 02"]  # ORDER BY title COLLATE NOCASE
    assert texts(phone, "card_text_view_description")[:1] == ["noise 0"]
    assert 3 < len(titles) < 20
    for _ in range(8):
        phone.swipe(540, 1800, 540, 600)
    scrolled = texts(phone, "card_text_view_title")
    assert scrolled[-1] == "recipe 19" and "Recipe 00" not in scrolled


def test_search_uses_the_fts_table_and_collapses_on_back(phone):
    insert(phone, "Lentil Soup", description="Warming", ingredients="2 cups lentils")
    insert(phone, "Garlic Butter Shrimp", description="With lentil crumbs", directions="Cook the chickpeas.")
    insert(phone, "Avocado Toast", source="https://example.com/lentils")
    open_app(phone)
    search(phone, "lent")
    field = find(phone, resource_id=rid("search_src_text"))
    assert field.get("focused") == "true" and phone.activities.top.keyboard_shown
    # title and description matches before source/ingredients matches (ORDER BY the first matching column)
    assert texts(phone, "card_text_view_title") == ["Lentil Soup", "Garlic Butter Shrimp", "Avocado Toast"]
    tap(phone, content_desc="Clear query")
    phone.input_text("chickpeas")  # directions are not indexed
    assert find(phone, text="No recipes found.") is not None
    phone.key(keycodes.BACK)  # the keyboard goes first
    phone.key(keycodes.BACK)  # then the search view collapses
    assert find(phone, resource_id=rid("search_src_text")) is None
    assert len(texts(phone, "card_text_view_title")) == 3
    phone.key(keycodes.BACK)
    assert phone.activities.foreground()[0] != PACKAGE


def test_a_new_recipe_is_saved_with_every_field_and_its_details_open(phone):
    insert(phone, "Old Recipe")
    open_app(phone)
    tap(phone, content_desc="New Recipe")
    assert phone.activities.foreground() == (PACKAGE, EDIT)
    assert not phone.activities.top.keyboard_shown  # stateAlwaysHidden
    assert find(phone, resource_id=rid("new_title")).get("text") == "Title"  # an empty field reports its hint
    values = {"new_title": "Pesto Pasta", "new_description": "Green", "new_source": "grandma",
              "new_servings": "2 servings", "new_preparation_time": "20 mins",
              "new_ingredients": "200 g pasta\n- pesto", "new_directions": "1. Boil.\nStir."}
    for name, text in values.items():
        fill(phone, name, text)
        assert find(phone, resource_id=rid(name)).get("focused") == "true"  # scrolled into view above the keyboard
    tap(phone, text="SAVE")
    assert phone.activities.foreground() == (PACKAGE, DETAILS)
    saved = recipes(phone)[-1]
    assert {key: saved[key] for key in COLUMNS} == {
        "title": "Pesto Pasta", "imageName": "", "description": "Green", "servings": "2 servings",
        "preparationTime": "20 mins", "source": "grandma", "ingredients": "200 g pasta\n- pesto",
        "directions": "1. Boil.\nStir.", "favorite": 0}
    assert texts(phone, "details_title") == ["Pesto Pasta"]
    assert texts(phone, "ingredient_quantity") == ["200", ""] and texts(phone, "ingredient_text") == [" g pasta",
                                                                                                       "pesto"]
    assert texts(phone, "direction_position") == ["1", "2"] and texts(phone, "direction_text") == ["Boil.", "Stir."]
    phone.key(keycodes.BACK)
    assert phone.activities.foreground() == (PACKAGE, MAIN)
    assert texts(phone, "card_text_view_title") == ["Old Recipe", "Pesto Pasta"]


def test_save_needs_a_title_and_a_dirty_form_asks_before_it_is_discarded(phone):
    open_app(phone)
    tap(phone, content_desc="New Recipe")
    tap(phone, text="SAVE")
    assert phone.activities.foreground() == (PACKAGE, EDIT)  # "Please add a title." toast only
    fill(phone, "new_description", "unsaved")
    phone.key(keycodes.BACK)  # hides the keyboard
    phone.key(keycodes.BACK)
    assert find(phone, resource_id="android:id/message").get("text") == "Discard changes?"
    tap(phone, text="CANCEL")
    assert phone.activities.foreground() == (PACKAGE, EDIT)
    # activity_new_recipe.xml's navigationIcon is ic_close_24dp; setSupportActionBar describes it "Navigate up"
    (close,) = [view for view in phone.window.frame().app.walk() if view.content_desc == "Navigate up"]
    assert close.hint == "close"
    tap(phone, content_desc="Navigate up")
    tap(phone, text="DISCARD")
    assert phone.activities.foreground() == (PACKAGE, MAIN) and recipes(phone) == []
    tap(phone, content_desc="New Recipe")
    phone.key(keycodes.BACK)  # nothing typed: no question
    assert phone.activities.foreground() == (PACKAGE, MAIN)


def test_details_delete_asks_first_and_removes_the_row_and_its_category_links(phone):
    insert(phone, "Keep Me")
    insert(phone, "Delete Me", servings="4 servings")
    with closing(connect(phone)) as db, db:
        db.execute("INSERT INTO categories (name) VALUES ('Dinner')")
        db.execute("INSERT INTO recipes_with_categories (recipeId, categoryId) VALUES (2, 1)")
    phone.invalidate()
    open_app(phone)
    tap(phone, text="Delete Me")
    assert phone.activities.foreground() == (PACKAGE, DETAILS)
    assert texts(phone, "details_servings") == ["4 servings"] and texts(phone, "details_categories") == ["Dinner"]
    assert texts(phone, "details_preparation_time") == []  # an empty field is gone
    tap(phone, content_desc="More options")
    tap(phone, text="Delete", resource_id=rid("title"))
    assert find(phone, resource_id="android:id/message").get("text") == "Delete this recipe?"
    tap(phone, text="CANCEL")
    assert len(recipes(phone)) == 2
    tap(phone, content_desc="More options")
    tap(phone, text="Delete", resource_id=rid("title"))
    tap(phone, text="DELETE")
    assert phone.activities.foreground() == (PACKAGE, MAIN)
    assert [row["title"] for row in recipes(phone)] == ["Keep Me"]
    with closing(connect(phone)) as db:
        assert db.execute("SELECT count(*) FROM recipes_with_categories").fetchone()[0] == 0
    assert texts(phone, "card_text_view_title") == ["Keep Me"]


def test_edit_updates_the_row_in_place_and_the_search_follows(phone):
    insert(phone, "Lentil Soup", description="Warming")
    open_app(phone)
    tap(phone, text="Lentil Soup")
    tap(phone, content_desc="Mark as favorite")
    assert recipes(phone)[0]["favorite"] == 1
    assert find(phone, content_desc="Remove from favorites") is not None
    tap(phone, content_desc="More options")
    tap(phone, text="Edit")
    assert phone.activities.foreground() == (PACKAGE, EDIT)
    assert find(phone, resource_id=rid("new_title")).get("text") == "Lentil Soup"
    tap(phone, resource_id=rid("new_title"))
    phone.input_text(" Deluxe")
    tap(phone, text="SAVE")
    assert phone.activities.foreground() == (PACKAGE, DETAILS)
    assert texts(phone, "details_title") == ["Lentil Soup Deluxe"]
    assert [(row["recipeId"], row["title"], row["favorite"]) for row in recipes(phone)] == [
        (1, "Lentil Soup Deluxe", 1)]
    phone.key(keycodes.BACK)
    search(phone, "delu")
    assert texts(phone, "card_text_view_title") == ["Lentil Soup Deluxe"]


@pytest.mark.parametrize("text, items", [
    ("2 cups flour\n- 1 egg\n\n½ tsp salt", [("2", " cups flour"), ("1", " egg"), ("½", " tsp salt")]),
    ("1-2 onions\nsalt", [("1-2", " onions"), ("", "salt")]),
    ("-\n- \n42", [("", "-"), ("4", "2")]),  # (?!$): a lone dash stays; a quantity leaves some text
])
def test_ingredient_lines_split_off_their_quantity(text, items):
    assert ingredient_items(text) == items


def test_direction_lines_drop_their_numbering():
    assert direction_items("1. Boil water.\n  2.Add pasta\n\n3.") == ["Boil water.", "Add pasta", "3."]


def test_cards_keep_their_120_dp_at_a_large_font_scale(phone):
    """``recipe_item``'s CardView is ``layout_height="120dp"``, its title and description ``maxLines="2"``: larger
    text is clamped, not a taller card, so a small phone at font scale 1.3 still lists whole cards one under the
    other (a card 240 px tall at 320 dpi; the last one shown cut at the list's end)."""
    long = "A recipe title long enough to wrap onto a third line at a larger font"
    for n in range(4):
        insert(phone, f"{long} {n}", description="A description that runs on and on well past two lines of a card")
    try:
        assert phone.run("wm size 720x1280 && wm density 320 && settings put system font_scale 1.3").exit_code == 0
        open_app(phone)
        cards = [node for node in nodes(phone) if node.get("class") == "androidx.cardview.widget.CardView"]
        tops, bottoms = zip(*((int(y1), int(y2)) for y1, y2 in
                              (node.get("bounds").strip("[]").replace("][", ",").split(",")[1::2] for node in cards)))
        heights = [bottom - top for top, bottom in zip(tops, bottoms)]
        assert len(cards) >= 4 and heights[:3] == [240] * 3 and 0 < heights[-1] <= 240
        assert texts(phone, "card_text_view_title")[0] == f"{long} 0"  # the node keeps the whole text
    finally:
        phone.run("wm size reset && wm density reset && settings put system font_scale 1.0")


def test_enter_on_a_single_line_field_focuses_the_next_and_the_form_scrolls_it_into_view(phone):
    """``TextView.shouldAdvanceFocusOnEnter``: ENTER in a single-line field (title, source, servings, time) moves
    the focus down to the next field, which the form scrolls into view above the keyboard, here on a small phone
    at font scale 1.3 where two fields show; in a multi-line field (description, ingredients) it starts a line."""
    try:
        assert phone.run("wm size 720x1280 && wm density 320 && settings put system font_scale 1.3").exit_code == 0
        open_app(phone)
        tap(phone, content_desc="New Recipe")
        tap(phone, resource_id=rid("new_title"))
        for name, text, following in (("new_title", "Stew", "new_description"),
                                      ("new_source", "Grandma", "new_servings"),
                                      ("new_servings", "2", "new_preparation_time"),
                                      ("new_preparation_time", "1 h", "new_ingredients")):
            while find(phone, resource_id=rid(name)) is None:  # the source: past the description, by hand
                phone.swipe(360, 600, 360, 350)
            if find(phone, resource_id=rid(name)).get("focused") != "true":
                tap(phone, resource_id=rid(name))
            phone.input_text(text)
            phone.key(keycodes.ENTER)
            shown = find(phone, resource_id=rid(following))
            assert shown is not None and shown.get("focused") == "true"
        phone.input_text("1 onion")
        phone.key(keycodes.ENTER)
        assert phone.activities.top.focus_key == "new_ingredients"
        tap(phone, text="SAVE")
        saved = recipes(phone)[-1]
        assert (saved["title"], saved["source"], saved["servings"], saved["preparationTime"],
                saved["ingredients"]) == ("Stew", "Grandma", "2", "1 h", "1 onion\n")
    finally:
        phone.run("wm size reset && wm density reset && settings put system font_scale 1.0")
