import Config

config :hivebox, sample_interval: :timer.seconds(5)
