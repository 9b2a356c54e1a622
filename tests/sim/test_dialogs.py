"""The shared dialog toolkit: AppCompat's button ids and order, and the scrim that dismisses on an outside touch."""

from __future__ import annotations

from android_gym.sim.framework.app import App, Screen
from android_gym.sim.phone import Phone
from android_gym.sim.ui.dialogs import alert_dialog, confirm_dialog, dialog_over
from android_gym.sim.ui.layout import layout
from android_gym.sim.ui.views import View, button, column, text_view
from android_gym.ui import parse_ui_dump


def test_alert_dialog_buttons_neutral_first_then_negative_and_positive():
    dialog = alert_dialog([text_view("Body")], [("button1", "OK", lambda: None), ("button3", "Later", lambda: None),
                                                ("button2", "Cancel", lambda: None)], title="Title", package="p.q")
    buttons = [v for v in dialog.walk() if v.class_name == "android.widget.Button"]
    assert [(b.resource_id, b.text) for b in buttons] == [
        ("android:id/button3", "Later"), ("android:id/button1", "OK"), ("android:id/button2", "Cancel")]
    assert dialog.children[0].resource_id == "p.q:id/alertTitle"
    scroll = confirm_dialog("Sure?", "No", lambda: None, "Yes", lambda: None).children[0]
    message = scroll.children[0]
    assert scroll.resource_id == "android:id/scrollView" and scroll.scrollable  # alert_dialog_material.xml
    assert (message.resource_id, message.text) == ("android:id/message", "Sure?")


def test_a_message_longer_than_the_window_scrolls_and_the_buttons_stay_on_screen():
    message = "\n".join(f"/storage/emulated/0/Documents/Markor/note_{i}.md" for i in range(40))
    screen = dialog_over(column(), confirm_dialog(message, "Cancel", lambda: None, "OK", lambda: None), None)
    layout(screen, 0, 0, 1080, 1200)
    ok = next(v for v in screen.walk() if v.resource_id == "android:id/button1")
    scroll = next(v for v in screen.walk() if v.resource_id == "android:id/scrollView")
    assert 0 <= ok.bounds[1] and ok.bounds[3] <= 1200
    assert scroll.bounds[3] <= ok.bounds[1]  # the message gives way above the buttons


class AskScreen(Screen):
    activity = "com.example.ask.MainActivity"

    def __init__(self, app, intent):
        super().__init__(app, intent)
        self.asking, self.answers = False, []

    def build(self) -> View:
        content = column(button("Ask", lambda: setattr(self, "asking", True)), button("Behind", lambda: None))
        if not self.asking:
            return content
        dialog = confirm_dialog("Sure?", "No", lambda: self.answers.append("no"), "Yes",
                                lambda: self.answers.append("yes"))
        return dialog_over(content, dialog, lambda: setattr(self, "asking", False))


class Ask(App):
    package = "com.example.ask"
    label = "Ask"
    screens = (AskScreen,)


def test_the_dialog_sits_centred_over_its_activity_and_an_outside_touch_dismisses_it():
    phone = Phone()
    try:
        phone.packages.install(Ask)
        phone.run("am start -n com.example.ask/.MainActivity")
        screen = phone.activities.top

        def element(**wanted):
            return next(e for e in parse_ui_dump(phone.ui_dump())
                        if all(getattr(e, k) == v for k, v in wanted.items()))

        assert {e.text for e in parse_ui_dump(phone.ui_dump())} >= {"Ask", "Behind"}
        phone.tap(*element(text="Ask").bbox_pixels.center)
        # uiautomator dumps the active window, the dialog's: no view of the activity under it, no scrim
        dumped = parse_ui_dump(phone.ui_dump())
        assert {e.text for e in dumped if e.text} == {"Sure?", "No", "Yes"}
        assert all(e.class_name != "android.view.View" for e in dumped)
        yes = element(resource_name="android:id/button1")
        message = element(resource_name="android:id/message").bbox_pixels
        assert abs((message.x_min + message.x_max) / 2 - 540) < 60, "centred"
        phone.tap(*yes.bbox_pixels.center)
        assert screen.answers == ["yes"] and screen.asking
        phone.tap(540, 2100)  # the scrim, below the dialog
        assert not screen.asking and screen.answers == ["yes"]
    finally:
        phone.close()
