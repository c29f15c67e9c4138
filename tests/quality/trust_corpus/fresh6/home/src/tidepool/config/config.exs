import Config
config :tidepool, ecto_repos: [Tidepool.Repo]
