"""Sync in the window, as operations: where sync stands and a sync (`look`), its set-up
(`setup`), its conflicts and their decisions (`conflicts`)."""
