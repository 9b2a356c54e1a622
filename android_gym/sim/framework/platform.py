"""Packages of the system image that have no activities here: the framework package ``android``, the telephony,
settings, contacts and media providers and the keyboard. They are listed, have a uid and a data directory, and
``pm`` acts on them; the contacts provider's package recreates ``contacts2.db`` after ``pm clear``; the media
provider's ``MediaReceiver`` scans what ``MEDIA_SCANNER_SCAN_FILE`` names."""

from __future__ import annotations

from urllib.parse import unquote

from android_gym.sim.framework.app import App, Context
from android_gym.sim.framework.intent import BroadcastResult, Intent
from android_gym.sim.system import media_store
from android_gym.sim.system.contacts import PROVIDER_PACKAGE


class SystemPackage(App):
    """A package without activities we simulate (a content provider, the keyboard)."""

    launchable = False


def system_package(name: str) -> type[App]:
    """An installable ``App`` class for the system package ``name``."""
    return type(name.rsplit(".", 1)[-1].title() + "Package", (SystemPackage,), {"package": name, "label": name})


#: The boot image's plain system packages, in install order.
SYSTEM_PACKAGES = tuple(system_package(name) for name in (
    "android",
    "com.android.providers.telephony",
    "com.android.providers.settings",
    "com.google.android.inputmethod.latin",
))


class ContactsProviderPackage(SystemPackage):
    """The provider's package: ``pm clear`` deletes ``contacts2.db``; the provider recreates it empty."""

    package = PROVIDER_PACKAGE
    label = PROVIDER_PACKAGE

    def on_clear(self) -> None:
        """The provider process restarts and runs ``onCreate`` on a fresh database; apps showing contacts redraw
        (``data_changed``: the home screen's frame stays)."""
        self.phone.contacts.ensure_db()
        self.phone.data_changed()


class MediaProviderPackage(SystemPackage):
    """The MediaProvider module. Its ``MediaReceiver`` (AOSP ``MediaProvider/AndroidManifest.xml``: action
    ``MEDIA_SCANNER_SCAN_FILE``, data scheme ``file``) has ``MediaService.onScanFile`` scan the file or folder the
    intent's ``file://`` URI names into ``external.db``; ``pm clear`` leaves an empty database."""

    package = media_store.PROVIDER_PACKAGE
    label = media_store.PROVIDER_PACKAGE
    receivers = {"com.android.providers.media.MediaReceiver": (media_store.ACTION_SCAN_FILE,)}
    receiver_schemes = {"com.android.providers.media.MediaReceiver": ("file",)}

    def __init__(self, phone: Context) -> None:
        super().__init__(phone)
        self.store = media_store.MediaStore(phone)  # the provider's database exists from boot

    def on_receive(self, receiver: str, intent: Intent, result: BroadcastResult) -> None:
        """Scan the path of the ``file://`` URI; apps showing media redraw with what it found (``data_changed``)."""
        path = unquote(intent.data.removeprefix("file://"))
        if path.startswith("/"):
            self.store.scan(path)
            self.phone.data_changed()

    def on_clear(self) -> None:
        """The provider recreates an empty database."""
        self.store.ensure_db()
