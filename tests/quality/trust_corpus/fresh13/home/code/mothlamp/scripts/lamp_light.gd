class_name LampLight
extends RefCounted


static func tiles_in_reach(origin: Vector2i, radius: int) -> Array[Vector2i]:
	var tiles: Array[Vector2i] = []
	for x in range(-radius, radius + 1):
		for y in range(-radius, radius + 1):
			if abs(x) + abs(y) <= radius:
				tiles.append(origin + Vector2i(x, y))
	return tiles
