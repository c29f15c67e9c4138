//! kestrel's config.
