rootProject.name = "crossings"
