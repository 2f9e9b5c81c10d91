//! Carrying out a [`Plan`]: one update of `--dest-dir` that a crash at any instant leaves as the
//! old tree or the new one, never a mix.
//!
//! [`Dest::open`] creates `--dest-dir` if needed (racing runs all succeed), takes its lock and
//! repairs what a crashed run left. [`Dest::apply`] then:
//!
//! 1. stages every new or changed file as a temporary file beside its target (in the nearest
//!    folder that exists, when its own is still to be made);
//! 2. writes the journal of the steps to take (folders to make, renames, removals, emptied
//!    folders to remove), flushes the staged files and the journal in one batch, and renames the
//!    journal into place: the commit point;
//! 3. takes the steps, flushes the folders they touched, and removes the journal.
//!
//! A failure before the commit removes the staged files: the tree is as it was. A failure after
//! it (rare: every step only renames or removes) is retried once; if it persists the journal
//! stays, the error says so, and the next run completes the update. A plan without changes
//! writes nothing at all.

use super::durable::{self, Flush};
use super::failpoint;
use super::fs::{create_root, probe_dir};
use super::journal::{self, Journal, Step};
use super::lock::DirLock;
use super::names;
use super::plan::{self, Change, Entry, Plan, check_dest};
use super::recover::{self, Leftovers};
use super::report::WriteReport;
use super::tree::{SECRETS, SECRETS_DIR_MODE, Tree};
use anyhow::{Context as _, Result, bail};
use camino::{Utf8Path, Utf8PathBuf};
use std::collections::BTreeSet;

/// An output directory open for writing: it exists, this run holds its lock, and what a crashed
/// run left in it is repaired. Dropping it releases the lock. One per output directory: a
/// command writing several trees (one per case folder) opens each folder as its own `Dest`.
#[derive(Debug)]
pub struct Dest {
    path: Utf8PathBuf,
    _lock: DirLock,
    repaired: Leftovers,
}

impl Dest {
    /// Creates `path` if needed, takes its lock (waiting as `lock.rs` says) and repairs it.
    pub fn open(path: &Utf8Path) -> Result<Self> {
        check_dest(path)?;
        create_root(path)?;
        let lock = DirLock::exclusive(path)?;
        // What a run killed while writing a new directory here left beside it.
        if let Some(parent) = durable::parent_of(path) {
            super::fresh::remove_abandoned(parent);
        }
        let repaired = recover::recover(path)?;
        Ok(Self {
            path: path.to_owned(),
            _lock: lock,
            repaired,
        })
    }

    /// What opening it repaired (empty unless a run had crashed there).
    pub(crate) fn repaired(&self) -> &Leftovers {
        &self.repaired
    }

    /// What writing `tree` would do, with `--prune` when `prune` (see [`super::plan()`]).
    pub(crate) fn plan(&self, tree: &Tree, prune: bool) -> Result<Plan> {
        plan::compare(tree, &self.path, prune)
    }

    /// Carries out `plan`, made by [`Dest::plan`] on this directory.
    pub(crate) fn apply(&self, plan: &Plan) -> Result<WriteReport> {
        let report = WriteReport::of(plan);
        if !plan.has_changes() {
            return Ok(report);
        }
        if !plan.leftovers.is_empty() {
            bail!(
                "--dest-dir {}: a crashed run's files appeared after this run repaired it",
                self.path
            );
        }
        let mut flush = Flush::default();
        let mut staged = Vec::new();
        let result = self.stage(plan, &mut staged, &mut flush).and_then(|steps| {
            let journal = Journal::new(steps);
            journal::commit(&self.path, &journal, &mut flush)?;
            Ok(journal)
        });
        let journal = match result {
            Ok(journal) => journal,
            Err(err) => {
                if !failpoint::is_crash(&err) {
                    for temp in staged {
                        let _ = std::fs::remove_file(&temp);
                    }
                }
                return Err(err);
            }
        };
        if let Err(err) = journal::finish(&self.path, &journal) {
            if failpoint::is_crash(&err) {
                return Err(err);
            }
            journal::finish(&self.path, &journal).with_context(|| {
                format!(
                    "--dest-dir {}: the update stopped half done (the next ccm-render run on it completes the update recorded in {})",
                    self.path,
                    names::join(&self.path, names::JOURNAL)
                )
            })?;
        }
        Ok(report)
    }

    /// Folders to make: the layout's, and those of every file of `writes`, parents first.
    /// Kept as text: a path's own ordering compares it component by component, which cost a
    /// render more than the rest of [`Self::stage`] (callgrind, Azure). A parent is a prefix
    /// of its folders, so text order still lists parents first.
    fn folders_to_make(&self, plan: &Plan, writes: &[&Entry]) -> Result<BTreeSet<String>> {
        let mut folders: BTreeSet<String> = plan
            .missing_folders
            .iter()
            .map(ToString::to_string)
            .collect();
        let mut probed: Vec<&Utf8Path> = Vec::new();
        for entry in writes {
            let mut parent = entry.path.parent();
            while let Some(dir) = parent.filter(|d| !d.as_str().is_empty() && !probed.contains(d)) {
                if !probe_dir(&names::join(&self.path, dir))? {
                    folders.insert(dir.to_string());
                }
                probed.push(dir);
                parent = dir.parent();
            }
        }
        Ok(folders)
    }

    /// Stages the new files (their paths into `staged`) and returns the steps of the update.
    fn stage(
        &self,
        plan: &Plan,
        staged: &mut Vec<Utf8PathBuf>,
        flush: &mut Flush,
    ) -> Result<Vec<Step>> {
        let dest = &self.path;
        let writes: Vec<_> = plan
            .entries
            .iter()
            .filter(|e| matches!(e.change, Change::Added | Change::Changed))
            .collect();
        let folders = self.folders_to_make(plan, &writes)?;
        let mut steps: Vec<Step> = folders
            .iter()
            .map(|folder| Step::Mkdir {
                path: folder.clone(),
                mode: (folder == SECRETS).then_some(SECRETS_DIR_MODE),
            })
            .collect();
        for entry in writes {
            let Some(file) = &entry.new else {
                continue;
            };
            // The nearest existing folder: a rename stays within one filesystem.
            let mut dir = entry.path.parent().unwrap_or(Utf8Path::new(""));
            while folders.contains(dir.as_str()) {
                dir = dir.parent().unwrap_or(Utf8Path::new(""));
            }
            let relative_dir = dir;
            let dir = if relative_dir.as_str().is_empty() {
                dest.clone()
            } else {
                names::join(dest, relative_dir)
            };
            let temp = durable::stage(&dir, file, "--dest-dir")?;
            staged.push(temp.clone());
            flush.file(&temp);
            // The temporary file's path relative to `dest` (its name in `relative_dir`), made
            // as text: `strip_prefix` compares the paths component by component.
            let name = temp.as_str().rsplit('/').next().unwrap_or_default();
            let from = if relative_dir.as_str().is_empty() {
                name.to_string()
            } else {
                format!("{relative_dir}/{name}")
            };
            steps.push(Step::Rename {
                from,
                to: entry.path.to_string(),
            });
        }
        let removed: BTreeSet<&Utf8Path> = plan
            .entries
            .iter()
            .filter(|e| e.change == Change::Removed)
            .map(|e| e.path.as_path())
            .collect();
        steps.extend(removed.iter().map(|path| Step::Remove {
            path: path.to_string(),
        }));
        steps.extend(
            emptied_folders(dest, &removed, &plan.folders)?
                .into_iter()
                .map(|path| Step::Rmdir {
                    path: path.to_string(),
                }),
        );
        Ok(steps)
    }
}

/// The folders that removing `removed` leaves empty, deepest first, except `keep` (the tree's
/// own folders): so `secrets/` goes when a render without `--credentials` prunes it, and stays,
/// empty, with `--credentials` (aws, vsphere).
fn emptied_folders(
    dest: &Utf8Path,
    removed: &BTreeSet<&Utf8Path>,
    keep: &[&str],
) -> Result<Vec<Utf8PathBuf>> {
    let mut parents = BTreeSet::new();
    for path in removed {
        let mut parent = path.parent();
        while let Some(dir) = parent.filter(|d| !d.as_str().is_empty()) {
            parents.insert(dir.to_owned());
            parent = dir.parent();
        }
    }
    // What stays in each folder, deepest folders first so that a folder sees its emptied
    // subfolders as gone.
    let mut emptied = BTreeSet::new();
    for relative in parents.iter().rev() {
        if keep.contains(&relative.as_str()) {
            continue;
        }
        let dir = names::join(dest, relative);
        let mut empty = true;
        for entry in
            std::fs::read_dir(&dir).with_context(|| format!("--dest-dir: listing {dir}"))?
        {
            let entry = entry.with_context(|| format!("--dest-dir: listing {dir}"))?;
            let child = names::join(relative, entry.file_name().to_string_lossy().as_ref());
            if !removed.contains(child.as_path()) && !emptied.contains(&child) {
                empty = false;
                break;
            }
        }
        if empty {
            emptied.insert(relative.clone());
        }
    }
    let mut out: Vec<Utf8PathBuf> = emptied.into_iter().collect();
    out.reverse();
    Ok(out)
}
