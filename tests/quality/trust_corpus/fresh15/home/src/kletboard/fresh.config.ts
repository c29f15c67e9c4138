// Fresh configuration: plugins.
