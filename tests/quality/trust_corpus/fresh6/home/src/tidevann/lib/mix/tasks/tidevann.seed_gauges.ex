defmodule Mix.Tasks.Tidevann.SeedGauges do
  use Mix.Task
  def run(_args), do: Mix.Task.run("run", ["priv/repo/seeds.exs"])
end
