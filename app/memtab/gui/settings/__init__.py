"""The Settings dialog (`dialog`, its keys per provider and host too), Memtab for your agents
(`agent_server`) and the local model servers (`local_servers`)."""
