extends GutTest


func test_switching_on_emits_lamp_lit() -> void:
	var lamp := Lamp.new()
	watch_signals(lamp)
	lamp.switch_on()
	assert_signal_emitted(lamp, "lamp_lit")
	lamp.free()
