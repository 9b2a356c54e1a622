"""The system language: the language commands of ``DeviceConfig`` restart the simulated phone's framework in the
new locale, every window shows the apps' resource strings in it (user data never), and oracles still solve tasks."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import android_gym
from android_gym import locales
from android_gym.agents import OracleAgent
from android_gym.device import open_device
from android_gym.device.config import LANGUAGES, DeviceConfig
from android_gym.device.sim import SimDevice
from android_gym.device.state import foreground_package
from android_gym.sim.snapshot import load_phone, save_phone
from android_gym.tasks.oracle import LAUNCHER_PACKAGE, Selector
from android_gym.testing import run_episode
from android_gym.ui import parse_ui_dump

SMS = "com.simplemobiletools.smsmessenger"


def _texts(device) -> set[str]:
    return {text for element in parse_ui_dump(device.ui_dump())
            for text in (element.text, element.content_description) if text}


@pytest.mark.parametrize("language, calendar, settings, search", [
    ("de-DE", "Kalender", "Einstellungen", "Suchen"), ("fr-FR", "Agenda", "Paramètres", "Rechercher"),
    ("en-US", "Calendar", "Settings", "Search")])
def test_language_commands_restart_the_framework_in_that_locale(language, calendar, settings, search):
    device = SimDevice(270, 600)
    try:
        english = device.ui_dump(), device.screenshot()
        device.shell(f"monkey -p {SMS} -c android.intent.category.LAUNCHER 1")
        previous = DeviceConfig(language="fr-FR" if language == "en-US" else "en-US")
        DeviceConfig(language=language).apply(device, previous)
        assert device.shell("getprop persist.sys.locale").output == f"{language}\n"
        assert f"[{language.replace('-', '_')}]" in device.shell("dumpsys window").output  # mGlobalConfiguration
        assert foreground_package(device) == LAUNCHER_PACKAGE  # the restart killed the SMS app
        assert {calendar, settings} <= _texts(device)  # launcher labels as Simple Calendar and Settings ship them
        device.shell(f"monkey -p {SMS} -c android.intent.category.LAUNCHER 1")
        assert search in _texts(device)  # the conversation list's search field, from Simple-Commons
        DeviceConfig().apply(device, DeviceConfig(language="fr-FR"))  # back to English, home in front
        assert device.ui_dump() == english[0] and np.array_equal(device.screenshot(), english[1])
    finally:
        device.close()


def test_a_locale_is_read_only_when_the_framework_restarts():
    device = SimDevice(270, 600)
    try:
        device.shell("setprop persist.sys.locale de-DE")
        assert "Calendar" in _texts(device)
        device.shell("setprop ctl.restart zygote")
        assert "Kalender" in _texts(device)
        assert device.shell("getprop ctl.restart").output == "\n"  # init's controls are not properties
    finally:
        device.close()


def test_user_data_spelling_a_ui_string_is_never_translated():
    device = SimDevice(270, 600)
    try:
        device.receive_sms("+15551234567", "Start a conversation")  # a body that spells the app's empty-state text
        DeviceConfig(language="de-DE").apply(device, DeviceConfig())
        device.shell(f"monkey -p {SMS} -c android.intent.category.LAUNCHER 1")
        texts = _texts(device)
        assert "Start a conversation" in texts and "Neue Unterhaltung beginnen" not in texts
        assert "Suchen" in texts
    finally:
        device.close()


def test_selectors_find_the_translation_of_their_english_text():
    def node(text: str, package: str):
        return next(element for element in parse_ui_dump(
            f'<hierarchy><node text="{text}" content-desc="" bounds="[0,0][10,10]" class="a" resource-id="" '
            f'package="{package}" /></hierarchy>'))

    search = node("Suchen", SMS)
    assert Selector(text="Search").matches(search) and not Selector(text="Send").matches(search)
    assert Selector(text_contains="Sear").matches(search) is False and Selector(text_contains="Search").matches(search)
    # An element matches the translations of its own app: Clock's "Stoppuhr" is its Stopwatch tab, not the
    # Timer that Tasks also translates "Stoppuhr".
    stopwatch = node("Stoppuhr", "com.google.android.deskclock")
    assert Selector(text="Stopwatch").matches(stopwatch) and not Selector(text="Timer").matches(stopwatch)
    assert Selector(text="Timer").matches(node("Stoppuhr", "org.tasks"))
    assert "Search" in locales.english_of("Rechercher") and "Suchen" in locales.translations_of("Search")
    assert locales.english_of("Stoppuhr", "com.google.android.deskclock") == {"Stopwatch"}
    # a Named string: looked up by its resource name, read back as its English text
    contacts = "com.google.android.contacts"
    assert locales.english_of("Neuer Kontakt", contacts) == {"Create new contact"}
    assert {"Neuer Kontakt", "Neuen Kontakt erstellen"} <= locales.translations_of("Create new contact", contacts)
    tuesday, thursday = locales.Named("T", "tuesday_letter"), locales.Named("T", "thursday_letter")
    assert (locales.resource("fr-FR", "com.simplemobiletools.calendar.pro", tuesday),
            locales.resource("fr-FR", "com.simplemobiletools.calendar.pro", thursday)) == ("Ma", "J")
    assert locales.translation("fr-FR", "com.simplemobiletools.calendar.pro", "T") is None  # a plain "T" is no key


#: Tasks of many apps (SMS, Markor, Expense, Calendar, Draw, Audio Recorder, Contacts, Settings, the shade, Files,
#: Tasks, Broccoli, Clock, OpenTracks, Retro Music), each played by its oracle in a language the test's rng draws;
#: the Clock and question tasks check or read translated words ("Runde", "Heute", a due date's "Morgen").
_SPREAD = ("SimpleSmsReply", "MarkorCreateNote", "ExpenseDeleteSingle", "SimpleCalendarAddOneEvent",
           "SimpleDrawProCreateDrawing", "AudioRecorderRecordAudio", "ContactsAddContact", "SystemWifiTurnOff",
           "SystemBluetoothTurnOn", "FilesDeleteFile", "TasksAddTask", "RecipeDeleteSingleRecipe",
           "ClockStopWatchRunning", "SportsTrackerActivityDuration", "TasksDueNextWeek", "RetroPlaylistDuration")


@pytest.mark.parametrize("task", _SPREAD)
def test_oracles_solve_tasks_in_a_sampled_language(task):
    language = LANGUAGES[1 + sum(map(ord, task)) % 2]  # German or French, fixed per task
    env = gym.make(android_gym.env_id(task), device="sim:270x600")
    try:
        result = run_episode(env, OracleAgent(), seed=0, options={"device_config": DeviceConfig(language=language)})
        assert result.score == 1.0 and not result.invalid_actions, (language, result.invalid_actions)
        assert env.unwrapped.device.shell("getprop persist.sys.locale").output == f"{language}\n"
    finally:
        env.close()


def test_the_language_commands_work_over_adb(fresh_served_phone):
    device = open_device(f"adb:{fresh_served_phone.serial}")
    try:
        DeviceConfig(language="fr-FR").apply(device, DeviceConfig())
        assert device.shell("getprop persist.sys.locale").output.strip() == "fr-FR"
        assert "Agenda" in _texts(device)
    finally:
        device.close()


def test_a_snapshot_brings_back_the_language_the_framework_ran_in(tmp_path):
    device = SimDevice(270, 600)
    try:
        DeviceConfig(language="de-DE").apply(device, DeviceConfig())
        save_phone(device.phone, tmp_path / "german")
        DeviceConfig().apply(device, DeviceConfig(language="de-DE"))
        assert "Calendar" in _texts(device)
        load_phone(device.phone, tmp_path / "german")
        assert "Kalender" in _texts(device)
    finally:
        device.close()


_SUBSETTINGS = "com.android.settings/.SubSettings"
_STORAGE = "com.android.settings.deviceinfo.StorageDashboardFragment"
_BLUETOOTH = "com.android.settings.connecteddevice.BluetoothDashboardFragment"


@pytest.mark.parametrize("language, on, off, storage", [
    ("de-DE", "AN", "AUS", "Speicher"), ("fr-FR", "OUI", "NON", "Stockage")])
def test_settings_pages_and_the_toolkits_words_show_in_the_system_language(language, on, off, storage):
    device = SimDevice(270, 600)
    try:
        DeviceConfig(language=language).apply(device, DeviceConfig())
        device.shell("am start -a android.settings.WIFI_SETTINGS")
        switch = next(e for e in parse_ui_dump(device.ui_dump()) if e.resource_name == "android:id/switch_widget")
        assert switch.text == on  # the Switch's capital_on, from the framework's strings
        device.shell("svc wifi disable")
        device.shell("am start -a android.settings.WIFI_SETTINGS")
        assert off in _texts(device) and on not in _texts(device)
        # A page opened with a title resource id shows the app's string for it; a title sent as a string extra is
        # the caller's data and stays as sent, even when it spells that very title.
        device.shell(f"am start -n {_SUBSETTINGS} --es :settings:show_fragment {_STORAGE} "
                     "--es :settings:show_fragment_title_resid storage_settings")
        assert storage in _texts(device)
        device.shell(f"am start -n {_SUBSETTINGS} --es :settings:show_fragment {_STORAGE} "
                     "--es :settings:show_fragment_title Storage")
        assert "Storage" in _texts(device) and storage not in _texts(device)
    finally:
        device.close()


def test_typed_text_spelling_a_framework_word_stays_as_typed():
    device = SimDevice(270, 600)
    try:
        DeviceConfig(language="de-DE").apply(device, DeviceConfig())
        device.shell(f"monkey -p {SMS} -c android.intent.category.LAUNCHER 1")
        field = next(e for e in parse_ui_dump(device.ui_dump()) if e.class_name == "android.widget.EditText")
        device.tap(*field.bbox_pixels.center)
        device.input_text("Paste")
        texts = _texts(device)
        assert "Paste" in texts and "Einfügen" not in texts
    finally:
        device.close()


@pytest.mark.parametrize("language, camera", [("de-DE", "Kamera"), ("fr-FR", "Appareil photo")])
def test_launcher_labels_are_the_apps_own_names_in_the_system_language(language, camera):
    device = SimDevice(270, 600)
    try:
        DeviceConfig(language=language).apply(device, DeviceConfig())
        texts = _texts(device)
        assert camera in texts and "Camera" not in texts  # Camera2's app_name in values-de/values-fr
        # Names the apps mark translatable="false" (or never translate) stay as they are.
        assert {"Markor", "VLC", "Broccoli", "OpenTracks", "Retro Music", "Tasks", "OsmAnd", "Joplin"} <= texts
    finally:
        device.close()


@pytest.mark.parametrize("language, wifi, preferences, footer, brightness, appearance, use_bluetooth", [
    ("de-DE", "WLAN", "WLAN-Einstellungen", "WLAN aktivieren, um verfügbare Netze abzurufen", "Helligkeit",
     "Darstellung", "Bluetooth verwenden"),
    ("fr-FR", "Wi-Fi", "Préférences Wi-Fi", "Activez le Wi-Fi pour voir les réseaux disponibles.", "Luminosité",
     "Apparence", "Utiliser le Bluetooth")])
def test_settings_internet_display_and_bluetooth_pages_in_the_system_language(
        language, wifi, preferences, footer, brightness, appearance, use_bluetooth):
    device = SimDevice(270, 600)
    try:
        DeviceConfig(language=language).apply(device, DeviceConfig())
        device.shell("svc wifi disable")
        device.shell("am start -a android.settings.WIFI_SETTINGS")
        texts = _texts(device)
        assert {wifi, preferences, footer} <= texts
        assert not {"Network preferences", "To see available networks, turn Wi\u2011Fi on."} & texts
        device.shell("am start -a android.settings.DISPLAY_SETTINGS")
        texts = _texts(device)
        assert {brightness, appearance} <= texts and not {"Brightness", "Appearance"} & texts
        device.shell(f"am start -n {_SUBSETTINGS} --es :settings:show_fragment {_BLUETOOTH} "
                     "--es :settings:show_fragment_title_resid bluetooth_settings_title")
        texts = _texts(device)
        assert use_bluetooth in texts and "Use Bluetooth" not in texts
    finally:
        device.close()


_NETWORK = "com.android.settings.network.NetworkDashboardFragment"


@pytest.mark.parametrize("language, homepage, internet, network", [
    ("de-DE", {"Sucheinstellungen", "Benachrichtigungen", "Benachrichtigungsverlauf, Unterhaltungen",
               "Dunkles Design, Schriftgröße, Helligkeit", "Bedienungshilfen", "Display, Interaktion, Audio"},
     {"Gespeicherte WLANs", "Datennutzung ohne Mobilfunknetzdaten"},
     {"Hotspot und Tethering", "Datensparmodus", "Aus"}),
    ("fr-FR", {"Rechercher dans les paramètres", "Son et vibreur", "Historique des notifications, conversations",
               "Thème sombre, taille de police, luminosité", "Accessibilité", "Affichage, interaction, audio"},
     {"Réseaux enregistrés", "Consommation des données hors opérateur"},
     {"Point d'accès et partage de connexion", "Économiseur de données", "Désactivé"})])
def test_settings_homepage_and_network_pages_in_the_system_language(language, homepage, internet, network):
    device = SimDevice(270, 600)
    try:
        DeviceConfig(language=language).apply(device, DeviceConfig())
        device.shell("am start -a android.settings.SETTINGS")
        texts = _texts(device)
        assert homepage <= texts and not {"Search settings", "Notification history, conversations"} & texts
        # The Pixel build's own summaries (AOSP ships "Recent apps, default apps" and "Volume, vibration, Do Not
        # Disturb") have no AOSP translation and stay as the English build shows them.
        assert {"Assistant, recent apps, default apps", "Volume, haptics, Do Not Disturb"} <= texts
        device.shell("am start -a android.settings.WIFI_SETTINGS")
        texts = _texts(device)
        assert internet <= texts and not {"Saved networks", "Non-carrier data usage"} & texts
        device.shell(f"am start -n {_SUBSETTINGS} --es :settings:show_fragment {_NETWORK} "
                     "--es :settings:show_fragment_title_resid network_dashboard_title")
        texts = _texts(device)
        assert network <= texts and not {"Hotspot & tethering", "Data Saver", "Off"} & texts
    finally:
        device.close()


@pytest.mark.parametrize("language, previous, following, space", [
    ("de-DE", "Vormonat", "Nächster Monat", "Leertaste"), ("fr-FR", "Mois précédent", "Mois suivant", "Espace")])
def test_the_framework_calendar_and_the_keyboard_keys_in_the_system_language(language, previous, following, space):
    """Tasks' date picker is the framework's ``CalendarView`` (its month buttons' descriptions are the framework's
    ``date_picker_prev/next_month_button``); the keyboard's keys carry LatinIME's spoken descriptions."""
    device = SimDevice(270, 600)
    try:
        DeviceConfig(language=language).apply(device, DeviceConfig())
        device.shell("monkey -p org.tasks -c android.intent.category.LAUNCHER 1")
        elements = parse_ui_dump(device.ui_dump())
        device.tap(*next(e for e in elements if e.resource_name == "org.tasks:id/fab").bbox_pixels.center)
        keyboard = device.phone.window.frame().keyboard  # the title field has the focus (not in the app's dump)
        assert {space, "Space"} & {key.content_desc for key in keyboard.walk()} == {space}
        no_due_date = locales.resource(language, "org.tasks", "No due date")
        device.tap(*next(e for e in parse_ui_dump(device.ui_dump()) if e.text == no_due_date).bbox_pixels.center)
        assert {previous, following} <= _texts(device) and not {"Previous month", "Next month"} & _texts(device)
    finally:
        device.close()


@pytest.mark.parametrize("language", ["de-DE", "fr-FR"])
def test_pro_expense_shows_english_in_every_language(language):
    """The Pro Expense AndroidWorld installs, 1.0.0-beta05 (versionCode 11), ships no values-de or values-fr (its
    German strings came in February 2021, after that tag): the phone shows it in English."""
    device = SimDevice(270, 600)
    try:
        DeviceConfig(language=language).apply(device, DeviceConfig())
        device.shell("monkey -p com.arduia.expense -c android.intent.category.LAUNCHER 1")
        assert foreground_package(device) == "com.arduia.expense"
        assert locales.strings(language).get("com.arduia.expense") is None
        assert {"Expenses in this Week", "Home", "INCOME"} <= _texts(device)
    finally:
        device.close()
