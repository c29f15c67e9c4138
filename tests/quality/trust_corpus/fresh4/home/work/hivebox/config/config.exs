import Config

config :hivebox, sample_interval: :timer.minutes(5)
config :hivebox, uplink_url: "https://ingest.hivebox.eu/v1/readings"

if Mix.target() == :host, do: import_config("host.exs"), else: import_config("target.exs")
