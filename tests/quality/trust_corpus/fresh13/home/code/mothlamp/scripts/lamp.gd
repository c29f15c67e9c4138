class_name Lamp
extends Node2D

signal lamp_lit(lamp: Lamp)

@export var radius: int = 3
@export var warmth: int = 1
var is_on: bool = false


func switch_on() -> void:
	is_on = true
	lamp_lit.emit(self)
