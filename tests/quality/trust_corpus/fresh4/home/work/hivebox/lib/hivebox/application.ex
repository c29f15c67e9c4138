defmodule Hivebox.Application do
  use Application
  def start(_type, _args), do: Supervisor.start_link([Hivebox.Scale, Hivebox.Uplink], strategy: :one_for_one)
end
