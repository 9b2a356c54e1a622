"""AccessibilityForwarder (``com.google.androidenv.accessibilityforwarder``), the accessibility service AndroidEnv
installs (``A11yGrpcWrapper``: the 2024.05.13 APK) and AndroidWorld reads its UI trees from.

From google-deepmind/android_env ``android_env/apps/java/com/google/androidenv/accessibilityforwarder/``
(``AndroidManifest.xml``, ``FlagsBroadcastReceiver.kt``, ``LogFlags.kt``, ``AccessibilityForwarder.kt`` as first
published): the receiver ``.FlagsBroadcastReceiver`` turns tree forwarding on and off and sets the gRPC server's
host and port (``SET_GRPC`` with the ``host`` and ``port`` extras); the service ``.AccessibilityForwarder`` runs
while it is listed in the ``enabled_accessibility_services`` secure setting and, every ``a11yTreePeriodMs``, sends
the windows' accessibility forest to that server. This module keeps the app's state (its ``LogFlags``); the
sending, which needs a network, is done by the served phone (``android_gym.sim.a11y_forwarder``).

Not installed on a new phone: ``adb install`` of the forwarder's APK installs this app.
"""

from __future__ import annotations

from android_gym.sim.framework.app import App
from android_gym.sim.framework.intent import BroadcastResult, Intent
from android_gym.sim.system.logd import PRIORITIES

PACKAGE = "com.google.androidenv.accessibilityforwarder"
SERVICE = f"{PACKAGE}.AccessibilityForwarder"
RECEIVER = f"{PACKAGE}.FlagsBroadcastReceiver"
_ACTION = "accessibility_forwarder.intent.action."
ENABLE_TREE, DISABLE_TREE = _ACTION + "ENABLE_ACCESSIBILITY_TREE_LOGS", _ACTION + "DISABLE_ACCESSIBILITY_TREE_LOGS"
SET_GRPC = _ACTION + "SET_GRPC"
#: The emulator's alias of the host's loopback, the gRPC host when ``SET_GRPC`` names none.
HOST_ALIAS = "10.0.2.2"
#: ``LogFlags.a11yTreePeriodMs``.
TREE_PERIOD_MS = 100
#: Log tags of the service and of the receiver.
TAG, RECEIVER_TAG = "AndroidRLTask", "FlagsBroadcastReceiver"


class AccessibilityForwarder(App):
    """The package: its ``LogFlags`` (reset when its process dies) and its flags receiver."""

    package = PACKAGE
    label = "AccessibilityForwarder"
    launchable = False
    receivers = {RECEIVER: (ENABLE_TREE, DISABLE_TREE, SET_GRPC)}

    def __init__(self, phone) -> None:
        super().__init__(phone)
        self.on_force_stop()

    @property
    def service_enabled(self) -> bool:
        """Whether the system runs the forwarder's accessibility service: its component is listed in
        ``enabled_accessibility_services`` (``ComponentName.unflattenFromString`` takes the short form too)."""
        listed = (self.phone.settings.get("secure", "enabled_accessibility_services") or "").split(":")
        return any(entry in (f"{PACKAGE}/{SERVICE}", f"{PACKAGE}/.AccessibilityForwarder") for entry in listed)

    def on_force_stop(self) -> None:
        """A new process starts from ``LogFlags``' defaults."""
        self.log_tree = False
        self.grpc_host = ""
        self.grpc_port = 0

    def on_receive(self, receiver: str, intent: Intent, result: BroadcastResult) -> None:
        """``FlagsBroadcastReceiver.onReceive``."""
        logs, info = self.phone.logs, PRIORITIES["I"]
        logs.write(info, RECEIVER_TAG, f"Received broadcast intent with action: {intent.action}")
        if intent.action == ENABLE_TREE:
            logs.write(info, RECEIVER_TAG, "Enabling Accessibility Tree logging.")
            self.log_tree = True
        elif intent.action == DISABLE_TREE:
            logs.write(info, RECEIVER_TAG, "Disabling Accessibility Tree logging.")
            self.log_tree = False
        elif intent.action == SET_GRPC:
            self.grpc_host = intent.extras.get("host", HOST_ALIAS)
            port = intent.extras.get("port", "0")  # getIntExtra: an extra that is no int reads as the default
            self.grpc_port = int(port) if port.lstrip("-").isdigit() else 0
            logs.write(info, RECEIVER_TAG, f"Setting gRPC endpoint to {self.grpc_host}:{self.grpc_port}.")
