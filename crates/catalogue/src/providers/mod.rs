//! A provider is data: `provider.yaml` (a descriptor: the platform it serves, images.json keys,
//! `--cloud-provider` name, where the TLS flags go, the cloud config transform) and
//! `manifests/*.yaml`, plain Kubernetes objects as CCCMO applies them with its defaults in place.
//!
//! * [`descriptor`]: the types (descriptor, provider, shared objects), plain data;
//! * [`check`]: the rules, for a descriptor, an object and a set of providers;
//! * [`command_line`]: a CCM's command line held to the flags and controllers it knows;
//! * [`parse`](mod@parse): one folder of text to a checked [`Provider`].

pub mod check;
pub mod command_line;
mod descriptor;
mod parse;

pub use descriptor::*;
pub use parse::{LocatedObject, Parsed, check_parsed, one_object, parse, parse_common};
