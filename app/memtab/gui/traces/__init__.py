"""The Traces tab: the background writer's trace dumps, listed and opened in full (`tab`;
what the window builds: `feature`)."""
