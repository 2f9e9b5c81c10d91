//! What an import did and what it left to a person: what `provider import` says on stderr
//! and lists on stdout.

use camino::Utf8PathBuf;

/// What an import did and what it left to a person.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Report {
    /// The release imported (`X.Y`).
    pub(crate) release: String,
    /// Whether it is new to the catalogue (now its newest).
    pub(crate) added: bool,
    /// Files written (new or changed).
    pub(crate) written: Vec<Utf8PathBuf>,
    /// Files removed.
    pub(crate) removed: Vec<Utf8PathBuf>,
    /// What could not be imported, one line per file.
    pub(crate) not_imported: Vec<String>,
}
