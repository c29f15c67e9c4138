# nightly ensemble run
