defmodule Hivebox.MixProject do
  use Mix.Project

  @app :hivebox
  @version "0.9.0"
  @all_targets [:rpi0, :rpi3]

  def project do
    [
      app: @app,
      version: @version,
      elixir: "~> 1.17",
      archives: [nerves_bootstrap: "~> 1.13"],
      deps: deps(),
      releases: [{@app, release()}],
      aliases: [loadconfig: [&bootstrap/1]]
    ]
  end

  defp deps do
    [
      {:nerves, "~> 1.11", runtime: false},
      {:shoehorn, "~> 0.9"},
      {:ring_logger, "~> 0.11"},
      {:toolshed, "~> 0.4"},
      {:finch, "~> 0.19"},
      {:circuits_i2c, "~> 2.0"},
      {:circuits_gpio, "~> 2.1"},
      {:nerves_runtime, "~> 0.13", targets: @all_targets},
      {:nerves_pack, "~> 0.7", targets: @all_targets},
      {:nerves_system_rpi0, "~> 1.29", runtime: false, targets: :rpi0},
      {:nerves_system_rpi3, "~> 1.29", runtime: false, targets: :rpi3}
    ]
  end

  def release do
    [overwrite: true, include_erts: &Nerves.Release.erts/0, steps: [&Nerves.Release.init/1, :assemble]]
  end

  defp bootstrap(args) do
    Application.start(:nerves_bootstrap)
    Mix.Task.run("loadconfig", args)
  end
end
