"""What the shell process is and starts with: its path (``$0`` and the prefix of its messages) and environment."""

SHELL = "/system/bin/sh"

#: The environment ``adb shell`` gets as root on an API-33 emulator (init.environ.rc + adbd).
ENVIRONMENT = {
    "ANDROID_ASSETS": "/system/app",
    "ANDROID_DATA": "/data",
    "ANDROID_ROOT": "/system",
    "ANDROID_STORAGE": "/storage",
    "ANDROID_ART_ROOT": "/apex/com.android.art",
    "ANDROID_I18N_ROOT": "/apex/com.android.i18n",
    "ANDROID_TZDATA_ROOT": "/apex/com.android.tzdata",
    "ASEC_MOUNTPOINT": "/mnt/asec",
    "DOWNLOAD_CACHE": "/data/cache",
    "EXTERNAL_STORAGE": "/sdcard",
    "HOME": "/",
    "HOSTNAME": "emu64xa",
    "LOGNAME": "root",
    "PATH": "/product/bin:/apex/com.android.runtime/bin:/apex/com.android.art/bin:/system_ext/bin:"
            "/system/bin:/system/xbin:/odm/bin:/vendor/bin:/vendor/xbin",
    "SHELL": "/bin/sh",
    "TERM": "dumb",
    "TMPDIR": "/data/local/tmp",
    "USER": "root",
}
