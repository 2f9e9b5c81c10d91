//! The one write of a tree into `--dest-dir`, in two steps so that a command can write other
//! files between them: [`Update::prepare`] plans it (locking and repairing an existing
//! directory it will change, and planning again under the lock), [`Update::write`] carries the
//! plan out (a missing directory is written whole, `fresh.rs`; an existing one is updated under
//! its lock, `apply.rs`) and returns the plan, the report and what was repaired.

use super::apply::Dest;
use super::fresh;
use super::plan::{self, Plan};
use super::recover::Leftovers;
use super::report::WriteReport;
use super::tree::Tree;
use anyhow::Result;
use camino::{Utf8Path, Utf8PathBuf};

/// A write of a tree, planned and ready to carry out.
#[derive(Debug)]
pub(crate) struct Update<'t> {
    tree: &'t Tree,
    dir: Utf8PathBuf,
    prune: bool,
    plan: Plan,
    /// Open (locked and repaired) when the plan changes an existing directory.
    dest: Option<Dest>,
}

/// What an update did.
#[derive(Debug)]
pub(crate) struct Written {
    /// The plan carried out (made under the lock when the directory existed).
    pub(crate) plan: Plan,
    /// The files written, unchanged, removed and left.
    pub(crate) report: WriteReport,
}

impl<'t> Update<'t> {
    /// Prepares writing `tree` into `dir` from `plan`, the read-only [`super::plan()`] of the
    /// same tree: a plan that changes nothing, or that writes a directory that does not exist,
    /// is kept as it is; otherwise `dir` is locked (and a crashed run's files repaired) and the
    /// tree planned again under the lock.
    pub(crate) fn prepare(tree: &'t Tree, dir: &Utf8Path, prune: bool, plan: Plan) -> Result<Self> {
        let (plan, dest) = if plan.has_changes() && !plan.new_dest {
            let dest = Dest::open(dir)?;
            (dest.plan(tree, prune)?, Some(dest))
        } else {
            (plan, None)
        };
        Ok(Self {
            tree,
            dir: dir.to_owned(),
            prune,
            plan,
            dest,
        })
    }

    /// What preparing repaired (empty unless a run had crashed in the directory).
    pub(crate) fn repaired(&self) -> Option<&Leftovers> {
        self.dest.as_ref().map(Dest::repaired)
    }

    /// Carries out the plan. A new directory that another run made meanwhile is updated under
    /// its lock instead, planned again.
    pub(crate) fn write(self) -> Result<Written> {
        let Self {
            tree,
            dir,
            prune,
            plan,
            dest,
        } = self;
        let dest = match dest {
            Some(dest) => dest,
            None if !plan.has_changes() => {
                let report = WriteReport::of(&plan);
                return Ok(Written { plan, report });
            }
            None => {
                if let Some(report) = fresh::create(tree, &dir, &plan)? {
                    return Ok(Written { plan, report });
                }
                Dest::open(&dir)?
            }
        };
        let plan = if plan.new_dest {
            dest.plan(tree, prune)?
        } else {
            plan
        };
        let report = dest.apply(&plan)?;
        Ok(Written { plan, report })
    }
}

/// Writes a tree under `dest` and, with `prune`, removes the files under
/// [`PRUNABLE`](super::tree::PRUNABLE) that it does not produce (and the folders that empties, except the
/// tree's own), as one update. As `render` does: a tree that changes nothing writes nothing,
/// and a directory that does not exist yet is written whole (`fresh.rs`).
pub(crate) fn apply(tree: &Tree, dest: &Utf8Path, prune: bool) -> Result<WriteReport> {
    let planned = plan::plan(tree, dest, prune)?;
    Ok(Update::prepare(tree, dest, prune, planned)?.write()?.report)
}
