"""The Traces tab: the background writer's trace dumps, listed and opened in full
(`feature.TracesTab`; its item models `models`, a dump's detail `detail`)."""
