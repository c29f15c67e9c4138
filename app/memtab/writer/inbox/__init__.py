"""The Inbox: mux's harvest, the offline writer's suggestions and agents' proposals, to accept, edit
or reject."""
