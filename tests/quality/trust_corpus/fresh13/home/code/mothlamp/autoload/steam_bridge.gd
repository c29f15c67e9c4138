extends Node

const ACHIEVEMENTS := ["FIRST_LIGHT", "NO_UNDO", "ALL_MOTHS_HOME"]


func unlock(id: String) -> void:
	if Engine.has_singleton("Steam"):
		Engine.get_singleton("Steam").setAchievement(id)
