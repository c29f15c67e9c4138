defmodule Hivebox.Uplink do
  # batches readings, posts them with Finch, keeps 48 h offline in /data
  use GenServer
end
