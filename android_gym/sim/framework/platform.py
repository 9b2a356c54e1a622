"""Packages of the system image that have no activities here: the framework package ``android``, the telephony,
settings and contacts providers and the keyboard. They are listed, have a uid and a data directory, and ``pm``
acts on them; the contacts provider's package recreates ``contacts2.db`` after ``pm clear``."""

from __future__ import annotations

from android_gym.sim.framework.app import App
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
        """The provider process restarts and runs ``onCreate`` on a fresh database; apps redraw."""
        self.phone.contacts.ensure_db()
        self.phone.invalidate()
