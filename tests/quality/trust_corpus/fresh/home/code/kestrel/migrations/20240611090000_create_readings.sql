CREATE TABLE readings (
    device_id  TEXT        NOT NULL,
    ts         TIMESTAMPTZ NOT NULL,
    metric     TEXT        NOT NULL,
    value      DOUBLE PRECISION NOT NULL
);
SELECT create_hypertable('readings', 'ts', chunk_time_interval => INTERVAL '1 day');
