defmodule Tidevann.Gauges.Station do
end
