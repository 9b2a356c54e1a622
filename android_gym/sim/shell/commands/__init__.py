"""Shell commands of the simulated phone, one module per command family (each exports ``COMMANDS``): toybox's
(``files``, ``find``, ``text``, ``system``), ``sqlite3``, ``content``, ``settings``, ``input``, and the framework's
``am``/``monkey`` (``activity``), ``pm`` (``package``), ``wm``/``cmd`` (``service``) and ``dumpsys``."""
