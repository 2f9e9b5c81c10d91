//! The journal: the list of steps that turn the old tree into the new one, written to
//! `--dest-dir` (as [`names::JOURNAL`]) before the first of them is taken, and removed after the
//! last. Its presence is the commit point of an update: without it the tree is the old one
//! (plus temporary files, which are debris); with it the update is decided, and whoever finds it
//! — the run that wrote it, or the next run after a crash — takes every step again.
//!
//! So every step is idempotent: create a folder (done if it exists), rename a staged temporary
//! file over its target (done if the temporary file is gone: names are random and never
//! reused), remove a file (done if absent), remove an emptied folder (done if absent; kept if
//! not empty). The journal is JSON,
//! `{"version":1,"steps":[{"op":"rename","from":…,"to":…},…]}`, with paths relative to `--dest-dir`, checked on reading so that a damaged or planted journal
//! cannot make a run touch anything outside `--dest-dir` or rename anything but its own
//! temporary files.

use super::durable::{self, Flush};
use super::failpoint;
use super::names;
use anyhow::{Context as _, Result, bail};
use camino::{Utf8Component, Utf8Path, Utf8PathBuf};
use serde::{Deserialize, Serialize};
use std::os::unix::fs::{DirBuilderExt as _, PermissionsExt as _};

/// The journal's format version.
const VERSION: u32 = 1;

/// One step of an update. Paths are relative to `--dest-dir`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "lowercase", deny_unknown_fields)]
pub(super) enum Step {
    /// Create a folder, with `mode` when given (`secrets/`: 0700).
    Mkdir { path: String, mode: Option<u32> },
    /// Rename a staged temporary file over its target.
    Rename { from: String, to: String },
    /// Remove a file (`--prune`).
    Remove { path: String },
    /// Remove a folder that `--prune` emptied.
    Rmdir { path: String },
}

/// An update's steps, in order: folders, renames, removals, emptied folders.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Journal {
    version: u32,
    pub(super) steps: Vec<Step>,
}

impl Journal {
    pub(super) fn new(steps: Vec<Step>) -> Self {
        Self {
            version: VERSION,
            steps,
        }
    }

    /// The staged temporary files it renames.
    pub(super) fn temporaries(&self) -> impl Iterator<Item = &str> {
        self.steps.iter().filter_map(|step| match step {
            Step::Rename { from, .. } => Some(from.as_str()),
            _ => None,
        })
    }

    /// The files whose step is still to take (for `--check` after a crash).
    pub(super) fn unfinished(&self, dest: &Utf8Path) -> Vec<Utf8PathBuf> {
        let exists = |p: &str| std::fs::symlink_metadata(names::join(dest, p)).is_ok();
        let mut out: Vec<Utf8PathBuf> = self
            .steps
            .iter()
            .filter_map(|step| match step {
                Step::Rename { from, to } if exists(from) => Some(to.into()),
                Step::Remove { path } if exists(path) => Some(path.into()),
                _ => None,
            })
            .collect();
        out.sort();
        out
    }
}

/// Reads the journal of `dest`, if there is one.
pub(super) fn read(dest: &Utf8Path) -> Result<Option<Journal>> {
    let path = names::join(dest, names::JOURNAL);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(err) if super::fs::missing(&err) => return Ok(None),
        Err(err) => return Err(err).with_context(|| format!("--dest-dir: reading {path}")),
    };
    let journal: Journal = serde_json::from_str(&text).with_context(|| {
        format!("--dest-dir: {path} is not a journal this version of ccm-render wrote; move it away once {dest} is checked")
    })?;
    check(&journal).with_context(|| format!("--dest-dir: {path} is damaged"))?;
    Ok(Some(journal))
}

/// Refuses a journal that names anything but plain relative paths, or renames anything but a
/// temporary file of ours onto anything but a plain file name.
fn check(journal: &Journal) -> Result<()> {
    if journal.version != VERSION {
        bail!("format version {} (expected {VERSION})", journal.version);
    }
    for step in &journal.steps {
        let paths: Vec<&str> = match step {
            Step::Mkdir { path, .. } | Step::Remove { path } | Step::Rmdir { path } => {
                vec![path]
            }
            Step::Rename { from, to } => {
                if !Utf8Path::new(from)
                    .file_name()
                    .is_some_and(names::is_temporary)
                {
                    bail!("renames {from}, which is not a temporary file of ccm-render");
                }
                vec![from, to]
            }
        };
        for path in paths {
            let plain = !path.is_empty()
                && Utf8Path::new(path)
                    .components()
                    .all(|c| matches!(c, Utf8Component::Normal(_)));
            if !plain {
                bail!("names {path:?}, which is not a path inside --dest-dir");
            }
        }
    }
    Ok(())
}

/// Commits an update: writes the journal beside the staged files, flushes them all (`flush`
/// holds the staged files) and renames the journal into place. Returns once the rename is done:
/// from then on the update is decided, and [`finish`] (or the next run) completes it. On error
/// the journal is not in place and its temporary file is removed.
pub(super) fn commit(dest: &Utf8Path, journal: &Journal, flush: &mut Flush) -> Result<()> {
    let mut text = serde_json::to_string_pretty(journal).context("serialising the journal")?;
    text.push('\n');
    let file = super::tree::File {
        bytes: text.into_bytes(),
        mode: super::tree::PRIVATE_MODE,
    };
    let temp = durable::stage(dest, &file, "--dest-dir")?;
    let result = (|| {
        flush.file(&temp);
        flush.commit("--dest-dir")?;
        failpoint::hit("journal")?;
        let target = names::join(dest, names::JOURNAL);
        std::fs::rename(&temp, &target)
            .with_context(|| format!("--dest-dir: writing the journal {target}"))
    })();
    if let Err(err) = &result
        && !failpoint::is_crash(err)
    {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// Completes a committed update: makes the journal durable, takes every step, flushes the
/// folders it touched, removes the journal. Idempotent: run again after any failure or crash.
pub(super) fn finish(dest: &Utf8Path, journal: &Journal) -> Result<()> {
    // The journal must reach the disk before any step does, or a power cut could keep a step
    // and lose the journal that explains it.
    durable::sync_dir(dest).with_context(|| format!("--dest-dir: flushing {dest}"))?;
    let mut flush = Flush::default();
    let mut checked = Vec::new();
    for step in &journal.steps {
        failpoint::hit("step")?;
        take(dest, step, &mut flush, &mut checked)?;
    }
    flush.commit("--dest-dir")?;
    failpoint::hit("unjournal")?;
    // Not flushed: a journal that reappears after a power cut only repeats finished steps, and
    // the next update's first flush makes this removal durable before it commits.
    let path = names::join(dest, names::JOURNAL);
    std::fs::remove_file(&path).with_context(|| format!("--dest-dir: removing {path}"))
}

/// Carries out one step; `checked` holds the folders [`refuse_links`] found to be real folders.
fn take(dest: &Utf8Path, step: &Step, flush: &mut Flush, checked: &mut Vec<String>) -> Result<()> {
    let parent_of = |path: &Utf8Path| path.parent().map_or_else(|| dest.to_owned(), Into::into);
    match step {
        Step::Mkdir { path, mode } => {
            let dir = names::join(dest, path);
            refuse_links(dest, path, checked)?;
            let mut builder = std::fs::DirBuilder::new();
            builder.mode(mode.unwrap_or(0o777));
            match builder.create(&dir) {
                Ok(()) => {}
                Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {
                    if !super::fs::probe_dir(&dir)? {
                        bail!("--dest-dir: {dir} vanished while it was being created");
                    }
                }
                Err(err) => return Err(err).with_context(|| format!("--dest-dir: creating {dir}")),
            }
            if let Some(mode) = mode {
                // Exactly `mode`, whatever the umask (and again after a crash right after mkdir).
                std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(*mode))
                    .with_context(|| format!("--dest-dir: setting the mode of {dir}"))?;
            }
            flush.dir(&parent_of(&dir));
        }
        Step::Rename { from, to } => {
            refuse_links(dest, from, checked)?;
            refuse_links(dest, to, checked)?;
            let (from, to) = (names::join(dest, from), names::join(dest, to));
            match std::fs::rename(&from, &to) {
                Ok(()) => {}
                Err(err) if err.kind() == std::io::ErrorKind::NotFound && !from.exists() => {}
                Err(err) => {
                    return Err(err).with_context(|| format!("--dest-dir: renaming into {to}"));
                }
            }
            flush.dir(&parent_of(&from));
            flush.dir(&parent_of(&to));
        }
        Step::Remove { path } => {
            refuse_links(dest, path, checked)?;
            let file = names::join(dest, path);
            match std::fs::remove_file(&file) {
                Ok(()) => {}
                Err(err) if super::fs::missing(&err) => {}
                Err(err) => {
                    return Err(err).with_context(|| format!("--dest-dir: removing {file}"));
                }
            }
            flush.dir(&parent_of(&file));
        }
        Step::Rmdir { path } => {
            refuse_links(dest, path, checked)?;
            let dir = names::join(dest, path);
            if let Err(err) = std::fs::remove_dir(&dir) {
                // Gone (done already), or not empty: something appeared in it since the plan,
                // and keeping a folder loses nothing.
                if !super::fs::missing(&err) && err.kind() != std::io::ErrorKind::DirectoryNotEmpty
                {
                    return Err(err).with_context(|| format!("--dest-dir: removing {dir}"));
                }
            }
            flush.dir(&parent_of(&dir));
        }
    }
    Ok(())
}

/// Refuses a step whose folders inside `dest` include a symbolic link: one planted after the
/// plan was made must not send a file elsewhere.
fn refuse_links(dest: &Utf8Path, relative: &str, checked: &mut Vec<String>) -> Result<()> {
    let mut dir = dest.to_owned();
    let parents = Utf8Path::new(relative)
        .parent()
        .into_iter()
        .flat_map(Utf8Path::components);
    for component in parents {
        dir.push(component);
        // Each folder once per update: the steps of one folder (a dozen renames into
        // manifests/) would otherwise look at it a dozen times.
        if checked.iter().any(|c| c == dir.as_str()) {
            continue;
        }
        match std::fs::symlink_metadata(&dir) {
            Ok(meta) if meta.file_type().is_symlink() => {
                bail!("--dest-dir: {dir} is a symbolic link; refusing to write through it")
            }
            Ok(meta) if meta.is_dir() => checked.push(dir.to_string()),
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_that_points_outside_dest_or_renames_a_rendered_file_is_refused() {
        let bad = [
            Step::Remove {
                path: "../x".into(),
            },
            Step::Remove {
                path: "/etc/passwd".into(),
            },
            Step::Rename {
                from: "manifests/a.yaml".into(),
                to: "manifests/b.yaml".into(),
            },
            Step::Rename {
                from: ".ccm-render-tmp-abc".into(),
                to: "manifests/../../b".into(),
            },
        ];
        for step in bad {
            let err = check(&Journal::new(vec![step.clone()])).expect_err("refused");
            assert!(!format!("{err:#}").is_empty(), "{step:?}");
        }
        let good = Journal::new(vec![Step::Rename {
            from: "manifests/.ccm-render-tmp-abc".into(),
            to: "manifests/b.yaml".into(),
        }]);
        check(&good).expect("accepted");
    }
}
