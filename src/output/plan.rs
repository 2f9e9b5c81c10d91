//! What writing a [`Tree`] would do to `--dest-dir`, found by reading it and never writing:
//! which files would be added, changed, left or (with `--prune`) removed, which folders are
//! missing, and what a crashed run left for the next one to repair ([`Leftovers`]). `--check`
//! and `--diff` print a [`Plan`]; [`super::apply`] carries one out.

use super::names;
use super::recover::Leftovers;
use super::tree::{File, PRUNABLE, Tree};
use anyhow::{Context as _, Result, bail};
use camino::{Utf8Path, Utf8PathBuf};
use std::os::unix::fs::PermissionsExt as _;

/// Checks that `dest` can be an output directory: a directory, or missing with a creatable
/// parent; never a file.
pub(crate) fn check_dest(dest: &Utf8Path) -> Result<()> {
    match std::fs::metadata(dest) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => bail!("--dest-dir {dest}: exists and is not a directory"),
        Err(err) if super::fs::missing(&err) => {
            // The nearest existing ancestor must be a directory, or nothing can be created.
            let mut ancestor = dest.parent();
            while let Some(dir) = ancestor {
                match std::fs::metadata(dir) {
                    Ok(meta) if meta.is_dir() => return Ok(()),
                    Ok(_) => bail!("--dest-dir {dest}: {dir} exists and is not a directory"),
                    Err(err) if super::fs::missing(&err) => {
                        ancestor = dir.parent();
                    }
                    Err(err) => {
                        return Err(err).with_context(|| format!("--dest-dir {dest}: {dir}"));
                    }
                }
            }
            Ok(())
        }
        Err(err) => Err(err).with_context(|| format!("--dest-dir {dest}")),
    }
}

/// How a file of the output directory compares with the render.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Change {
    /// Rendered, not in the directory.
    Added,
    /// Rendered, in the directory with other contents or another mode.
    Changed,
    /// Rendered and already in the directory as rendered.
    Unchanged,
    /// In the directory, not rendered, and `--prune` given.
    Removed,
}

/// One file of a [`Plan`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    /// Path relative to `--dest-dir`.
    pub(crate) path: Utf8PathBuf,
    /// What writing would do to it.
    pub(crate) change: Change,
    /// The file as it is in the directory.
    pub(crate) old: Option<File>,
    /// The file as rendered.
    pub(crate) new: Option<File>,
}

/// What writing a tree would do to `--dest-dir`, computed without changing anything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Plan {
    /// Every rendered file, and with `--prune` every file to remove, by path.
    pub(crate) entries: Vec<Entry>,
    /// Of [`Tree::folders`], those that do not exist yet (all of them when `--dest-dir` does not).
    pub(crate) missing_folders: Vec<Utf8PathBuf>,
    /// Files under the output folders that are not rendered and stay (see
    /// [`super::WriteReport::left`]).
    pub(crate) left: Vec<Utf8PathBuf>,
    /// What an interrupted run left, which a render repairs before anything else (always empty
    /// in a plan made by [`super::Dest::plan`], which repaired it already).
    pub(crate) leftovers: Leftovers,
    /// The tree's folders ([`Tree::folders`]): never removed, even when `--prune` empties them.
    pub(crate) folders: Vec<&'static str>,
    /// Whether `--dest-dir` does not exist: writing creates it whole (see `fresh.rs`).
    pub(crate) new_dest: bool,
}

impl Plan {
    /// Whether writing would change anything (a repair of [`Plan::leftovers`] included).
    pub(crate) fn has_changes(&self) -> bool {
        !self.missing_folders.is_empty()
            || !self.leftovers.is_empty()
            || self.entries.iter().any(|e| e.change != Change::Unchanged)
    }
}

/// Compares `tree` with `dest` without writing or creating anything (`render --check`). When
/// `dest` exists, the comparison waits for a render that holds its lock (a shared lock), so it
/// never sees an update half done.
pub(crate) fn plan(tree: &Tree, dest: &Utf8Path, prune: bool) -> Result<Plan> {
    check_dest(dest)?;
    // Checked on every run, not only on those that end up waiting.
    super::lock::timeout()?;
    if !probe_dir_or_missing(dest)? {
        return compare(tree, dest, prune);
    }
    // None when it went meanwhile: it is then compared as missing.
    let _shared = super::lock::DirLock::shared_if_present(dest)?;
    compare(tree, dest, prune)
}

/// [`plan`] without the lock: the caller holds it, or `dest` is missing.
pub(super) fn compare(tree: &Tree, dest: &Utf8Path, prune: bool) -> Result<Plan> {
    match contents(dest)? {
        Contents::Missing => Ok(Plan {
            new_dest: true,
            ..everything_new(tree)
        }),
        Contents::Nothing => Ok(everything_new(tree)),
        Contents::Something => compare_each(tree, dest, prune),
    }
}

/// What `dest` holds, as far as planning goes.
enum Contents {
    /// It does not exist.
    Missing,
    /// Nothing but, perhaps, the lock file of an older release.
    Nothing,
    /// Anything else.
    Something,
}

/// Whether `dest` is missing or holds nothing but an older release's lock file: bootkube's first render, a
/// fresh directory. Then there is nothing to compare, repair or prune, and one listing
/// replaces looking for every file and folder in turn (two dozen system calls a render).
fn contents(dest: &Utf8Path) -> Result<Contents> {
    let entries = match std::fs::read_dir(dest) {
        Ok(entries) => entries,
        Err(err) if super::fs::missing(&err) => return Ok(Contents::Missing),
        Err(err) => return Err(err).with_context(|| format!("--dest-dir {dest}")),
    };
    for entry in entries {
        let entry = entry.with_context(|| format!("--dest-dir: listing {dest}"))?;
        if entry.file_name() != names::LEGACY_LOCK {
            return Ok(Contents::Something);
        }
    }
    Ok(Contents::Nothing)
}

/// The plan for a `dest` that holds nothing ([`contents`]): every folder to create, every file
/// added.
fn everything_new(tree: &Tree) -> Plan {
    Plan {
        folders: tree.folders(),
        missing_folders: tree.folders().into_iter().map(Into::into).collect(),
        entries: tree
            .files
            .iter()
            .map(|(path, file)| Entry {
                path: path.clone(),
                change: Change::Added,
                old: None,
                new: Some(file.clone()),
            })
            .collect(),
        ..Plan::default()
    }
}

/// [`compare`], file by file.
pub(super) fn compare_each(tree: &Tree, dest: &Utf8Path, prune: bool) -> Result<Plan> {
    let mut plan = Plan {
        folders: tree.folders(),
        leftovers: super::recover::inspect(dest)?,
        ..Plan::default()
    };
    for folder in tree.folders() {
        if !super::fs::probe_dir(&names::join(dest, folder))? {
            plan.missing_folders.push(folder.into());
        }
    }
    // Each folder once (a tree has a few folders and a few dozen files).
    let mut probed: Vec<&Utf8Path> = Vec::new();
    for (relative, file) in &tree.files {
        let path = names::join(dest, relative);
        let mut parent = relative.parent();
        while let Some(dir) = parent.filter(|d| !d.as_str().is_empty() && !probed.contains(d)) {
            super::fs::probe_dir(&names::join(dest, dir))?;
            probed.push(dir);
            parent = dir.parent();
        }
        let old = read_existing(&path)?;
        let change = match &old {
            None => Change::Added,
            Some(old) if old == file => Change::Unchanged,
            Some(_) => Change::Changed,
        };
        plan.entries.push(Entry {
            path: relative.clone(),
            change,
            old,
            new: Some(file.clone()),
        });
    }
    let stale = stale_files(tree, dest)?;
    plan.left = stale.links;
    if prune {
        for relative in stale.files {
            let old = read_existing(&names::join(dest, &relative))?;
            plan.entries.push(Entry {
                path: relative,
                change: Change::Removed,
                old,
                new: None,
            });
        }
        plan.entries.sort_by(|a, b| a.path.cmp(&b.path));
    } else {
        plan.left.extend(stale.files);
        plan.left.sort();
    }
    Ok(plan)
}

/// Whether `dest` exists (as a directory, links followed: the user named it).
fn probe_dir_or_missing(dest: &Utf8Path) -> Result<bool> {
    match std::fs::metadata(dest) {
        Ok(meta) if meta.is_dir() => Ok(true),
        Ok(_) => bail!("--dest-dir {dest}: exists and is not a directory"),
        Err(err) if super::fs::missing(&err) => Ok(false),
        Err(err) => Err(err).with_context(|| format!("--dest-dir {dest}")),
    }
}

/// Files under [`PRUNABLE`] that `tree` does not produce.
struct Stale {
    /// Regular files, by path relative to `--dest-dir`.
    files: Vec<Utf8PathBuf>,
    /// Never removed: symbolic links (nor followed, so pruning cannot reach outside
    /// `--dest-dir`), and names that are not UTF-8.
    links: Vec<Utf8PathBuf>,
}

fn stale_files(tree: &Tree, dest: &Utf8Path) -> Result<Stale> {
    let mut stale = Stale {
        files: Vec::new(),
        links: Vec::new(),
    };
    let mut stack: Vec<Utf8PathBuf> = PRUNABLE.iter().map(Utf8PathBuf::from).collect();
    while let Some(relative) = stack.pop() {
        let dir = names::join(dest, &relative);
        let meta = match std::fs::symlink_metadata(&dir) {
            Ok(meta) => meta,
            Err(err) if super::fs::missing(&err) => continue,
            Err(err) => return Err(err).with_context(|| format!("--dest-dir: {dir}")),
        };
        if meta.file_type().is_symlink() {
            stale.links.push(relative);
            continue;
        }
        if !meta.is_dir() {
            bail!("--dest-dir: {dir} exists and is not a directory");
        }
        let entries =
            std::fs::read_dir(&dir).with_context(|| format!("--dest-dir: listing {dir}"))?;
        for entry in entries {
            let entry = entry.with_context(|| format!("--dest-dir: listing {dir}"))?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                // The render never writes such a name; leave it, named as well as it can be.
                stale
                    .links
                    .push(names::join(&relative, name.to_string_lossy().as_ref()));
                continue;
            };
            if names::is_temporary(name) {
                // A crashed run's temporary file: repair's business (Leftovers), not prune's.
                continue;
            }
            let child = names::join(&relative, name);
            let kind = entry
                .file_type()
                .with_context(|| format!("--dest-dir: reading {}", names::join(dest, &child)))?;
            if kind.is_symlink() {
                stale.links.push(child);
            } else if kind.is_dir() {
                stack.push(child);
            } else if !tree.files.contains_key(&child) {
                stale.files.push(child);
            }
        }
    }
    stale.files.sort();
    stale.links.sort();
    Ok(stale)
}

/// The file at `path` as it is now, or None when there is none.
pub(crate) fn read_existing(path: &Utf8Path) -> Result<Option<File>> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            bail!("--dest-dir: {path} is a symbolic link; refusing to replace it")
        }
        Ok(meta) if !meta.is_file() => bail!("--dest-dir: {path} exists and is not a file"),
        Ok(meta) => {
            let bytes =
                std::fs::read(path).with_context(|| format!("--dest-dir: reading {path}"))?;
            Ok(Some(File {
                bytes,
                mode: meta.permissions().mode() & 0o7777,
            }))
        }
        Err(err) if super::fs::missing(&err) => Ok(None),
        Err(err) => Err(err).with_context(|| format!("--dest-dir: {path}")),
    }
}
