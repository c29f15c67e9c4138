"""What runs before the window's first paint: the start (`app`), the window's frame
(`main_window`, `status_bar`, `geometry`), the Memory tab's frame (`memory_tab`) and the
start-up boundary (`boundary`). See `boundary`'s docstring and ARCHITECTURE "Start-up".
"""
