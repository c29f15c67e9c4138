CREATE TABLE device_events (
    device_id TEXT        NOT NULL,
    ts        TIMESTAMPTZ NOT NULL,
    kind      TEXT        NOT NULL
);
SELECT create_hypertable('device_events', 'ts', chunk_time_interval => INTERVAL '7 days');
