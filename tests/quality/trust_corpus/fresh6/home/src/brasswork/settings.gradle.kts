rootProject.name = "brasswork"
