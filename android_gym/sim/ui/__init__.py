"""The view toolkit: views, layout, dialogs, text selection, Pillow rendering and the uiautomator dump. It knows
nothing of apps, activities or the phone."""
