"""What runs before the window's first paint: the start (`app`), the window's and the Memory
tab's frames, and the start-up boundary (`boundary`; ARCHITECTURE "Start-up")."""
