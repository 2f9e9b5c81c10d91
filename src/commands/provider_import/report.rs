//! What an import did and what it left to a person: what `provider import` says on stderr
//! and lists on stdout.

use camino::Utf8PathBuf;

/// What an import did and what it left to a person.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The release imported (`X.Y`).
    pub release: String,
    /// Whether it is new to the catalogue (now its newest).
    pub added: bool,
    /// Files written (new or changed).
    pub written: Vec<Utf8PathBuf>,
    /// Files removed.
    pub removed: Vec<Utf8PathBuf>,
    /// What could not be imported, one line per file.
    pub not_imported: Vec<String>,
}
