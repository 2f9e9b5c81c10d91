//! Everything about how files land on disk; the only code that writes to `--dest-dir`.
//!
//! A render reaches the disk in five steps, one file each:
//!
//! * `tree.rs`, [`tree`]: lay the rendered objects out as files (names, modes, folders), in
//!   memory.
//! * `plan.rs`, [`plan`]: compare that [`Tree`] with `--dest-dir` without writing: what would
//!   be added, changed, removed (`--prune`), and what a crashed run left. `--check`/`--diff`
//!   stop here.
//! * `fresh.rs`, `fresh::create`: a `--dest-dir` that does not exist yet is built whole in a
//!   staging folder beside it and renamed into place at once.
//! * `apply.rs`, [`Dest`]: otherwise, open the directory ([`Dest::open`]: create it, lock it,
//!   repair it) and carry the plan out ([`Dest::apply`]) as one update that a crash at any
//!   instant leaves as the old tree or the new.
//! * `recover.rs`: the repair [`Dest::open`] makes: complete an update whose journal exists,
//!   remove stray temporary files.
//!
//! `update.rs` chooses between the two writes ([`Update`], and [`apply`] for the whole of it).
//! Beneath them: `journal.rs` (the commit record of an update and its idempotent steps),
//! `lock.rs` (runs on one directory take turns, on a `flock` of the directory itself),
//! `durable.rs` (staging files, batched flushes, and [`replace_single_file`] for a single file
//! outside the tree), `names.rs` (the `.ccm-render*` files ccm-render makes in `--dest-dir`
//! while it works) and, in tests, `failpoint.rs` (crashes and full disks on demand at every
//! step).
//!
//! What `render` does with them (`src/commands/render.rs`):
//!
//! ```text
//! plan(tree, DIR)            read-only, under a shared flock of DIR if it exists
//!   └─ no change? done: nothing written
//! fresh::create(tree, DIR)   DIR missing: .ccm-render-new-* beside it (flock), files, one
//!   └─ written? done         syncfs, renameat2(NOREPLACE) to DIR; DIR made meanwhile? go on
//! Dest::open(DIR)            mkdir -p DIR; flock DIR; repair a crashed run
//! dest.plan(tree)            the same comparison, now under the lock
//! dest.apply(&plan)          stage .ccm-render-tmp-* files → flush → DIR/.ccm-render.journal
//!                            (commit) → renames, removals → flush → remove the journal
//! ```
//!
//! A command that writes several trees (one per case folder) opens each folder as its own
//! [`Dest`]. A single file elsewhere (`--emit-infrastructure`, an Ignition config) goes
//! through [`replace_single_file`].
//!
//! The guarantee, for a reader of `--dest-dir`: after a run ends, however it ends, and once the
//! next run on the directory has begun, every file is the old render's or every file is the new
//! render's; no temporary file survives that next run. A directory that did not exist is
//! missing or whole. A render that changes nothing writes nothing, and a run that ends well
//! leaves nothing in the directory but the render.

mod apply;
pub(crate) mod diff;
mod durable;
mod failpoint;
mod fresh;
mod fs;
pub(crate) mod hosted_compare;
pub(crate) mod ignition;
mod journal;
mod lock;
mod names;
pub mod placement;
mod plan;
mod recover;
mod redact;
mod report;
pub(crate) mod summary;
mod tree;
mod update;

pub use apply::Dest;
pub(crate) use durable::replace_single_file;
pub use names::{JOURNAL as JOURNAL_FILE, is_temporary};
pub(crate) use plan::{Change, Entry, Plan, check_dest, plan};
pub(crate) use recover::Leftovers;
pub(crate) use report::WriteReport;
pub use tree::{File, Tree, tree};
pub(crate) use tree::{PRIVATE_MODE, PUBLIC_MODE, SECRETS};
pub(crate) use update::{Update, apply};

use anyhow::Result;
use camino::Utf8Path;

/// Writes one file outside `--dest-dir` (`--emit-infrastructure`) with
/// [`replace_single_file`], mode 0644. `flag` names the file in errors.
pub(crate) fn write_file(path: &Utf8Path, bytes: &[u8], flag: &str) -> Result<()> {
    let file = File {
        bytes: bytes.to_vec(),
        mode: PUBLIC_MODE,
    };
    replace_single_file(path, &file, flag)
}

#[cfg(test)]
mod tests;
