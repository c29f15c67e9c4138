defmodule Hivebox.Sensors.HX711 do
  # bit-banged over circuits_gpio, DOUT gpio 5, SCK gpio 6
end
