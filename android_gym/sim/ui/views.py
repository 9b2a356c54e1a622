"""The simulated phone's view toolkit: one ``View`` node type and factories for the widgets apps use.

A screen builds a fresh tree of views from its state on every frame (like a declarative UI); the same laid-out
tree is drawn into pixels and dumped as the uiautomator hierarchy, so the two never disagree. Each factory sets
the Android widget class the real app would have, so the dump reads like a real device's.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from PIL import Image

Callback = Callable[[], None]
Color = tuple[int, int, int]
#: The ``class_name`` of a view the real app does not have: a grouping the toolkit lays out by where a custom
#: ViewGroup places its children itself (Simple Calendar's ``MonthViewWrapper``: a grid of day cells, each its own
#: child), or a drawable its parent draws (a button's ``drawableTop``). The dump writes no node for it: its
#: children stand in its place.
LAYOUT_ONLY = ""


def does_nothing() -> None:
    """The callback of a view that takes a touch and changes nothing (a button this phone does not act on): the
    window does not rebuild the screen after it."""


WHITE: Color = (255, 255, 255)
TEXT: Color = (33, 33, 33)
TEXT_SECONDARY: Color = (117, 117, 117)
PRIMARY: Color = (25, 118, 210)
DIVIDER: Color = (224, 224, 224)


class Role(tuple[int, int, int]):
    """A colour a theme names, drawn as the RGB it holds but a key of its own: equal only to itself, so a theme's
    palette (``App.day_colors``, ``night_colors``) maps it apart from any plain colour or other role of that value.
    MaterialComponents tints an outlined field's label and its icons both ``colorOnSurface`` at 60 %, yet an app's
    ``android:textColorHint`` changes the label alone. One object a name and colour, so a copy or a pickle of it is
    it."""

    name: str
    _made: ClassVar[dict[tuple[str, Color], Role]] = {}

    def __new__(cls, name: str, color: Color) -> Role:
        key = (name, tuple(color))
        role = cls._made.get(key)
        if role is None:
            role = cls._made[key] = super().__new__(cls, color)
            role.name = name
        return role

    def __reduce__(self) -> tuple[type[Role], tuple[str, Color]]:
        return Role, (self.name, tuple(self))

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"Role({self.name!r}, {tuple(self)})"


def over(color: Color, opacity: float, backdrop: Color = WHITE) -> Color:
    """``color`` drawn at ``opacity`` (0-1) over ``backdrop``: a translucent colour, or a view drawn at a
    ``View.setAlpha``, as it shows."""
    return tuple(round(c * opacity + b * (1 - opacity)) for c, b in zip(color, backdrop))


#: A RecyclerView's class (androidx ``recyclerview``), as the dump names it.
RECYCLER_VIEW = "androidx.recyclerview.widget.RecyclerView"
#: The width of a CheckBox's button drawable (AppCompat's ``abc_btn_check_material``: 32 dp at 420 dpi), before its
#: label.
CHECK_BUTTON_WIDTH = 84
#: A Switch's state text (frameworks/base core/res/res/values/strings.xml: capital_on, capital_off).
SWITCH_ON, SWITCH_OFF = "ON", "OFF"
#: Which corners ``View.corner`` rounds: top left, top right, bottom right, bottom left.
Corners = tuple[bool, bool, bool, bool]
ALL_CORNERS: Corners = (True, True, True, True)
#: A bottom sheet's shape: its top corners rounded, its bottom ones square (Material's ShapeAppearance with only
#: ``cornerSizeTopLeft``/``cornerSizeTopRight``; a drawable's ``<corners android:topLeftRadius topRightRadius>``).
TOP_CORNERS: Corners = (True, True, False, False)


@dataclass(eq=False, init=False)
class View:
    """A node of the view tree: accessibility properties, layout parameters, style and callbacks.

    ``width``/``height`` of ``None`` mean match-parent width / wrap-content height (at least ``min_height``, as
    ``android:minHeight``). ``weight`` shares the
    space a Column or Row has left over. ``gravity`` places a child inside a Frame (``"top"``, ``"bottom"``,
    ``"bottom_end"``, ``"center"``); ``"center_horizontal"`` makes a Column's child as wide as its content and
    centres it; ``"fill"`` makes a Row's child as tall as the row (otherwise it is centred vertically). A ``label``
    (text a custom view paints) with ``"center"`` is painted centred on the view (``Paint.Align.CENTER``), and so
    is each line of a TextView (``kind="text"``) with ``"center"`` (``android:gravity="center"``).
    ``key`` identifies an editable or scrollable view across rebuilds.
    ``selection`` is the focused EditText's ``(start, end)`` selection (equal ends: the caret), set by the window.
    ``on_seek`` makes a view a SeekBar: the window calls it with the touched fraction of the track (0..1, as
    ``AbsSeekBar.trackTouchEvent`` computes it); ``progress`` is the fraction drawn as filled. ``on_fling``
    takes a mostly horizontal drag that starts on the view, with the way the finger moved (``"left"`` or
    ``"right"``): a ViewPager turning pages, an ``ItemTouchHelper`` swipe on a list row. ``on_drag`` makes a view a
    drawing surface: it takes every drag (and tap) that starts on it, in any direction, as ``(x1, y1, x2, y2)`` in
    the view's own coordinates. ``image`` is a picture the view shows scaled to fit (``fitCenter``); ``key`` then
    names those pixels (a path and modification time), so the renderer redraws when the picture changes; a picture
    that costs to make (a web page's screenshot, a decoded photo) may be given as a function that makes it, called
    only when the view is drawn (a function that returns ``None``, a file that fails to decode, draws nothing).
    ``whole`` is set by the layout on a view that lies partly inside a list (a row half scrolled in at the list's
    top or bottom edge, a long note's EditText in a ScrollView, and their descendants crossing the edge): its
    ``bounds`` are then the part the list shows (what the dump writes and a touch hits) and ``whole`` the bounds
    of all of it, where it is drawn, clipped to ``bounds`` at the edges they were cut at.
    ``virtual`` marks a node of an ``AccessibilityNodeProvider`` (a web page's content inside a WebView): it is
    dumped for accessibility but drawn and touched only through its host view; a ``web`` view places its virtual
    descendants, whose ``bounds`` the app gives relative to the web view's top-left corner.
    ``corner`` rounds the background's corners (px), those ``corners`` names (all four unless told:
    ``TOP_CORNERS`` for a bottom sheet); ``elevation`` (px) gives the view Material's shadow, larger
    the higher it floats (an app bar 4 dp, a dialog 24 dp). ``button_tint`` is the colour a checked CheckBox's box
    is filled with (``android:buttonTint``: the theme's ``colorAccent``), ``button_tint_off`` the colour an unchecked
    one is outlined in (``None``: ``?colorControlNormal``, the window's secondary text colour); ``box_at_end`` puts
    the box after its label, at the view's end (``android:layoutDirection="rtl"`` on a CheckBox whose label reads
    left to right).
    ``indent`` moves a field's text further in from its start than its padding (the room a ``TextInputLayout``'s
    start icon takes: the EditText's compound padding).
    ``underline`` draws an EditText's default background, its underline; off for a field whose layout replaces it
    (``android:background="@null"``: a search bar's or an address bar's field). ``outlined`` draws it instead as
    Material's outlined box (``outlined_field``).
    """

    kind: str = "view"
    #: The node's class in the dump; ``LAYOUT_ONLY`` (empty) for a grouping that is no view of the app.
    class_name: str = "android.view.View"
    resource_id: str = ""
    text: str = ""
    content_desc: str = ""
    hint: str = ""
    checkable: bool = False
    checked: bool = False
    clickable: bool = False
    long_clickable: bool = False
    focusable: bool = False
    focused: bool = False
    #: A view that scrolls: a list (``kind="list"``), or a ViewPager that says whether it has pages to turn to. Its
    #: node says so only when it can scroll (``can_scroll``).
    scrollable: bool = False
    enabled: bool = True
    selected: bool = False
    password: bool = False
    virtual: bool = False
    #: A modal scrim (``dialogs.scrim_over``): neither it nor the views its parent holds before it are in the dump or
    #: the accessibility forest. Over a dialog, a sheet or a popup the active window uiautomator dumps is theirs, not
    #: the activity's, and an open ``DrawerLayout`` hides its content from accessibility.
    modal: bool = False
    children: list[View] = field(default_factory=list)
    on_click: Callback | None = None
    on_long_click: Callback | None = None
    on_text: Callable[[str], None] | None = None
    on_submit: Callback | None = None
    on_seek: Callable[[float], None] | None = None
    on_fling: Callable[[str], None] | None = None
    on_drag: Callable[[float, float, float, float], None] | None = None
    image: Image.Image | Callable[[], Image.Image | None] | None = None
    key: str = ""
    multiline: bool = False
    #: ``android:singleLine``: a text shown on one line, cut with "…" when it does not fit.
    single_line: bool = False
    #: ``android:maxLines`` with ``ellipsize="end"``: a text wrapped to at most this many lines, the last cut with
    #: "…" (0: no limit); the accessibility node keeps the whole text.
    max_lines: int = 0
    value: str = ""
    selection: tuple[int, int] | None = None
    width: int | None = None
    height: int | None = None
    min_height: int = 0
    #: A height that larger text does not change (``android:layout_height="120dp"`` on a card whose texts are
    #: clamped by ``max_lines``), where other fixed heights turn into minimum heights (``looks.scale_text``).
    exact_height: bool = False
    weight: float = 0.0
    padding: int = 0
    indent: int = 0
    spacing: int = 0
    gravity: str = "top"
    margin: int = 0
    text_size: int = 42
    text_color: Color = TEXT
    background: Color | None = None
    corner: int = 0
    corners: Corners = ALL_CORNERS
    elevation: int = 0
    bold: bool = False
    button_tint: Color = PRIMARY
    button_tint_off: Color | None = None
    box_at_end: bool = False
    underline: bool = True
    outlined: bool = False
    #: An outlined field's floating label's text size (sp: ``looks.scale_text`` scales it with the text), on the
    #: field and on the room its layout leaves above it, half the label's line (0: no label).
    label_size: int = 0
    progress: float = 0.0
    scroll_offset: int = 0
    #: Set by the layout on a list: the furthest it scrolls (its items' height less its own, at least 0).
    scroll_max: int = 0
    whole: tuple[int, int, int, int] | None = None
    bounds: tuple[int, int, int, int] = (0, 0, 0, 0)

    def __init__(self, **props: Any) -> None:
        """A view with the fields ``props`` names; the others keep their defaults, read through the class, and
        ``children`` is a new list. A frame builds hundreds of views: the ``__init__`` a dataclass writes assigns
        all sixty fields of each, four times the cost (and copying ``props`` into the view's dict a third more)."""
        if not _FIELD_NAMES.issuperset(props):
            raise TypeError(f"View has no field(s) {sorted(set(props) - _FIELD_NAMES)}")
        if "children" not in props:
            props["children"] = []
        self.__dict__ = props  # a new dict at every call: it becomes the view's own

    @property
    def editable(self) -> bool:
        """Whether the view takes typed text (an EditText)."""
        return self.on_text is not None

    @property
    def can_scroll(self) -> bool:
        """``AccessibilityNodeInfo.isScrollable()`` of the laid-out view, its ``scrollable`` attribute in the dump: a
        list only when its content is longer than it (``scroll_max``), so that it can scroll one way or the other (at
        either end it can still scroll back). RecyclerView's ``LayoutManager.onInitializeAccessibilityNodeInfo`` sets
        it when ``canScrollVertically(-1)`` or ``(1)``; ScrollView and NestedScrollView when ``isEnabled()`` and
        ``getScrollRange() > 0``, AbsListView (ListView) when ``isEnabled()`` and ``canScrollUp()`` or
        ``canScrollDown()``: a disabled list is scrollable only as a RecyclerView. Another view (a ViewPager:
        ``canScroll()``, more than one page) says it with ``scrollable``."""
        if self.kind != "list" or not self.scrollable:
            return self.scrollable
        return self.scroll_max > 0 and (self.enabled or self.class_name == RECYCLER_VIEW)

    def with_bounds(self, bounds: tuple[int, int, int, int],
                    whole: tuple[int, int, int, int] | None = None) -> View:
        """A copy of this node alone (its fields and its list of children shared) with ``bounds`` and ``whole``.
        Copied without ``dataclasses.replace``, which runs ``__init__`` and costs 15 times more."""
        copy = object.__new__(View)
        copy.__dict__.update(self.__dict__)
        copy.bounds, copy.whole = bounds, whole
        return copy

    def walk(self) -> Iterator[View]:
        """This view and all descendants, pre-order (a view's children are read when it has been yielded)."""
        stack = [self]
        pop, extend = stack.pop, stack.extend
        while stack:
            view = pop()
            yield view
            if view.children:
                extend(reversed(view.children))


_FIELD_NAMES = frozenset(view_field.name for view_field in fields(View))


def copied(view: View) -> View:
    """A copy of a tree, node by node (fields shared, children lists new): laying out or restyling either leaves the
    other as it was (layout sets bounds and positions and gives containers new lists of children, never changing a
    list it read). Copied without ``dataclasses.replace``, which runs ``__init__``."""
    copy = object.__new__(View)
    fields = view.__dict__.copy()
    fields["children"] = [copied(child) for child in view.children] if view.children else []
    copy.__dict__ = fields
    return copy


def column(*children: View, **props) -> View:
    """A vertical LinearLayout."""
    return View(kind="column", class_name="android.widget.LinearLayout", children=list(children), **props)


def row(*children: View, **props) -> View:
    """A horizontal LinearLayout; children without a width share the row by weight."""
    return View(kind="row", class_name="android.widget.LinearLayout", children=list(children), **props)


def frame(*children: View, **props) -> View:
    """A FrameLayout: children stacked on top of each other, placed by their ``gravity``."""
    return View(kind="frame", class_name="android.widget.FrameLayout", children=list(children), **props)


def side_margins(child: View, margin: int, **props) -> View:
    """``child`` with ``margin`` px of room at its start and end (its layout margins): a row the dump writes no node
    for, ``child`` taking what the margins leave (give it a ``weight``)."""
    return View(kind="row", class_name=LAYOUT_ONLY, children=[
        View(class_name=LAYOUT_ONLY, width=margin), child, View(class_name=LAYOUT_ONLY, width=margin)], **props)


def group(kind: str, class_name: str, *children: View, **props) -> View:
    """A ``column``/``row``/``frame``/``list`` layout reported under the widget class the real layout uses
    (a ``RelativeLayout``, a ``ScrollView``, a ``Switch``-like tile, ...)."""
    return View(kind=kind, class_name=class_name, children=list(children), **props)


def text_view(text: str, **props) -> View:
    """A TextView that wraps its text."""
    props.setdefault("padding", 12)
    return View(kind="text", class_name="android.widget.TextView", text=text, **props)


def button(text: str, on_click: Callback, **props) -> View:
    """A Button with a label."""
    props.setdefault("height", 132)
    props.setdefault("padding", 24)
    props.setdefault("text_color", WHITE)
    props.setdefault("background", PRIMARY)
    return View(kind="button", class_name="android.widget.Button", text=text, clickable=True, focusable=True,
                on_click=on_click, **props)


def image_button(content_desc: str, icon: str, on_click: Callback, **props) -> View:
    """An ImageButton drawn as an icon glyph (``icon``), described by ``content_desc``."""
    props.setdefault("width", 132)
    props.setdefault("height", 132)
    return View(kind="icon", class_name="android.widget.ImageButton", text="", content_desc=content_desc,
                clickable=True, focusable=True, on_click=on_click, hint=icon, **props)


def fab(content_desc: str, icon: str, on_click: Callback, **props) -> View:
    """A floating action button at the bottom end of its Frame."""
    props.setdefault("width", 168)
    props.setdefault("height", 168)
    props.setdefault("gravity", "bottom_end")
    props.setdefault("margin", 48)
    props.setdefault("background", PRIMARY)
    props.setdefault("text_color", WHITE)
    return View(kind="fab", class_name="android.widget.ImageButton", content_desc=content_desc, hint=icon,
                clickable=True, focusable=True, on_click=on_click, **props)


def edit_text(value: str, hint: str, key: str, on_text: Callable[[str], None], *, focused: bool = False,
              **props) -> View:
    """An EditText bound to ``value``; ``on_text`` receives the new full value on every edit.

    As on Android, an empty field's node text is its hint.
    """
    props.setdefault("padding", 24)
    return View(kind="edit", class_name="android.widget.EditText", text=value or hint, value=value, hint=hint, key=key,
                on_text=on_text, clickable=True, focusable=True, focused=focused, long_clickable=True, **props)


#: Material's outlined text field (``Widget.Material3.TextInputLayout.OutlinedBox``, the Material 3 theme's
#: ``textInputStyle``): its label's collapsed size (``bodySmall``, 12 sp), the field's padding around its text (its
#: ``TextInputEditText.OutlinedBox`` style: 16 dp), the outline's corner radius (``shapeAppearanceCornerExtraSmall``,
#: 4 dp), its stroke unfocused and focused (``boxStrokeWidth`` 1 dp, ``boxStrokeWidthFocused`` 2 dp) and the gap cut
#: into its top edge on either side of the floating label (``mtrl_textinput_box_label_cutout_padding``, 4 dp), in
#: design px at 420 dpi; the room the layout leaves above the field for the floating label at font scale 1: half its
#: line (``layout.line_height``, 1.3 times its size); and the field's least height, 56 dp (MaterialComponents'
#: ``Base.Widget.MaterialComponents.TextInputEditText``: 17 dp above and below a 16 sp line of 22 dp).
OUTLINED_LABEL_SIZE, OUTLINED_PADDING, OUTLINED_CORNER = 31, 42, 10
OUTLINED_STROKE, OUTLINED_STROKE_FOCUSED, OUTLINED_CUTOUT = 3, 5, 10
OUTLINED_LABEL_MARGIN, OUTLINED_MIN_HEIGHT = 20, 147
#: MaterialComponents' outlined field by day, over white: its unfocused outline ``colorOnSurface`` (black) at 38 %
#: (``mtrl_outlined_stroke_color``) and its label, inside or floating unfocused, at 60 % (``android:textColorHint``,
#: ``mtrl_indicator_text_color``). A theme's palette maps them (Simple-Commons tints both with its hint colour).
FIELD_STROKE: Color = over((0, 0, 0), 0.38)
FIELD_LABEL: Color = over((0, 0, 0), 0.6)
#: The tint of its start and end icons (``startIconTint``/``endIconTint``, ``mtrl_outlined_icon_tint``):
#: ``colorOnSurface`` at 60 % too, but a role apart from the label, which an app's ``android:textColorHint`` recolours.
FIELD_ICON: Color = Role("mtrl_outlined_icon_tint", FIELD_LABEL)
#: The room a ``TextInputLayout``'s start or end icon takes: its ImageButton's 48 dp touch target
#: (``mtrl_min_touch_target_size``), the icon 24 dp in its middle.
FIELD_ICON_WIDTH = 126


def outlined_field(field: View, *inside: View, **props) -> View:
    """A ``TextInputLayout`` in the outlined-box style around an EditText ``field`` (``edit_text``), its hint the
    label; ``inside`` lie in its frame with it (a suffix text at its end, ``field_icon``). The layout (a
    LinearLayout in the dump, ``props`` its id and margins) sets the field's frame half a collapsed label's height
    down (``calculateLabelMarginTop``), so the label can float across the outline's top edge. A field that wraps its
    text is at least 56 dp tall, its text (or the label inside) centred in it (``selection.text_top``). The outline
    is the field's background, drawn at its bounds (``_draw_edit``): 1 dp in ``FIELD_STROKE``, 2 dp in the primary
    colour when focused. The label (in ``FIELD_LABEL``) lies inside the box where the text goes while the field is
    empty and unfocused, and floats in a gap cut into the top edge, 12 sp (``label_size``, which grows with the font
    scale, and the room above with it), when it has text or the focus (the primary colour then). The dump shows the
    label as the field's hint (its text when empty), as TextInputLayout's accessibility delegate reports it."""
    field.outlined, field.underline, field.padding = True, False, OUTLINED_PADDING
    field.label_size = OUTLINED_LABEL_SIZE
    if field.height is None:
        field.min_height = max(field.min_height, OUTLINED_MIN_HEIGHT)
    return column(View(class_name=LAYOUT_ONLY, label_size=OUTLINED_LABEL_SIZE), frame(*inside, field), **props)


def field_icon(field: View, icon: str, resource_id: str, *, end: bool = False) -> View:
    """A ``TextInputLayout``'s start icon (``startIconDrawable``; ``end``: its end icon) for ``field``, to lie in its
    box (``outlined_field``'s ``inside``): a not clickable ImageButton at the box's start (or end), the touch target
    wide, the icon in ``FIELD_ICON`` (MaterialComponents' ``startIconTint``/``endIconTint``: ``colorOnSurface`` at
    60 %; Material 3's ``m3_textfield_indicator_text_color``, ``colorOnSurfaceVariant`` as its label); a start icon
    moves the field's text and hint in past it (the EditText's compound padding)."""
    if end:
        return View(kind="icon", class_name="android.widget.ImageButton", resource_id=resource_id, hint=icon,
                    width=FIELD_ICON_WIDTH, height=FIELD_ICON_WIDTH, gravity="center_vertical_end",
                    text_color=FIELD_ICON)
    field.indent = FIELD_ICON_WIDTH - OUTLINED_PADDING
    return View(kind="icon", class_name="android.widget.ImageButton", resource_id=resource_id, hint=icon,
                width=FIELD_ICON_WIDTH, gravity="fill", text_color=FIELD_ICON)


def switch(label: str, checked: bool, on_click: Callback, **props) -> View:
    """A Switch widget with its label."""
    props.setdefault("height", 150)
    props.setdefault("padding", 36)
    return View(kind="switch", class_name="android.widget.Switch", text=SWITCH_ON if checked else SWITCH_OFF,
                content_desc=label, checkable=True, checked=checked, clickable=True, focusable=True,
                on_click=on_click, **props)


def check_box(label: str, checked: bool, on_click: Callback | None, **props) -> View:
    """A CheckBox: its box (an 18 dp rounded square, filled in ``button_tint`` with a tick when checked) before its
    label; at least as tall as its box's drawable. Clickable only if given ``on_click`` (otherwise the row around it
    takes the touch)."""
    props.setdefault("min_height", CHECK_BUTTON_WIDTH)
    return View(kind="check", class_name="android.widget.CheckBox", text=label, checkable=True, checked=checked,
                clickable=on_click is not None, focusable=True, on_click=on_click, **props)


def toggle(checked: bool, **props) -> View:
    """A bare Switch (no label of its own, as in a preference's widget frame); clickable only if given
    ``on_click``, otherwise the row around it takes the touch."""
    props.setdefault("width", 160)
    props.setdefault("height", 126)
    clickable = props.get("on_click") is not None
    return View(kind="toggle", class_name="android.widget.Switch", text=SWITCH_ON if checked else SWITCH_OFF,
                checkable=True, checked=checked, clickable=clickable, focusable=clickable, **props)


def seek_bar(progress: int, max_progress: int, on_progress: Callable[[int], None], **props) -> View:
    """A SeekBar at ``progress`` of ``max_progress``; a touch or drag on it reports the new progress to
    ``on_progress`` (``AbsSeekBar``: ``Math.round(scale * max)``, the scale clamped to the track)."""
    props.setdefault("height", 126)  # minHeight 48dp at 420 dpi
    props.setdefault("focusable", True)

    def seek(scale: float) -> None:
        on_progress(math.floor(min(max(scale, 0.0), 1.0) * max_progress + 0.5))

    return View(kind="seekbar", class_name="android.widget.SeekBar", on_seek=seek,
                progress=progress / max_progress if max_progress else 0.0, **props)


def image_view(image: Image.Image | Callable[[], Image.Image | None] | None, key: str, **props) -> View:
    """An ImageView showing ``image`` scaled to fit its bounds, keeping its aspect ratio, centred (``fitCenter``).

    ``key`` must change whenever the pixels do (e.g. the file's path and modification time), so the renderer
    never compares pixels; ``None`` draws nothing (an image still loading or failing to decode); a function that
    makes the image is called only when the view is drawn.
    """
    return View(kind="image", class_name="android.widget.ImageView", image=image, key=key, **props)


def drawing_surface(on_drag: Callable[[float, float, float, float], None],
                    image: Image.Image | Callable[[], Image.Image] | None, key: str, **props) -> View:
    """A custom View that draws under the finger (a canvas, reported as a plain ``android.view.View``):
    ``on_drag(x1, y1, x2, y2)`` gets each drag that starts on it, in view coordinates; it shows ``image`` (the
    drawing so far, named by ``key`` as in ``image_view``; a callable is asked only when the view is drawn)."""
    return View(kind="view", class_name="android.view.View", on_drag=on_drag, image=image, key=key, **props)


def web_view(title: str, nodes: list[View], on_drag: Callable[[float, float, float, float], None],
             image: Callable[[], Image.Image], key: str, **props) -> View:
    """A WebView showing a page: ``image`` makes its pixels (asked only when the view is drawn), ``nodes`` its
    content as virtual accessibility nodes (bounds relative to the view), ``on_drag`` takes every touch on it in view
    coordinates (a tap as a drag that does not move)."""
    return View(kind="web", class_name="android.webkit.WebView", text=title, children=nodes, on_drag=on_drag,
                image=image, key=key, focusable=True, **props)


#: The height of ``?android:listDivider`` (``list_divider_material``, a 1 dp nine-patch) in design px at 420 dpi.
LIST_DIVIDER_HEIGHT = 3


def divided(item: View, color: Color) -> View:
    """A RecyclerView's ``item`` with the line a ``DividerItemDecoration`` draws below it in ``color`` (the theme's
    ``listDivider``: ``list_divider_material``, ``colorForeground`` at 12 %, over the list's background), as tall as
    the offset the decoration leaves before the next item. A decoration is no view: the dump shows ``item`` alone."""
    return View(kind="column", class_name=LAYOUT_ONLY, children=[
        item, View(class_name=LAYOUT_ONLY, height=LIST_DIVIDER_HEIGHT, background=color)])


def scroll_list(*children: View, key: str, scroll_offset: int = 0, **props) -> View:
    """A RecyclerView: a vertical list that scrolls; the items with a part inside its bounds are kept, those
    crossing its edges cut to it (``layout._cut``)."""
    return View(kind="list", class_name=RECYCLER_VIEW, children=list(children), key=key, scroll_offset=scroll_offset,
                scrollable=True, focusable=True, **props)


def toolbar(title: str, *actions: View, navigation: View | None = None, **props) -> View:
    """An app bar: optional navigation button, title, then action buttons."""
    props.setdefault("height", 168)
    props.setdefault("background", PRIMARY)
    props.setdefault("elevation", 11)  # AppBarLayout: 4 dp
    items = ([navigation] if navigation else []) + [
        text_view(title, weight=1, text_color=WHITE, text_size=54, bold=True, padding=40)
    ] + list(actions)
    return View(kind="row", class_name="android.view.ViewGroup", children=items, **props)


def divider() -> View:
    """A one-line separator."""
    return View(kind="view", class_name="android.view.View", height=2, background=DIVIDER)


def app_icon(label: str, icon: str, color: Color, on_click: Callback, on_long_click: Callback, *,
             show_label: bool = True, **props) -> View:
    """A launcher shortcut: the app's round icon (glyph ``icon`` in white on ``color``) above the label; a
    TextView, as on the Pixel launcher. Without ``show_label`` (the dock's) the label is not drawn but is still
    its text, as Launcher3 hides it (``BubbleTextView.setTextVisibility``).

    It is long-clickable with its own handler (Launcher3 sets ``ItemLongClickListener`` on every workspace
    item), so a long press never falls through to ``on_click``.
    """
    props.setdefault("height", 260)
    return View(kind="app_icon" if show_label else "dock_icon", class_name="android.widget.TextView", text=label,
                content_desc=label, hint=icon,
                clickable=True, focusable=True, long_clickable=True, on_click=on_click,
                on_long_click=on_long_click, background=color, text_size=36, **props)
