//! The catalogue layer: the providers and releases of one run. The formats and their checks are
//! the `ccm-catalogue` crate's; this layer holds the built-in catalogue compiled into the binary
//! ([`builtin`]), the providers of one run and the choice of the one that renders
//! ([`providers`]), and the releases ([`releases`]).

mod builtin;
pub mod cccmo;
pub(crate) mod hosted;
mod providers;
mod releases;

pub use providers::{Catalogue, NoCcm, Selection};
pub use releases::Releases;
