"""The OS layer of the simulated phone: clock, file system, settings, content providers (telephony, contacts),
shared preferences, clipboard, radios, media files and APK parsing. It knows nothing of apps and activities;
services reach the phone through ``services.SystemServices``."""
