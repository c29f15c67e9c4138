defmodule Tidevann.MixProject do
  use Mix.Project

  def project do
    [app: :tidevann, version: "0.4.0", elixir: "~> 1.16", deps: deps(), aliases: aliases()]
  end

  defp deps, do: [{:phoenix, "~> 1.7.14"}, {:phoenix_live_view, "~> 0.20.17"}, {:ecto_sql, "~> 3.12"}]

  defp aliases, do: [setup: ["deps.get", "ecto.setup"]]
end
