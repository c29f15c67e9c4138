defmodule Hivebox.Sensors.BME280 do
  # i2c-1, address 0x76 on the purple breakout
end
