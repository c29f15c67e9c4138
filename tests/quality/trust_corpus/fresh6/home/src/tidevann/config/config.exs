import Config
config :tidevann, ecto_repos: [Tidevann.Repo]
