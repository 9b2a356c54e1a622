"""SystemUI and PermissionController in the system language: the shade, quick settings, the low-battery heads-up
and the notification-permission prompt show the strings the real packages ship, composed strings are made from
their translated template, and posted texts stay as they were posted."""

from __future__ import annotations

import pytest

from android_gym.device.config import DeviceConfig
from android_gym.device.sim import SimDevice
from android_gym.tasks.oracle import dismiss_distractor
from android_gym.ui import parse_ui_dump

SMS = "com.simplemobiletools.smsmessenger"


@pytest.fixture()
def device():
    device = SimDevice(270, 600)
    yield device
    device.close()


def _german(device: SimDevice) -> None:
    DeviceConfig(language="de-DE").apply(device, DeviceConfig())


def _texts(device: SimDevice) -> set[str]:
    return {text for element in parse_ui_dump(device.ui_dump())
            for text in (element.text, element.content_description) if text}


def _open_shade(device: SimDevice) -> None:
    device.phone.swipe(135, 5, 135, 400)


def test_the_shade_and_quick_settings_in_german(device):
    _german(device)
    _open_shade(device)
    texts = _texts(device)
    assert {"Keine Benachrichtigungen", "Helligkeit des Displays", "Internet", "Bluetooth.", "An"} <= texts
    assert "Internet,AndroidWifi" in texts  # the Internet tile: its translated label, then the network's name
    assert not {"No notifications", "Display brightness", "On"} & texts


def test_a_posted_notification_keeps_its_texts_while_systemui_translates_its_own(device):
    _german(device)
    device.shell("cmd notification post -t 'Clear all' tag 'No notifications'")  # texts spelling SystemUI strings
    _open_shade(device)
    texts = _texts(device)
    assert "Alle löschen" in texts  # the footer's button
    assert {"Clear all", "No notifications"} <= texts  # the notification's own title and text
    assert "Benachrichtigung von Shell: Clear all" in texts  # the row's description: the template, then its texts


def test_the_low_battery_heads_up_in_german_and_its_dismissal(device):
    _german(device)
    device.shell("dumpsys battery unplug")
    device.shell("dumpsys battery set level 15")
    elements = parse_ui_dump(device.ui_dump())
    texts = {element.text for element in elements}
    assert {"Energiesparmodus aktivieren?", "Nein danke", "Aktivieren"} <= texts
    assert any(text.startswith("Dein Akkustand beträgt 20%. Im Energiesparmodus") for text in texts if text)
    action = dismiss_distractor(elements)  # the oracles' "No thanks" finds SystemUI's German button
    assert action is not None
    tapped = next(e for e in elements if e.text == "Nein danke")
    device.phone.tap(*tapped.bbox_pixels.center)
    assert "Energiesparmodus aktivieren?" not in {element.text for element in parse_ui_dump(device.ui_dump())}


def test_the_status_bar_battery_description_is_translated(device):
    _german(device)
    status = next(w for w in device.phone.window.screen_windows() if w.title == "StatusBar").root
    level = device.phone.battery.state.level
    assert any(view.content_desc == f"Akku bei {level} Prozent." for view in status.walk())


@pytest.mark.parametrize("language, message, allow, deny", [
    ("de-DE", "erlauben, dir Benachrichtigungen zu senden?", "Zulassen", "Nicht zulassen"),
    ("fr-FR", "à vous envoyer des notifications ?", "Autoriser", "Ne pas autoriser"),
])
def test_the_notification_permission_prompt_in_the_system_language(device, language, message, allow, deny):
    DeviceConfig(language=language).apply(device, DeviceConfig())
    device.shell(f"pm revoke {SMS} android.permission.POST_NOTIFICATIONS")
    device.shell(f"monkey -p {SMS} -c android.intent.category.LAUNCHER 1")
    elements = parse_ui_dump(device.ui_dump())
    by_id = {element.resource_name: element.text for element in elements}
    assert by_id["com.android.permissioncontroller:id/permission_allow_button"] == allow
    assert by_id["com.android.permissioncontroller:id/permission_deny_button"] == deny
    assert by_id["com.android.permissioncontroller:id/permission_message"].endswith(message)


def _french(device: SimDevice) -> None:
    DeviceConfig(language="fr-FR").apply(device, DeviceConfig())


def test_the_shade_in_french_with_a_posted_notification(device):
    _french(device)
    _open_shade(device)
    texts = _texts(device)
    assert {"Aucune notification", "Luminosité de l'affichage", "Internet", "Bluetooth."} <= texts
    assert not {"No notifications", "Display brightness"} & texts
    device.shell("cmd notification post -t 'Clear all' tag 'No notifications'")
    texts = _texts(device)
    assert "Tout effacer" in texts  # the footer's button
    assert {"Clear all", "No notifications"} <= texts  # the notification's own title and text stay as posted
    assert "Notification Shell : Clear all" in texts


def test_the_low_battery_heads_up_and_the_battery_description_in_french(device):
    _french(device)
    device.shell("dumpsys battery unplug")
    device.shell("dumpsys battery set level 15")
    texts = {element.text for element in parse_ui_dump(device.ui_dump())}
    assert {"Activer l'économiseur de batterie ?", "Non, merci", "Activer"} <= texts
    assert any(text.startswith("Il vous reste 20") and text.endswith("retarde les notifications.")
               for text in texts if text)
    status = next(w for w in device.phone.window.screen_windows() if w.title == "StatusBar").root
    assert any(view.content_desc == "Batterie : 15 pour cent" for view in status.walk())


def _launched_in(device, language: str, package: str) -> set[str]:
    """The texts and descriptions on screen after the phone switched to ``language`` and launched ``package``."""
    DeviceConfig(language=language).apply(device, DeviceConfig())
    device.shell(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
    return _texts(device)


@pytest.mark.parametrize("language, shutter, toggle, video", [
    ("de-DE", "Blende", "Modusliste umschalten", "Zu Video wechseln"),
    ("fr-FR", "Obturateur", "Activer/désactiver la liste de modes", "Passer en mode Vidéo"),
])
def test_the_camera_in_the_system_language(device, language, shutter, toggle, video):
    texts = _launched_in(device, language, "com.android.camera2")
    assert {shutter, toggle} <= texts
    assert not {"Shutter", "Toggle mode list"} & texts
    toggle_element = next(e for e in parse_ui_dump(device.ui_dump()) if e.content_description == toggle)
    device.phone.tap(*toggle_element.bbox_pixels.center)  # the mode list opens with its described modes
    assert video in _texts(device)


@pytest.mark.parametrize("language, search, zoom_in, zoom_out", [
    ("de-DE", "Suchen", "Hineinzoomen", "Herauszoomen"),
    ("fr-FR", "Rechercher", "Zoom +", "Zoom -"),
])
def test_the_osmand_map_in_the_system_language(device, language, search, zoom_in, zoom_out):
    texts = _launched_in(device, language, "net.osmand")
    assert {search, zoom_in, zoom_out} <= texts  # the map's buttons, described in the language
    assert not {"Search", "Zoom in", "Zoom out"} & texts
