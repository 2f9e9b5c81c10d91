//! The integration tests: one test crate with a module per area, so that the library and its
//! dependencies are linked into one test binary rather than one per file. Run one area with
//!   cargo test --test it <area>::
//! (for example `cargo test --test it golden::`). Each area's module says what it proves.

mod common;

mod bad_inputs;
mod bootkube;
mod bootstrap;
mod cccmo;
mod ccm_flags;
mod cli;
mod cmd;
mod completions;
mod conformance;
mod cpuid;
mod crash;
mod credentials;
mod doc_commands;
mod docs;
mod foreign_arch;
mod golden;
mod hosted;
mod hosted_cluster;
mod ignition;
mod image_references;
mod install_config;
mod install_config_accepts;
mod installer_cases;
mod installer_cloud_config;
mod installer_infrastructure;
mod installer_topologies;
mod layers;
mod man;
mod matrix;
mod no_cryptography;
mod pgo;
mod properties;
mod providers;
mod real_install_configs;
mod release_import;
mod releases;
mod schema;
