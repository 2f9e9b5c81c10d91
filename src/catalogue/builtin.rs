//! The built-in catalogue: the table build.rs compiled from `assets/` (providers, shared objects
//! and releases) and embedded in the binary.

use ccm_catalogue::compiled;

/// What build.rs compiled: `pub static ENTRIES: &[(&str, &[u8])]`, sorted by key.
mod table {
    include!(concat!(env!("OUT_DIR"), "/compiled.rs"));
}

/// The compiled table build.rs wrote.
pub(crate) fn builtin_table() -> compiled::Table<'static> {
    compiled::Table::new(table::ENTRIES)
}

/// The embedded entries as they are, for the test that they are up to date.
#[cfg(test)]
pub(crate) fn embedded_entries() -> Vec<(&'static str, &'static [u8])> {
    table::ENTRIES.to_vec()
}
