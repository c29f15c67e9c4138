"""View → What each agent loads: the loads view (`memtab.loads`) in the window."""
