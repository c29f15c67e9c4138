"""Review before apply: a run's plan, checked against what it shows, and applying the ops a user
accepts (also the check's fixes)."""
