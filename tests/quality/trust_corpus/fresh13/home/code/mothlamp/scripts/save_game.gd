class_name SaveGame
extends RefCounted

const PATH := "user://progress.cfg"


static func write(progress: Dictionary) -> Error:
	var file := ConfigFile.new()
	for level in progress:
		file.set_value("progress", level, progress[level])
	var err := file.save(PATH + ".tmp")
	if err != OK:
		return err
	return DirAccess.rename_absolute(PATH + ".tmp", PATH)
