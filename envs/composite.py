"""Cross-app tasks built with ``android_gym.compose``: AndroidWorld's two system composites, then our own.

AndroidWorld's (``task_evals/composite/system.py``) keep its rule that every part must hold at the end
(``latch=False``) and its templates. Ours latch: a part once done stays done, as "do A, then B" asks.
"""

from __future__ import annotations

from android_gym.envs import (  # noqa: F401  (the parts, registered first)
    clock,
    contacts,
    joplin,
    open_app,
    opentracks,
    retro_music,
    sms,
    system,
)
from android_gym.tasks import compose

# AndroidWorld
compose("SystemWifiTurnOn", "OpenAppTaskEval", name="TurnOnWifiAndOpenApp", latch=False,
        template="Turn on Wifi, then open the {OpenAppTaskEval[app_name]} app")
compose("SystemWifiTurnOff", "SystemBluetoothTurnOn", name="TurnOffWifiAndTurnOnBluetooth", latch=False,
        template="Turn off WiFi, then enable bluetooth")

# Save a new acquaintance, then text them.
compose("ContactsAddContact", "SimpleSmsSend", name="AddContactThenText",
        links={"SimpleSmsSend.number": "ContactsAddContact.number"},
        template="Create a new contact for {ContactsAddContact[name]} with the number "
                 "{ContactsAddContact[number]}, then send them a text message using Simple SMS Messenger: "
                 "{SimpleSmsSend[message]}")
# Answer someone who texted, then keep their number as a contact.
compose("SimpleSmsReply", "ContactsAddContact", name="ReplyThenSaveContact",
        links={"ContactsAddContact.number": "SimpleSmsReply.number"},
        template="Reply to {SimpleSmsReply[number]} with message: {SimpleSmsReply[message]} in Simple SMS "
                 "Messenger, then save that number as a new contact named {ContactsAddContact[name]}")
# Answer the latest text, then go offline.
compose("SimpleSmsReplyMostRecent", "SystemWifiTurnOff", name="ReplyThenTurnOffWifi",
        template="Reply to the most recent text message using Simple SMS Messenger with message: "
                 "{SimpleSmsReplyMostRecent[message]}, then turn wifi off")
# Before a run outdoors: a bright screen and a running stopwatch.
compose("SystemBrightnessMax", "ClockStopWatchRunning", name="BrightScreenThenStopwatch",
        template="Turn the screen brightness to the max value, then run the stopwatch in the Clock app")
# Wind down: radios off, screen dim, a timer set for the nap.
compose("SystemWifiTurnOff", "SystemBluetoothTurnOff", "SystemBrightnessMin", "ClockTimerEntry",
        name="NapRoutine",
        template="Turn wifi off, turn bluetooth off, turn the brightness to the min value, then create a timer "
                 "with {ClockTimerEntry[hours]} hours, {ClockTimerEntry[minutes]} minutes, and "
                 "{ClockTimerEntry[seconds]} seconds in the Clock app. Do not start the timer.")
# After a run: give the recorded activity its name in OpenTracks, then keep a note of it in Joplin.
compose("SportsTrackerRenameActivity", "JoplinCreateNote", name="RenameActivityThenNoteIt",
        links={"JoplinCreateNote.title": "SportsTrackerRenameActivity.new_name"},
        template='In the OpenTracks app, rename the activity "{SportsTrackerRenameActivity[name]}" to '
                 '"{SportsTrackerRenameActivity[new_name]}", then in the Joplin app create a note titled '
                 '"{SportsTrackerRenameActivity[new_name]}" in the "{JoplinCreateNote[folder]}" notebook with the '
                 'text "{JoplinCreateNote[body]}".')
# Make a playlist in Retro Music, then tell a friend its name.
compose("RetroCreatePlaylist", "SimpleSmsSend", name="PlaylistThenText",
        links={"SimpleSmsSend.message": "RetroCreatePlaylist.playlist_name"})
