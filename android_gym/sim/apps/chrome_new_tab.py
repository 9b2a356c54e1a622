"""Chrome's new-tab page (``NewTabPageLayout``, the native page Chrome shows for its home page) as it shows with no
network and no account: the default Google logo (``search_provider_logo``, a ``LogoView`` without content-desc,
not clickable) over the fake search box (``fake_search_box_layout``: the Google "G", the ``search_box_text``
EditText with the hint "Search or type web address", the voice search button). A tap on the box focuses the
omnibox, as ``SearchBoxContainerView``'s click does.

Not drawn: the most-visited tiles (no history, and their icons come from the network) and the Discover feed (its
articles do too).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from android_gym.sim.framework.display import dp
from android_gym.sim.ui.layout import font
from android_gym.sim.ui.views import (
    LAYOUT_ONLY,
    TEXT_SECONDARY,
    WHITE,
    Callback,
    View,
    column,
    does_nothing,
    row,
)

PACKAGE = "com.android.chrome"
URL_HINT = "Search or type web address"  # search_or_type_web_address: the omnibox's and this box's hint
VOICE_SEARCH = "Start voice search"  # accessibility_toolbar_btn_mic
#: The Google logo's letters and their colours (Google's blue, red, yellow, blue, green, red); by night Chrome draws
#: the logo white.
_LOGO = (("G", (66, 133, 244)), ("o", (234, 67, 53)), ("o", (251, 188, 5)), ("g", (66, 133, 244)),
         ("l", (52, 168, 83)), ("e", (234, 67, 53)))
_LOGO_FONT_SIZE = 200
_GOOGLE_BLUE = (66, 133, 244)
_SEARCH_BOX_BG = (241, 243, 244)  # the omnibox's and the fake box's grey
def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


@lru_cache(maxsize=2)
def google_logo(night: bool) -> Image.Image:
    """The Google wordmark on a transparent ground, cut to its ink: coloured letters by day, white by night."""
    face = font(_LOGO_FONT_SIZE, bold=True)
    width = round(sum(face.getlength(letter) for letter, _ in _LOGO))
    image = Image.new("RGBA", (width, _LOGO_FONT_SIZE * 2), (0, 0, 0, 0))
    draw, x = ImageDraw.Draw(image), 0.0
    for letter, color in _LOGO:
        draw.text((round(x), 0), letter, font=face, fill=(*(WHITE if night else color), 255))
        x += face.getlength(letter)
    bbox = image.getbbox()
    assert bbox is not None
    return image.crop(bbox)


def new_tab_page(night: bool, focus_omnibox: Callback, **props) -> View:
    """The page under the toolbar: the logo, then the fake search box, whose tap calls ``focus_omnibox``."""
    logo = View(kind="image", class_name="android.widget.FrameLayout", image=google_logo(night),
                key=f"chrome-google-logo:{night}", resource_id=_id("search_provider_logo"), height=dp(72))
    g = View(kind="icon", class_name="android.widget.ImageView", hint="google", text_color=_GOOGLE_BLUE,
             resource_id=_id("search_box_engine_icon"), width=dp(40), height=dp(40))
    text = View(kind="text", class_name="android.widget.EditText", text=URL_HINT, text_color=TEXT_SECONDARY,
                resource_id=_id("search_box_text"), clickable=True, on_click=focus_omnibox, single_line=True,
                padding=dp(4), weight=1)
    mic = View(kind="icon", class_name="android.widget.ImageView", hint="mic", text_color=TEXT_SECONDARY,
               content_desc=VOICE_SEARCH, resource_id=_id("voice_search_button"), clickable=True, focusable=True,
               on_click=does_nothing, width=dp(48), height=dp(48))
    box = row(g, text, mic, resource_id=_id("search_box"),
              background=_SEARCH_BOX_BG, corner=dp(24), height=dp(48), padding=dp(8))
    # the logo 26 dp below the toolbar, the box 16 dp from the page's sides (the column's padding)
    top = View(class_name=LAYOUT_ONLY, height=dp(10))
    return column(top, logo, box, resource_id=_id("ntp_content"), background=WHITE, padding=dp(16),
                  spacing=dp(24), **props)
