"""The app framework of the simulated phone, between the OS (``system/``, ``ui/``) and the apps (``apps/``).

``app`` (App, Screen and the ``Context`` apps see the phone through) and ``intent`` are the app model;
``activities`` (tasks and the back stack), ``packages`` (installed packages, ``pm``), ``window`` (frames, input
routing, the keyboard and bars) with ``text_editor`` (editing and selecting text in fields) are the services that
run apps; ``systemui`` (status bar, notification shade, brightness dialog) and ``platform`` (system packages
without activities) are the parts of the system image every phone has.
"""
