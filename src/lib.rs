//! ccm-render: render OpenShift's cloud controller manager objects offline.
//!
//! The layers, each using only those above it in this list (docs/architecture.md; a test,
//! `tests/it/layers.rs`, fails on a reference that reaches up):
//! 1. [`inputs`]: the user's files, read and checked into typed values;
//! 2. [`catalogue`]: the providers and releases of one run (formats and checks are the
//!    `ccm-catalogue` crate's);
//! 3. [`config`]: the cluster to render for ([`config::ClusterConfig`]): inputs, the
//!    install-config's derivation, the release in force, TLS and feature gates;
//! 4. [`render`]: the pure function from a configuration and a provider to objects and files;
//! 5. [`output`]: the only code that writes (the tree, Ignition, summaries, diffs);
//! 6. [`commands`]: the command line, one subcommand per file.

pub mod catalogue;
pub mod commands;
pub mod config;
pub mod inputs;
pub mod output;
pub mod render;
