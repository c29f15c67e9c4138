"""One writer run and the service that schedules runs: policy, state, providers (the offline writer
or a model), the run, its result and dumps."""
