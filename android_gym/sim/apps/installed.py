"""The lists of the simulated apps' classes (importing this imports every app): ``INSTALLED_APPS`` is what a new
phone has installed, in install order (which fixes each package's uid): the home-screen app, the system image's
packages and the apps. ``INSTALLABLE_APPS`` are apps a new phone does not have but runs once their APK is
installed. A phone installs them from ``index.json``, which ``python -m android_gym.sim.apps.index`` writes from
these lists.
"""

from android_gym.sim.apps.accessibility_forwarder import AccessibilityForwarder
from android_gym.sim.apps.audio_recorder import AudioRecorder
from android_gym.sim.apps.broccoli import Broccoli
from android_gym.sim.apps.calendar import SimpleCalendarPro
from android_gym.sim.apps.camera import Camera
from android_gym.sim.apps.chrome import Chrome
from android_gym.sim.apps.clipper import Clipper
from android_gym.sim.apps.contacts import GoogleContacts
from android_gym.sim.apps.deskclock import DeskClock
from android_gym.sim.apps.draw import SimpleDraw
from android_gym.sim.apps.expense import ProExpense
from android_gym.sim.apps.files import DocumentsUI
from android_gym.sim.apps.gallery import SimpleGallery
from android_gym.sim.apps.intentresolver import IntentResolver
from android_gym.sim.apps.joplin import Joplin
from android_gym.sim.apps.launcher import Launcher
from android_gym.sim.apps.markor import Markor
from android_gym.sim.apps.opentracks import OpenTracks
from android_gym.sim.apps.osmand import OsmAnd
from android_gym.sim.apps.retro_music import RetroMusic
from android_gym.sim.apps.settings import SettingsApp
from android_gym.sim.apps.sms import SimpleSmsMessenger
from android_gym.sim.apps.tasks import TasksApp
from android_gym.sim.apps.vlc import Vlc
from android_gym.sim.framework.app import App
from android_gym.sim.framework.permissions import PermissionController
from android_gym.sim.framework.platform import SYSTEM_PACKAGES, ContactsProviderPackage, MediaProviderPackage
from android_gym.sim.framework.systemui import SystemUI

INSTALLED_APPS: tuple[type[App], ...] = (
    Launcher,
    *SYSTEM_PACKAGES,
    SystemUI,
    SettingsApp,
    ContactsProviderPackage,
    SimpleSmsMessenger,
    GoogleContacts,
    DeskClock,
    Clipper,
    SimpleCalendarPro,
    TasksApp,
    ProExpense,
    Broccoli,
    Markor,
    IntentResolver,
    DocumentsUI,
    SimpleGallery,
    SimpleDraw,
    Camera,
    AudioRecorder,
    Vlc,
    MediaProviderPackage,
    RetroMusic,
    Joplin,
    OsmAnd,
    OpenTracks,
    Chrome,
    PermissionController,
)

INSTALLABLE_APPS: tuple[type[App], ...] = (
    AccessibilityForwarder,
)
