extends Node

var progress: Dictionary = {}
var settings: Dictionary = {"subtitles": true}
