"""The window driven by keys typed on a real X display, as a person types them: where the
keyboard lands, in a window openbox manages, at 1366×768 and half of it."""
