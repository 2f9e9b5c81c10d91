//! ccm-render: render OpenShift's cloud controller manager objects offline.
//!
//! Data flows one way: input files → [`inputs`] → [`config::ClusterConfig`] → a provider from
//! [`providers`] → [`render::render`] (pure) → [`output`] (the only code that writes).

pub mod capabilities;
pub mod cccmo;
pub mod cli;
pub mod cloud_config;
pub mod commands;
pub mod config;
pub mod diff;
pub mod features;
pub mod ignition;
pub mod inputs;
pub mod install_config;
pub mod json_fields;
pub mod matrix;
pub mod output;
pub mod placement;
pub mod providers;
pub mod redact;
pub mod releases;
pub mod render;
pub mod scaffold;
pub mod summary;
pub mod tls;
pub mod trusted_ca;
pub mod validate;
pub mod yaml;

pub use commands::{ExitStatus, run};
