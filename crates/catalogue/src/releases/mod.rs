//! An OpenShift release as data (`assets/releases/<X.Y>.yaml`): the providers under `assets/` are
//! the newest release, and each older release is a file that says how it differs from the next
//! newer one (a reverse delta): its CCCMO commit, the behaviour that differs ([`behaviour`]) and
//! edits of the providers' parsed objects ([`delta`]). [`data::resolve`] applies them in turn.

pub mod behaviour;
pub mod data;
pub mod delta;
pub mod diff;

pub use behaviour::Behaviour;
pub use data::{Cccmo, Release};
