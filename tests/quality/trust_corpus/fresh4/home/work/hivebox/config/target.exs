import Config

config :logger, backends: [RingLogger]
config :nerves, :firmware, rootfs_overlay: "rootfs_overlay"
