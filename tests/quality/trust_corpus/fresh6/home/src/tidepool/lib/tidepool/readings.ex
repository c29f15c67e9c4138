defmodule Tidepool.Readings do
end
