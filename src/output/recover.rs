//! What a run that ended abruptly (SIGKILL, power cut, full disk during the last steps) leaves in
//! `--dest-dir`, and its repair. A render repairs before it does anything else, holding the lock
//! ([`recover`]); `--check` and `--diff` only look ([`inspect`]) and report it as a change.
//!
//! * A journal: the update was committed. Its steps are taken again ([`super::journal::finish`]),
//!   which yields the new tree.
//! * Temporary files no journal refers to: an update that never committed, or the stray file of
//!   a single-file write whose writer is gone. They are removed, which yields the old tree:
//!   nothing else was touched.
//!
//! Temporary files are looked for where ccm-render stages them: in `--dest-dir` itself and in the
//! folders of the layout ([`PRUNABLE`]), at any depth, never through a symbolic link.

use super::durable;
use super::journal;
use super::names;
use super::tree::PRUNABLE;
use anyhow::{Context as _, Result};
use camino::{Utf8Path, Utf8PathBuf};
use std::collections::BTreeSet;

/// What a crashed run left in a directory, which the next render repairs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Leftovers {
    /// The journal of an interrupted update (relative to `--dest-dir`): the next render
    /// completes that update.
    pub(crate) journal: Option<Utf8PathBuf>,
    /// Files that interrupted update has yet to replace or remove.
    pub(crate) unfinished: Vec<Utf8PathBuf>,
    /// Temporary files of ccm-render that no journal refers to: the next render removes them.
    pub(crate) temporary: Vec<Utf8PathBuf>,
}

impl Leftovers {
    /// Whether there is nothing to repair.
    pub(crate) fn is_empty(&self) -> bool {
        self.journal.is_none() && self.temporary.is_empty()
    }
}

/// What [`recover`] would do to `dest`, found without writing.
pub(super) fn inspect(dest: &Utf8Path) -> Result<Leftovers> {
    inspect_with_journal(dest).map(|(found, _)| found)
}

/// [`inspect`], and the journal it read.
fn inspect_with_journal(dest: &Utf8Path) -> Result<(Leftovers, Option<journal::Journal>)> {
    let journal = journal::read(dest)?;
    let referenced: BTreeSet<&str> = journal
        .iter()
        .flat_map(journal::Journal::temporaries)
        .collect();
    let mut temporary = Vec::new();
    for path in temporary_files(dest)? {
        if referenced.contains(path.as_str()) {
            continue;
        }
        // A single-file write in progress (an Ignition config written into --dest-dir by
        // another process) is not a leftover.
        if is_single(&path) && !durable::is_abandoned(&names::join(dest, &path)).unwrap_or(false) {
            continue;
        }
        temporary.push(path);
    }
    let found = Leftovers {
        unfinished: journal
            .as_ref()
            .map(|j| j.unfinished(dest))
            .unwrap_or_default(),
        journal: journal.as_ref().map(|_| names::JOURNAL.into()),
        temporary,
    };
    Ok((found, journal))
}

/// Completes an interrupted update and removes stray temporary files; returns what it found.
/// The caller holds the lock for writing.
pub(super) fn recover(dest: &Utf8Path) -> Result<Leftovers> {
    let (found, journal) = inspect_with_journal(dest)?;
    if let Some(journal) = journal {
        journal::finish(dest, &journal).with_context(|| {
            format!("--dest-dir {dest}: completing an update interrupted by a crash")
        })?;
    }
    // Not flushed: if a power cut brings one back, the next run removes it again.
    for relative in &found.temporary {
        let path = names::join(dest, relative);
        let removed = if is_single(relative) {
            durable::remove_if_abandoned(&path).map(|_| ())
        } else {
            std::fs::remove_file(&path)
        };
        match removed {
            Ok(()) => {}
            Err(err) if super::fs::missing(&err) => {}
            Err(err) => {
                return Err(err)
                    .with_context(|| format!("--dest-dir: removing the temporary file {path}"));
            }
        }
    }
    Ok(found)
}

/// Whether `path` is the temporary file of a single-file write.
fn is_single(path: &Utf8Path) -> bool {
    path.file_name().is_some_and(names::is_single_temporary)
}

/// Every file named as one of ccm-render's temporary files ([`names::is_temporary`]) directly in
/// `dest` or anywhere under its [`PRUNABLE`] folders, relative to `dest`.
fn temporary_files(dest: &Utf8Path) -> Result<Vec<Utf8PathBuf>> {
    let mut found = Vec::new();
    let mut stack = vec![Utf8PathBuf::new()];
    while let Some(relative) = stack.pop() {
        let dir = if relative.as_str().is_empty() {
            dest.to_owned()
        } else {
            names::join(dest, &relative)
        };
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(err) if super::fs::missing(&err) => continue,
            Err(err) => return Err(err).with_context(|| format!("--dest-dir: listing {dir}")),
        };
        for entry in entries {
            let entry = entry.with_context(|| format!("--dest-dir: listing {dir}"))?;
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            let kind = entry
                .file_type()
                .with_context(|| format!("--dest-dir: reading {dir}/{name}"))?;
            let child = names::join(&relative, &name);
            if kind.is_file() && names::is_temporary(&name) {
                found.push(child);
            } else if kind.is_dir()
                && (!relative.as_str().is_empty() || PRUNABLE.contains(&name.as_str()))
            {
                stack.push(child);
            }
        }
    }
    found.sort();
    Ok(found)
}
