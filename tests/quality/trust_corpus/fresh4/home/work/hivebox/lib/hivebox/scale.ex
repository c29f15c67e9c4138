defmodule Hivebox.Scale do
  # reads the HX711 every sample_interval, median of 7 readings
  use GenServer
end
