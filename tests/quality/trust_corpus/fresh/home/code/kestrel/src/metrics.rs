//! kestrel's metrics.
