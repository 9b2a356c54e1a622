"""Pieces of Simple Mobile Tools' shared library, Simple-Commons, that several simulated apps use (Simple SMS
Messenger, Simple Calendar Pro, Simple Gallery Pro, Simple Draw Pro): ``MySearchMenu``
(``views/MySearchMenu.kt``, ``layout/menu_search.xml``) and ``String.isAValidFilename``
(``extensions/String.kt``).
"""

from __future__ import annotations

from android_gym.sim.framework.app import Screen
from android_gym.sim.framework.looks import MATERIAL_YOU_NIGHT
from android_gym.sim.ui.views import Color, View

#: Simple-Commons ``res/values/colors.xml``: ``color_primary`` #F57C00 (``color_accent`` is the same), the apps'
#: default primary colour, which their FABs, highlights and links use (``getProperPrimaryColor``).
PRIMARY: Color = (0xF5, 0x7C, 0x00)
#: ``MySearchMenu``'s background: the primary colour at low alpha over the white window.
SEARCH_BACKGROUND: Color = (253, 236, 214)
#: The apps' colours in the dark theme. On Android 12+ they use the system theme by default (``BaseConfig``:
#: ``isUsingSystemTheme`` defaults to ``isSPlus()``), whose ``you_background_color`` and text colours have
#: ``values-night`` variants (Material You's dark surfaces); the search bar is the primary colour at low alpha over
#: the dark window.
NIGHT_COLORS: dict[Color, Color] = {**MATERIAL_YOU_NIGHT, SEARCH_BACKGROUND: (65, 46, 26)}


def valid_name(name: str) -> bool:
    """``String.isAValidFilename``: none of ``/\\n\\r\\t\\0\\f`?*\\<>|":``, and not "." or ".."."""
    return bool(name) and name not in (".", "..") and not any(char in name for char in '/\n\r\t\0\f`?*\\<>|":')


class SearchMenuScreen(Screen):
    """A screen with a ``MySearchMenu``: its field's text, and whether search is open (the field has focus)."""

    SEARCH_KEY = "top_toolbar_search"
    search_text = ""

    @property
    def search_open(self) -> bool:
        """``MySearchMenu.isSearchOpen``: the search field has focus."""
        return self.focus_key == self.SEARCH_KEY

    def set_search(self, text: str) -> None:
        """The search field's text changed."""
        self.search_text = text

    def close_search(self) -> None:
        """``closeSearch``: the text is cleared and the keyboard goes."""
        self.search_text, self.focus_key, self.keyboard_shown = "", "", False


def search_menu(package: str, icon: View, field: View, items: list[View], background: Color, height: int,
                padding: int) -> View:
    """``menu_search.xml``: ``top_app_bar_layout`` holding ``top_toolbar_holder`` with the search (or back-arrow)
    ``icon``, the search ``field`` and the ``top_toolbar`` with the screen's menu ``items``."""
    def rid(name: str) -> str:
        return f"{package}:id/{name}"

    toolbar = View(kind="row", class_name="android.view.ViewGroup", resource_id=rid("top_toolbar"), children=items)
    holder = View(kind="row", class_name="android.widget.RelativeLayout", resource_id=rid("top_toolbar_holder"),
                  background=background, height=height, children=[icon, field, toolbar])
    return View(kind="column", class_name="android.widget.LinearLayout", resource_id=rid("top_app_bar_layout"),
                padding=padding, children=[holder])
