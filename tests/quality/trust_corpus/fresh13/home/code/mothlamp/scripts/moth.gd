class_name Moth
extends Node2D

var tile: Vector2i


func step_towards(target: Vector2i) -> void:
	tile += (target - tile).sign()
