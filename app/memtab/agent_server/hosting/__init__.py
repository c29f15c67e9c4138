"""The warm Memtab (docs/formats.md §22.8): one process that hosts every agent session of a
home with the SDK — one SDK session per connection, the catalog and its index shared and
kept warm — behind a Unix socket the bridges (`agent_server.bridge`) connect to.

`host` accepts, checks and serves the connections; `handshake` declares what a bridge and
a host say first; `status` asks a host how it is, for `memtab doctor` and Settings.
"""
