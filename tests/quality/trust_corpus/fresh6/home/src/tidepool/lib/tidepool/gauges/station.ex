defmodule Tidepool.Gauges.Station do
end
