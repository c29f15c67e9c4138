defmodule Tidepool.Application do
end
