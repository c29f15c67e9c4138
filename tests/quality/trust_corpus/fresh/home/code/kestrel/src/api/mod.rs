//! The axum routes.
pub mod readings;
