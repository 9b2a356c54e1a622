"""Broccoli 1.2.6 (versionCode 1020600, the build AndroidWorld installs): a recipe collection on Room.

Facts come from the app's repository (github.com/flauschtrud/broccoli) at tag ``v1.2.6``, whose
``app/build.gradle`` has ``versionCode 1020600``: the schema is Room's exported
``app/schemas/com.flauschcode.broccoli.BroccoliDatabase/1.json`` (tables, FTS4 table and its four content-sync
triggers, identity hash); queries are ``recipe/RecipeDAO.java`` and
``RecipeRepository.java`` (the list ``ORDER BY title COLLATE NOCASE``; search ``recipes_fts MATCH '<term>*'``
ordered by the first matching column); screens follow ``res/layout/fragment_recipes.xml``, ``recipes_list.xml``,
``recipe_item.xml``, ``activity_new_recipe.xml``, ``activity_recipe_details.xml``,
``content_recipe_details.xml``, ``ingredient_item.xml``, ``direction_item.xml``, ``menu/recipes.xml``,
``menu/details.xml``, ``res/values/strings.xml`` and ``values/themes.xml``/``values-night/themes.xml`` (by
night MaterialComponents' dark theme, as the app follows the system's by default); behaviour follows ``RecipeFragment``,
``CreateAndEditRecipeActivity`` (save opens the new recipe's details; a dirty form asks before it is
discarded), ``RecipeDetailsActivity`` (favorite toggle, edit, delete with its confirmation dialog),
``IngredientBuilder`` and ``DirectionBuilder``. AppCompat and Material supply the framework strings ("Navigate
up", "More options", "Collapse", "Clear query") and the all-caps text of Material buttons ("SAVE", "DELETE").

Every screen reads the database on every build, so rows a task writes from outside show up at once and are
found by the search (the triggers keep ``recipes_fts`` in step with ``recipes``).

Not simulated: the navigation drawer (categories, seasonal calendar, backup, settings, support and about pages)
and its toolbar button, the category spinner's other choices (the list always shows "All recipes"), the
categories picker of the edit form (its field is shown, without a dialog), photos (the image placeholder is not
clickable and the details app bar stays collapsed), sharing (the overflow menu offers only Edit and Delete),
the cooking assistant (no "Cook" FAB), hashtag links in descriptions, importing from a website, toasts, the
rating dialog, and a search term the FTS query parser rejects (the app would crash; here nothing is found).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from typing import Any

from android_gym.sim.framework.app import App, Context, Screen
from android_gym.sim.framework.intent import Intent
from android_gym.sim.framework.looks import MATERIAL_COMPONENTS_NIGHT
from android_gym.sim.framework.window import KEYBOARD_HEIGHT, STATUS_BAR_HEIGHT
from android_gym.sim.system.provider import SqliteProvider
from android_gym.sim.ui.dialogs import confirm_dialog, dialog_over, popup_menu
from android_gym.sim.ui.layout import measure_height
from android_gym.sim.ui.views import (
    DIVIDER,
    FIELD_LABEL,
    FIELD_STROKE,
    LAYOUT_ONLY,
    PRIMARY,
    TEXT_SECONDARY,
    WHITE,
    Callback,
    Color,
    Role,
    View,
    button,
    column,
    edit_text,
    fab,
    field_icon,
    frame,
    group,
    image_button,
    outlined_field,
    over,
    row,
    side_margins,
    text_view,
)

PACKAGE = "com.flauschcode.broccoli"
DB_PATH = f"/data/data/{PACKAGE}/databases/broccoli"
ROOM_IDENTITY_HASH = "1548e88f42d976a4b4915ca1cfa71e00"
RECIPE_ID = "recipe_id"  # intent extra: the recipe an activity shows or edits (the app passes the Recipe itself)

# res/values/strings.xml
APP_NAME = "Broccoli"
RECIPES, NO_RECIPES_FOUND = "Recipes", "No recipes found."
CREATE_A_RECIPE_PROMPT, IMPORT_PROMPT = "create a new recipe", "import a recipe from a website"
NEW_RECIPE, ALL_RECIPES, CATEGORIES_LABEL = "New Recipe", "All recipes", "Categories"
SEARCH, SEARCH_IN = "Search", "Search in {}"
TITLE, DESCRIPTION, SOURCE, SERVINGS = "Title", "Description", "Source", "Servings"
PREPARATION_TIME, INGREDIENTS, DIRECTIONS = "Time", "Ingredients", "Directions"
RECIPE_PHOTO, CHANGE_PHOTO = "Recipe photo", "Change photo"
SAVE, DELETE, EDIT, CANCEL, DISCARD = "SAVE", "DELETE", "Edit", "CANCEL", "DISCARD"  # Material buttons: all caps
DELETE_MENU_ITEM = "Delete"  # menu items keep the string's case
DELETE_RECIPE_QUESTION, DISCARD_CHANGES_QUESTION = "Delete this recipe?", "Discard changes?"
MARK_AS_FAVORITE, REMOVE_FROM_FAVORITES = "Mark as favorite", "Remove from favorites"
# AppCompat / Material framework strings.
NAVIGATE_UP, MORE_OPTIONS, COLLAPSE, CLEAR_QUERY = "Navigate up", "More options", "Collapse", "Clear query"

_GREEN_900, _GREEN_800, _GREEN_500, _GREEN_200 = (27, 94, 32), (46, 125, 50), (76, 175, 80), (165, 214, 167)
#: recipe_item's MaterialCardView (Widget.MaterialComponents.CardView): colorSurface, white by day; by night #121212
#: lifted by its 2 dp cardElevation (the elevation overlay: colorOnSurface at 4.5 ln(2 + 1) + 2 = 7 %); its corners
#: shapeAppearanceMediumComponent's 4 dp, its shadow 2 dp.
_CARD = Role("colorSurface", WHITE)
_CARD_NIGHT: Color = (34, 34, 34)
_CARD_CORNER, _CARD_ELEVATION = 10, 5
#: The FAB's icon: ``colorOnSecondary`` (``?attr/colorOnPrimary``), white by day, black by night
#: (``design_dark_default_color_on_primary``), where the app bars' white titles stay white.
_ON_SECONDARY = Role("colorOnSecondary", WHITE)
_GRAY_600, _GRAY_400 = (117, 117, 117), (189, 189, 189)  # colors.xml: colorControlNormal by day and by night
#: The app bars by night: the dark theme's AppBarLayout is ``Widget.MaterialComponents.AppBarLayout.Surface``
#: (``colorSurface``, #121212), lifted 4 dp by the elevation overlay (``ElevationOverlayProvider``: colorOnSurface at
#: 4.5 ln(4 + 1) + 2 = 9 %), where by day it is ``colorPrimary``.
_APP_BAR_NIGHT: Color = (40, 40, 40)
_LARGE, _MEDIUM, _TITLE, _BODY, _FIELD = 58, 47, 52, 37, 42  # 22/18/20/14/16 sp at 420 dpi
_BAR = 147  # ?attr/actionBarSize, 56 dp
_CARD_HEIGHT, _MARGIN, _TEXT_MARGIN = 315, 21, 42  # recipe_item: 120 dp, 8 dp margins; text_margin 16 dp
_IMAGE_HEIGHT = 472  # app_bar_height, 180 dp

# Schema: Room's createSql for each entity of 1.json, then its FTS triggers and setup queries.
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS `recipes` (`recipeId` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `title` TEXT, "
    "`imageName` TEXT, `description` TEXT, `servings` TEXT, `preparationTime` TEXT, `source` TEXT, "
    "`ingredients` TEXT, `directions` TEXT, `favorite` INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS `categories` (`categoryId` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `name` TEXT)",
    "CREATE TABLE IF NOT EXISTS `recipes_with_categories` (`recipeId` INTEGER NOT NULL, `categoryId` INTEGER NOT "
    "NULL, PRIMARY KEY(`recipeId`, `categoryId`), FOREIGN KEY(`recipeId`) REFERENCES `recipes`(`recipeId`) ON "
    "UPDATE NO ACTION ON DELETE CASCADE , FOREIGN KEY(`categoryId`) REFERENCES `categories`(`categoryId`) ON UPDATE "
    "NO ACTION ON DELETE CASCADE )",
    "CREATE INDEX IF NOT EXISTS `index_recipes_with_categories_recipeId` ON `recipes_with_categories` (`recipeId`)",
    "CREATE INDEX IF NOT EXISTS `index_recipes_with_categories_categoryId` ON `recipes_with_categories` "
    "(`categoryId`)",
    "CREATE VIRTUAL TABLE IF NOT EXISTS `recipes_fts` USING FTS4(`title` TEXT, `description` TEXT, `source` TEXT, "
    "`ingredients` TEXT, tokenize=unicode61 `tokenchars=#`, content=`recipes`)",
    "CREATE TRIGGER IF NOT EXISTS room_fts_content_sync_recipes_fts_BEFORE_UPDATE BEFORE UPDATE ON `recipes` BEGIN "
    "DELETE FROM `recipes_fts` WHERE `docid`=OLD.`rowid`; END",
    "CREATE TRIGGER IF NOT EXISTS room_fts_content_sync_recipes_fts_BEFORE_DELETE BEFORE DELETE ON `recipes` BEGIN "
    "DELETE FROM `recipes_fts` WHERE `docid`=OLD.`rowid`; END",
    "CREATE TRIGGER IF NOT EXISTS room_fts_content_sync_recipes_fts_AFTER_UPDATE AFTER UPDATE ON `recipes` BEGIN "
    "INSERT INTO `recipes_fts`(`docid`, `title`, `description`, `source`, `ingredients`) VALUES (NEW.`rowid`, "
    "NEW.`title`, NEW.`description`, NEW.`source`, NEW.`ingredients`); END",
    "CREATE TRIGGER IF NOT EXISTS room_fts_content_sync_recipes_fts_AFTER_INSERT AFTER INSERT ON `recipes` BEGIN "
    "INSERT INTO `recipes_fts`(`docid`, `title`, `description`, `source`, `ingredients`) VALUES (NEW.`rowid`, "
    "NEW.`title`, NEW.`description`, NEW.`source`, NEW.`ingredients`); END",
    "CREATE TABLE IF NOT EXISTS room_master_table (id INTEGER PRIMARY KEY,identity_hash TEXT)",
    "CREATE TABLE android_metadata (locale TEXT)",  # SQLiteDatabase.setLocale
)
#: The columns the edit form writes, in ``CoreRecipe`` order.
TEXT_COLUMNS = ("title", "description", "servings", "preparationTime", "source", "ingredients", "directions")
# IngredientBuilder / DirectionBuilder (Java's \d and \s are ASCII-only).
_FRACTIONS = "¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞"
_AMOUNT = rf"([{_FRACTIONS}]|[0-9]+([,/.-])*[0-9]*)"
_QUANTITY = re.compile(rf"^[ \t\n\x0b\f\r]*{_AMOUNT}([ \t\n\x0b\f\r]*-[ \t\n\x0b\f\r]*{_AMOUNT})?(?!$)")
_BULLET = re.compile(r"^[ \t\n\x0b\f\r]*[-–](?!$)")
_NUMBERING = re.compile(r"^[ \t\n\x0b\f\r]*([0-9]+\.)(?!$)")


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def ingredient_items(ingredients: str) -> list[tuple[str, str]]:
    """``IngredientBuilder.from``: one ``(quantity, text)`` per non-blank line, a leading dash dropped."""
    items = []
    for line in (ingredients or "").split("\n"):
        line = _BULLET.sub("", line, count=1).strip()
        if line:
            match = _QUANTITY.search(line)
            quantity = match.group() if match else ""
            items.append((quantity, line.replace(quantity, "", 1)))
    return items


def direction_items(directions: str) -> list[str]:
    """``DirectionBuilder.from``: the non-blank lines, each without a leading "1." numbering."""
    lines = (_NUMBERING.sub("", line, count=1).strip() for line in (directions or "").split("\n"))
    return [line for line in lines if line]


class RecipeStore(SqliteProvider):
    """The app's Room database: created on install and after ``pm clear`` (Room's ``onCreate``), opened in WAL
    mode with foreign keys on (Room's ``onOpen`` for a schema with foreign keys)."""

    db_path = DB_PATH
    schema = SCHEMA
    journal_mode = "WAL"

    def on_create(self, db: sqlite3.Connection) -> None:
        """Room's setup query and version, and the framework's locale row."""
        db.execute("INSERT OR REPLACE INTO room_master_table (id,identity_hash) VALUES(42, ?)", (ROOM_IDENTITY_HASH,))
        db.execute("INSERT INTO android_metadata (locale) VALUES ('en_US')")
        db.execute("PRAGMA user_version = 1")

    def on_connect(self, db: sqlite3.Connection) -> None:
        """Rows as mappings; cascading deletes."""
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA foreign_keys = ON")

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        with self.reading() as db:
            return [dict(found) for found in db.execute(sql, params)]

    def recipes(self, term: str = "") -> list[dict[str, Any]]:
        """``RecipeRepository.find`` for "All recipes": every recipe by title, or the ``term*`` FTS matches
        (title matches first). A term the FTS query parser rejects finds nothing here (the app would crash)."""
        if not term:
            return self._read("SELECT * FROM recipes WHERE favorite IN (?, ?) ORDER BY title COLLATE NOCASE", (1, 0))
        try:
            return self._read(
                "SELECT recipes.* FROM recipes JOIN recipes_fts ON (recipes.recipeId = recipes_fts.docid) WHERE "
                "recipes_fts MATCH ? AND favorite IN (?, ?) ORDER BY SUBSTR(OFFSETS(recipes_fts), 1, 1), "
                "recipes.title COLLATE NOCASE", (f"{term}*", 1, 0))
        except sqlite3.OperationalError:
            return []

    def recipe(self, recipe_id: int) -> dict[str, Any] | None:
        """One recipe, or ``None`` once it is gone."""
        found = self._read("SELECT * FROM recipes WHERE recipeId = ?", (recipe_id,))
        return found[0] if found else None

    def category_names(self, recipe_id: int) -> list[str]:
        """The names of the recipe's categories (``Recipe.categories`` via the junction table)."""
        return [found["name"] or "" for found in self._read(
            "SELECT name FROM categories JOIN recipes_with_categories USING (categoryId) WHERE recipeId = ? "
            "ORDER BY categoryId", (recipe_id,))]

    def save(self, recipe_id: int, values: dict[str, str]) -> int:
        """``insertOrUpdate``: insert a new recipe (id 0; Room binds ``nullif(?, 0)``) or update the text columns
        of an existing one; returns its id."""
        columns = list(values)
        with self._transaction() as db:
            if recipe_id:
                assignments = ", ".join(f"`{column}` = ?" for column in columns)
                db.execute(f"UPDATE OR ABORT recipes SET {assignments} WHERE recipeId = ?",
                           (*values.values(), recipe_id))
                return recipe_id
            cursor = db.execute(
                f"INSERT OR ABORT INTO recipes (imageName, favorite, {', '.join(f'`{c}`' for c in columns)}) "
                f"VALUES ('', 0, {', '.join('?' for _ in columns)})", tuple(values.values()))
            return int(cursor.lastrowid or 0)

    def set_favorite(self, recipe_id: int, favorite: bool) -> None:
        """``toggleFavorite`` → ``insertOrUpdate``."""
        with self._transaction() as db:
            db.execute("UPDATE OR ABORT recipes SET favorite = ? WHERE recipeId = ?", (int(favorite), recipe_id))

    def delete(self, recipe_id: int) -> None:
        """``RecipeDAO.delete``; its category links go with it (``ON DELETE CASCADE``)."""
        with self._transaction() as db:
            db.execute("DELETE FROM recipes WHERE recipeId = ?", (recipe_id,))


def _store(screen: Screen) -> RecipeStore:
    app = screen.app
    assert isinstance(app, Broccoli)
    return app.store


#: Each form field's start icon (activity_new_recipe.xml's ``startIconDrawable``), by the field's resource name.
_START_ICONS = {"new_title": "title", "new_categories": "label", "new_description": "info", "new_source": "link",
                "new_servings": "person", "new_preparation_time": "time", "new_ingredients": "list",
                "new_directions": "list_numbered"}


def _text_input(field: View, *end: View) -> View:
    """A ``TextInputLayout`` in the theme's ``textInputStyle`` (MaterialComponents' OutlinedBox) around ``field``,
    its start icon before the text, ``end`` in the box after it; the style's 16 dp padding at the layout's start, end
    and bottom (none at its top) is room around it."""
    start = field_icon(field, _START_ICONS[field.resource_id.rsplit("/", 1)[1]], _id("text_input_start_icon"))
    boxed = side_margins(outlined_field(field, start, *end, weight=1), _TEXT_MARGIN)
    below = View(class_name=LAYOUT_ONLY, height=_TEXT_MARGIN)
    return View(kind="column", class_name=LAYOUT_ONLY, children=[boxed, below])


def _image(name: str, content_desc: str, **props) -> View:
    """An ``ImageView`` (a drawable, not a button)."""
    return View(kind="icon", class_name="android.widget.ImageView", resource_id=_id(name) if name else "",
                content_desc=content_desc, text_color=TEXT_SECONDARY, **props)


def _action(name: str, content_desc: str, icon: str, on_click: Callback) -> View:
    """A toolbar menu item shown as an action (``ActionMenuItemView``, which reports itself as a Button)."""
    return View(kind="icon", class_name="android.widget.Button", resource_id=_id(name), content_desc=content_desc,
                hint=icon, clickable=True, focusable=True, long_clickable=True, on_click=on_click, width=_BAR,
                height=_BAR, text_color=WHITE)


def _overflow(on_click: Callback) -> View:
    """The toolbar's overflow button (``ActionMenuPresenter.OverflowMenuButton``, an ImageView)."""
    return View(kind="icon", class_name="android.widget.ImageView", content_desc=MORE_OPTIONS, hint="more",
                clickable=True, focusable=True, long_clickable=True, on_click=on_click, width=_BAR, height=_BAR,
                text_color=WHITE)


def _bar(*children: View, background: Color, **props) -> View:
    """An AppCompat ``Toolbar``."""
    return View(kind="row", class_name="android.view.ViewGroup", children=list(children), height=_BAR,
                background=background, **props)


def _app_bar_color(screen: Screen) -> Color:
    """The colour of the AppBarLayout a screen's toolbar lies in: ``colorPrimary`` by day, the lifted surface by
    night (``_APP_BAR_NIGHT``)."""
    return _APP_BAR_NIGHT if screen.phone.window.looks.night else _GREEN_800


def _bar_title(text: str) -> View:
    return text_view(text, weight=1, text_color=WHITE, text_size=_TITLE, bold=True, padding=40)


# ----- the recipe list ----------------------------------------------------------------------------------------
class RecipesScreen(Screen):
    """``MainActivity`` showing ``RecipeFragment``: the "All recipes" list, its search and the new-recipe FAB."""

    activity = f"{PACKAGE}.MainActivity"
    SEARCH_KEY = "search_src_text"

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.search_expanded = False
        self.query = ""

    def on_back(self) -> bool:
        """The fragment's back callback: an expanded search collapses (``toolbar.collapseActionView``)."""
        if not self.search_expanded:
            return False
        self._collapse()
        return True

    def _expand(self) -> None:
        """``SearchView.onActionViewExpanded``: the query field takes focus and the keyboard comes up."""
        self.search_expanded = True
        self.focus_key, self.keyboard_shown = self.SEARCH_KEY, True

    def _collapse(self) -> None:
        """``onActionViewCollapsed``: the query is cleared (the list shows every recipe again)."""
        self.search_expanded, self.query = False, ""
        self.focus_key, self.keyboard_shown = "", False

    def _set_query(self, text: str) -> None:
        self.query = text

    def _clear_query(self) -> None:
        self.query = ""

    def _submit(self) -> None:
        """``onQueryTextSubmit`` returns false: ``SearchView.onSubmitQuery`` hides the keyboard."""
        self.keyboard_shown = False

    def _open(self, recipe_id: int) -> None:
        self.keyboard_shown = False
        self.start(RecipeDetailsScreen, Intent(extras={RECIPE_ID: str(recipe_id)}))

    def build(self) -> View:
        recipes = _store(self).recipes(self.query if self.search_expanded else "")
        body = self._list(recipes) if recipes else self._empty()
        main = column(_bar(_bar_title(RECIPES), resource_id=_id("toolbar"), background=_app_bar_color(self)),
                      self._recipes_bar(), body,
                      gravity="fill")
        new = fab(NEW_RECIPE, "plus", lambda: self.start(EditRecipeScreen), resource_id=_id("fab_recipes"),
                  background=_GREEN_800, text_color=_ON_SECONDARY)
        return View(kind="frame", class_name="android.view.ViewGroup", children=[main, new])

    def _recipes_bar(self) -> View:
        """``toolbar_recipes``: the category spinner and the search action, or the expanded search view."""
        if not self.search_expanded:
            spinner = View(kind="row", class_name="android.widget.Spinner", resource_id=_id("spinner"),
                           content_desc=CATEGORIES_LABEL, weight=1, children=[
                               text_view(ALL_RECIPES, resource_id="android:id/text1", text_size=_TITLE,
                                         text_color=WHITE, padding=40, weight=1)])
            search = _action("action_search", SEARCH, "search", self._expand)
            return _bar(spinner, search, resource_id=_id("toolbar_recipes"), background=_GREEN_500)
        collapse = image_button(COLLAPSE, "arrow_back", self._collapse, text_color=WHITE, width=_BAR, height=_BAR)
        field = edit_text(self.query, SEARCH_IN.format(ALL_RECIPES.upper()), self.SEARCH_KEY, self._set_query,
                          resource_id=_id(self.SEARCH_KEY), weight=1, text_size=_FIELD, text_color=WHITE)
        field.class_name, field.on_submit = "android.widget.AutoCompleteTextView", self._submit
        children = [collapse, field]
        if self.query:
            children.append(View(kind="icon", class_name="android.widget.ImageView", content_desc=CLEAR_QUERY,
                                 resource_id=_id("search_close_btn"), hint="delete", clickable=True, focusable=True,
                                 on_click=self._clear_query, width=_BAR, height=_BAR, text_color=WHITE))
        return _bar(*children, resource_id=_id("toolbar_recipes"), background=_GREEN_500)

    def _list(self, recipes: list[dict[str, Any]]) -> View:
        cards = [self._card(recipe) for recipe in recipes]
        return View(kind="list", class_name="androidx.recyclerview.widget.RecyclerView", key="recycler_view",
                    resource_id=_id("recycler_view"), content_desc=RECIPES, children=cards, scrollable=True,
                    focusable=True, weight=1, spacing=_MARGIN, padding=_MARGIN)

    def _card(self, recipe: dict[str, Any]) -> View:
        """``recipe_item``: photo, title (2 lines), description (2 lines) and source (1 line)."""
        texts = column(
            text_view(recipe["title"] or "", text_size=_LARGE, max_lines=2, padding=21,
                      resource_id=_id("card_text_view_title")),
            text_view(recipe["description"] or "", text_size=_BODY, max_lines=2, padding=21,
                      resource_id=_id("card_text_view_description"), text_color=TEXT_SECONDARY),
            text_view(recipe["source"] or "", text_size=_BODY, single_line=True, padding=21,  # android:lines="1"
                      resource_id=_id("card_text_view_source"), text_color=_GREEN_800),
            weight=1)
        photo = _image("card_image", RECIPE_PHOTO, hint="photo", width=_CARD_HEIGHT, height=_CARD_HEIGHT)
        return View(kind="row", class_name="androidx.cardview.widget.CardView", clickable=True, focusable=True,
                    height=_CARD_HEIGHT, exact_height=True, background=_CARD, corner=_CARD_CORNER,
                    elevation=_CARD_ELEVATION,
                    on_click=lambda: self._open(recipe["recipeId"]),
                    children=[View(kind="row", class_name="android.view.ViewGroup", children=[photo, texts],
                                        weight=1)])

    @staticmethod
    def _empty() -> View:
        """``recipes_empty``."""
        return column(text_view(NO_RECIPES_FOUND, text_size=_LARGE, padding=24),
                      text_view(CREATE_A_RECIPE_PROMPT, text_size=_LARGE, padding=24),
                      text_view(IMPORT_PROMPT, text_size=_LARGE, padding=24),
                      resource_id=_id("recipes_empty"), padding=131, weight=1)


# ----- details --------------------------------------------------------------------------------------------------
class RecipeDetailsScreen(Screen):
    """``RecipeDetailsActivity``: the recipe's fields, favorite toggle and the overflow menu (Edit, Delete)."""

    activity = f"{PACKAGE}.recipe.details.RecipeDetailsActivity"

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.recipe_id = int(intent.extras.get(RECIPE_ID, "0") or 0)
        self.popup = ""  # "", "menu" or "delete"
        # The activity holds the Recipe it was started with; it keeps showing it if the row goes away.
        self._shown = _store(self).recipe(self.recipe_id) or {column: "" for column in TEXT_COLUMNS}

    def on_back(self) -> bool:
        if not self.popup:
            return False
        self.popup = ""
        return True

    def _set_popup(self, popup: str) -> None:
        self.popup = popup

    def _delete(self) -> None:
        """The dialog's positive button: delete the recipe and finish."""
        _store(self).delete(self.recipe_id)
        self.finish()

    def _edit(self) -> None:
        self.popup = ""
        self.start(EditRecipeScreen, Intent(extras={RECIPE_ID: str(self.recipe_id)}))

    def _toggle_favorite(self) -> None:
        _store(self).set_favorite(self.recipe_id, not self._shown.get("favorite"))

    def build(self) -> View:
        self._shown = _store(self).recipe(self.recipe_id) or self._shown
        recipe = self._shown
        favorite = bool(recipe.get("favorite"))
        like = _action("action_details_unlike", REMOVE_FROM_FAVORITES, "favorite", self._toggle_favorite) if favorite \
            else _action("action_details_like", MARK_AS_FAVORITE, "favorite_border",
                          self._toggle_favorite)
        bar = _bar(image_button(NAVIGATE_UP, "arrow_back", self.finish, text_color=WHITE, width=_BAR, height=_BAR),
                   View(weight=1), like, _overflow(lambda: self._set_popup("menu")), resource_id=_id("toolbar"),
                   background=_app_bar_color(self))
        body = View(kind="list", class_name="android.widget.ScrollView", key="scroll_view",
                    resource_id=_id("scroll_view"), children=self._items(recipe), scrollable=True, focusable=True,
                    weight=1, padding=_TEXT_MARGIN, spacing=_TEXT_MARGIN // 2)
        content = View(kind="column", class_name="android.view.ViewGroup", children=[bar, body], gravity="fill")
        if self.popup == "menu":
            return popup_menu(content, [(EDIT, self._edit), (DELETE_MENU_ITEM, lambda: self._set_popup("delete"))],
                              lambda: self._set_popup(""), PACKAGE, text_size=_MEDIUM, width=560)
        if self.popup == "delete":
            dialog = confirm_dialog(DELETE_RECIPE_QUESTION, CANCEL, lambda: self._set_popup(""), DELETE, self._delete)
            return dialog_over(content, dialog, lambda: self._set_popup(""))
        return content

    def _items(self, recipe: dict[str, Any]) -> list[View]:
        """``content_recipe_details``, one list item per line so a long recipe scrolls; empty parts are gone."""
        items = [text_view((recipe.get("title") or "").strip(), resource_id=_id("details_title"), text_size=_LARGE)]
        servings, time = recipe.get("servings") or "", recipe.get("preparationTime") or ""
        if servings or time:
            parts: list[View] = []
            if servings:
                parts += [_image("details_icon_servings", SERVINGS, hint="person", width=63, height=63),
                          text_view(servings, resource_id=_id("details_servings"), text_size=_BODY)]
            if time:
                parts += [_image("details_icon_preparation_time", PREPARATION_TIME, hint="time", width=63,
                                 height=63),
                          text_view(time, resource_id=_id("details_preparation_time"), text_size=_BODY)]
            items.append(row(*parts, spacing=13))
        categories = _store(self).category_names(self.recipe_id)
        if categories:
            items.append(row(_image("details_icon_categories", CATEGORIES_LABEL, hint="label", width=63, height=63),
                             text_view(", ".join(categories), resource_id=_id("details_categories"),
                                       text_size=_BODY)))
        if recipe.get("description"):
            items.append(text_view(recipe["description"], resource_id=_id("details_description"), text_size=_BODY))
        if recipe.get("source"):
            items.append(row(_image("details_icon_source", SOURCE, hint="link", width=63, height=63),
                             text_view(recipe["source"], resource_id=_id("details_source"), text_size=_BODY,
                                       weight=1)))
        ingredients = ingredient_items(recipe.get("ingredients") or "")
        if ingredients:
            items.append(text_view(INGREDIENTS, text_size=_MEDIUM, text_color=_GREEN_800))
            items += [group("row", "androidx.constraintlayout.widget.ConstraintLayout",
                            text_view(quantity, resource_id=_id("ingredient_quantity"), text_size=_BODY, bold=True,
                                      padding=4),
                            text_view(text, resource_id=_id("ingredient_text"), text_size=_BODY, padding=4,
                                      weight=1))
                      for quantity, text in ingredients]
        directions = direction_items(recipe.get("directions") or "")
        if directions:
            items.append(text_view(DIRECTIONS, text_size=_MEDIUM, text_color=_GREEN_800))
            items += [group("row", "android.widget.RelativeLayout",
                            text_view(str(position), resource_id=_id("direction_position"), text_size=_BODY,
                                      text_color=_GREEN_800, width=60),
                            text_view(text, resource_id=_id("direction_text"), text_size=_BODY, weight=1),
                            padding=13)
                      for position, text in enumerate(directions, start=1)]
        return items


# ----- create / edit --------------------------------------------------------------------------------------------
#: The form's text fields in layout order after the categories field: (column, resource id, hint, multi-line).
_FORM_FIELDS = (
    ("description", "new_description", DESCRIPTION, True),
    ("source", "new_source", SOURCE, False),
    ("servings", "new_servings", SERVINGS, False),
    ("preparationTime", "new_preparation_time", PREPARATION_TIME, False),
    ("ingredients", "new_ingredients", INGREDIENTS, True),
    ("directions", "new_directions", DIRECTIONS, True),
)
#: The column each form field edits, by the field's resource name (its focus key).
_COLUMN_OF = {"new_title": "title", **{name: column for column, name, *_ in _FORM_FIELDS}}
#: The form's focusable fields in focus order (the categories field takes no focus).
_FOCUS_ORDER = tuple(_COLUMN_OF)


class EditRecipeScreen(Screen):
    """``CreateAndEditRecipeActivity``: a new recipe, or the one in the intent; SAVE writes it."""

    activity = f"{PACKAGE}.recipe.crud.CreateAndEditRecipeActivity"
    FORM = "form"

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.recipe_id = int(intent.extras.get(RECIPE_ID, "0") or 0)
        found = _store(self).recipe(self.recipe_id) if self.recipe_id else None
        self.values = {column: (found or {}).get(column) or "" for column in TEXT_COLUMNS}
        self.dirty = False
        self.discard_dialog = False
        self._visible_for: tuple[str, bool, int] | None = None

    def _setter(self, column: str) -> Callable[[str], None]:
        def set_value(text: str) -> None:
            # onTextChanged ignores start == 0 && before == 0: the first character typed into an empty field.
            self.dirty = self.dirty or not (self.values[column] == "" and len(text) == 1)
            self.values[column] = text
        return set_value

    def on_back(self) -> bool:
        """``onBackPressed``: a dirty form asks first (an open dialog is dismissed)."""
        if self.discard_dialog:
            self.discard_dialog = False
            return True
        if self.dirty:
            self.discard_dialog = True
            return True
        return False

    def _close(self) -> None:
        """The toolbar's close button: ``showDiscardDialog(this::finish)``."""
        if self.dirty:
            self.discard_dialog = True
        else:
            self.finish()

    def _dismiss(self) -> None:
        self.discard_dialog = False

    def _save(self) -> None:
        """``onSaveClick``: a blank title only toasts; otherwise save and finish. A new recipe's details open."""
        if not self.values["title"].strip():
            return
        recipe_id = _store(self).save(self.recipe_id, dict(self.values))
        self.keyboard_shown = False
        self.finish()
        if not self.recipe_id:  # RecipeFragment's result callback: onListInteraction(recipe)
            self.phone.activities.push(self.app, RecipeDetailsScreen, Intent(extras={RECIPE_ID: str(recipe_id)}))

    def build(self) -> View:
        bar_color = _app_bar_color(self)  # the Save text button shows the bar through
        save = button(SAVE, self._save, resource_id=_id("button_save_recipe"), background=bar_color, text_size=_BODY,
                      width=220, height=_BAR)
        bar = _bar(image_button(NAVIGATE_UP, "close", self._close, text_color=WHITE, width=_BAR, height=_BAR),
                   _bar_title(NEW_RECIPE), save, resource_id=_id("toolbar"), background=bar_color)
        items = [self._photo(), self._field("title", "new_title", TITLE, False), self._categories(),
                 *(self._field(*field) for field in _FORM_FIELDS)]
        self._keep_focused_visible(items)
        form = View(kind="list", class_name="android.widget.ScrollView", key=self.FORM, children=items,
                    scrollable=True, focusable=True, weight=1)
        content = View(kind="column", class_name="android.view.ViewGroup", children=[bar, form], gravity="fill")
        if self.discard_dialog:
            dialog = confirm_dialog(DISCARD_CHANGES_QUESTION, CANCEL, self._dismiss, DISCARD, self.finish)
            return dialog_over(content, dialog, self._dismiss)
        return content

    @staticmethod
    def _photo() -> View:
        """The photo placeholder with its camera badge."""
        return frame(_image("new_image", RECIPE_PHOTO, hint="photo", height=_IMAGE_HEIGHT, background=DIVIDER),
                     _image("", CHANGE_PHOTO, hint="camera", width=110, height=110, gravity="bottom_end"),
                     padding=_TEXT_MARGIN)

    def _field(self, column: str, name: str, hint: str, multiline: bool) -> View:
        """A ``TextInputLayout`` around its ``TextInputEditText`` (an empty field reports the hint as its text)."""
        field = edit_text(self.values[column], hint, name, self._setter(column), resource_id=_id(name),
                          multiline=multiline, text_size=_FIELD)
        if not multiline:
            field.on_submit = self._focus_next(name)
        return _text_input(field)

    def _focus_next(self, name: str) -> Callable[[], None]:
        """ENTER on a single-line field (``TextView.shouldAdvanceFocusOnEnter``, the IME's "next" action): the
        focus moves down to the next field, which the form scrolls into view."""
        def move() -> None:
            self.focus_key = _FOCUS_ORDER[_FOCUS_ORDER.index(name) + 1]
        return move

    @staticmethod
    def _categories() -> View:
        """The categories field (``inputType="none"``, not focusable; its picker is not simulated)."""
        field = View(kind="edit", class_name="android.widget.EditText", resource_id=_id("new_categories"),
                     text=CATEGORIES_LABEL, hint=CATEGORIES_LABEL, text_size=_FIELD, text_color=TEXT_SECONDARY)
        return _text_input(field, field_icon(field, "down", _id("text_input_end_icon"), end=True))

    def _keep_focused_visible(self, items: list[View]) -> None:
        """Scroll the form so the focused field shows, as ``NestedScrollView`` does when focus moves, the window
        is resized for the keyboard (``adjustResize``) or typing moves the caret; otherwise the user's scroll
        position stays."""
        state = (self.focus_key, self.keyboard_shown, len(self.values.get(_COLUMN_OF.get(self.focus_key, ""), "")))
        if state == self._visible_for:
            return
        self._visible_for = state
        index = next((i for i, item in enumerate(items) if any(v.key == self.focus_key for v in item.walk())), None)
        if not self.focus_key or index is None:
            return
        heights = [measure_height(item, self.phone.window.design_width) for item in items]
        top = sum(heights[:index])
        viewport = (self.phone.window.design_height - STATUS_BAR_HEIGHT - self.phone.window.nav_bar_height - _BAR
                    - (KEYBOARD_HEIGHT if self.keyboard_shown else 0))
        offset = min(self.scroll.get(self.FORM, 0), top)
        self.scroll[self.FORM] = max(offset, top + heights[index] - viewport)


class Broccoli(App):
    """``com.flauschcode.broccoli``; its database exists from install on (as after the app's first start)."""

    package = PACKAGE
    label = APP_NAME
    icon, icon_color = "app_recipes", (67, 160, 71)
    version_name, version_code = "1.2.6", 1020600  # android_gym/device/apps.toml
    #: colorPrimary (green_800) for the toolkit's: a focused field's outline, floating label and caret; the fields'
    #: labels in colorControlNormal (the textInputStyle's ``android:textColorHint``), gray_600. Their start and end
    #: icons keep MaterialComponents' tint (``FIELD_ICON``).
    day_colors = {PRIMARY: _GREEN_800, FIELD_LABEL: _GRAY_600}
    #: Theme.Broccoli is on Theme.MaterialComponents.DayNight with a values-night variant, and the app's theme setting
    #: defaults to following the system (BroccoliApplication): by night Material Components' dark colours, colorPrimary
    #: and colorSecondary green_200 (a focused field, the headings, the FAB) with the FAB's icon
    #: ``colorOnSecondary`` black, colorSecondaryToolbar and colorStatusBarScrim ``colorSurface`` (the recipes'
    #: category bar, the status bar), the fields' outline colorOnSurface (white) at 38 % over it, their labels
    #: colorControlNormal gray_400.
    night_colors = {**MATERIAL_COMPONENTS_NIGHT, PRIMARY: _GREEN_200, _GREEN_800: _GREEN_200,
                    _GREEN_500: MATERIAL_COMPONENTS_NIGHT[WHITE], _GREEN_900: MATERIAL_COMPONENTS_NIGHT[WHITE],
                    _ON_SECONDARY: (0, 0, 0), _CARD: _CARD_NIGHT,
                    FIELD_STROKE: over(WHITE, 0.38, MATERIAL_COMPONENTS_NIGHT[WHITE]), FIELD_LABEL: _GRAY_400}
    #: ``android:statusBarColor`` is ``colorStatusBarScrim``: colorPrimaryVariant (green_900) by day (the details'
    #: transparent bar shows the same colour, its collapsing toolbar's ``statusBarScrim``).
    status_bar_color = _GREEN_900
    screens = (RecipesScreen, RecipeDetailsScreen, EditRecipeScreen)

    def __init__(self, phone: Context) -> None:
        super().__init__(phone)
        self.store = RecipeStore(phone)

    def on_clear(self) -> None:
        """``pm clear`` deleted the database: Room creates it again."""
        self.store.ensure_db()
