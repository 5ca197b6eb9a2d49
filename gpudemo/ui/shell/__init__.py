"""The window's frame: the app that opens it, its actions, menus, dialogs and files, preferences, the
rebuild in another language, and faults nobody caught."""
