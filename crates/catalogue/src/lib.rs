//! The catalogue of ccm-render: what a provider folder and a release file are, and the one piece
//! of code that checks them, wherever they come from (the built-in `assets/`, compiled by the
//! binary's build script; `--provider-dir` and `provider check` at run time).
//!
//! Modules, each using only those listed before it:
//! * [`path_error`]: a decoding error and the path of the field it is about;
//! * [`msgpack`]: MessagePack read into `Value`s, written from them, and the one decoder of
//!   typed records ([`msgpack::decoder`]);
//! * [`json_fields`], [`validate`], [`yaml`]: reading fields, checking names, YAML in and out;
//! * [`go_encode`]: JSON written as Go's `encoding/json` writes it;
//! * [`features`]: OpenShift's feature sets and gates, as tables;
//! * [`script`]: the model of a container's shell script (the commands a CCM container runs);
//! * [`provider_dir`]: reading a folder of provider files (no parsing);
//! * [`platform`]: the platforms openshift/api defines, a closed set;
//! * [`providers`]: a provider's descriptor, its parse and its checks;
//! * [`releases`]: a release as data (its behaviour, its delta from the next release);
//! * [`hosted`]: the hosted components (HyperShift's CCM of each platform) and their checks;
//! * [`compiled`]: the build-time compilation of a catalogue folder into an embedded table.

pub mod compiled;
pub mod features;
pub mod go_encode;
pub mod hosted;
pub mod json_fields;
pub mod msgpack;
pub mod path_error;
pub mod platform;
pub mod provider_dir;
pub mod providers;
pub mod releases;
pub mod script;
pub mod validate;
pub mod yaml;
