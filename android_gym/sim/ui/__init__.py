"""The view toolkit: views, layout, Pillow rendering, uiautomator dump, window manager and input."""
