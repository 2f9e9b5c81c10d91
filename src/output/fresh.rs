//! A `--dest-dir` that does not exist yet (bootkube's first render, a render after `rm -rf`)
//! is written whole: the tree is built in a staging folder beside it and renamed into place in
//! one step, so the directory appears complete or not at all.
//!
//! Nobody can read or write a directory before it exists, so this needs no journal and no
//! rename per file: a fresh Azure render makes 143 system calls instead of the locked update's
//! 221 (the lock, the journal, sixteen renames), about 6% of its time (interleaved A/B runs).
//! The writer's `flock` of the staging folder is the directory's lock (`lock.rs`) once renamed,
//! so a `--check` that finds the new directory waits until its writer is done. The rename is `renameat2(RENAME_NOREPLACE)`: when another run made the directory meanwhile it
//! fails, the staging folder is removed, and the render updates that directory as any other
//! run would (under its lock, `apply.rs`). So does a filesystem without `RENAME_NOREPLACE`.
//!
//! The staging folder, [`names::NEW_TREE_PREFIX`]`<random>`, holds a `flock` of its writer from
//! its creation to its rename. A run killed while building one leaves it beside `--dest-dir`;
//! the next run that writes there (into a new directory, or any `--dest-dir` of the same
//! parent) removes those whose lock is free, so that no staging folder outlives the next run.
//!
//! A staging folder exists for an instant before its writer locks it, and a run writing beside
//! it (another `matrix` case, another render into the same parent) may remove it then, as it
//! would a killed run's. Its writer sees that (the folder gone, or locked by the remover) and
//! makes another, up to [`STAGING_TRIES`] times, rather than taking the slower locked update:
//! either way the directory ends up the same, and holds nothing but the render.

use super::durable::{self, Flush};
use super::failpoint;
use super::fs::create_root;
use super::names;
use super::plan::Plan;
use super::report::WriteReport;
use super::tree::{SECRETS, SECRETS_DIR_MODE, Tree};
use anyhow::{Context as _, Result, anyhow};
use camino::{Utf8Component, Utf8Path, Utf8PathBuf};
use rustix::fs::{Mode, OFlags, RenameFlags};
use rustix::io::Errno;
use std::collections::BTreeSet;
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;

/// Writes `tree` as the new directory `dest`, which `plan` found missing ([`Plan::new_dest`]).
/// `Ok(None)` when it cannot be written whole (the directory appeared meanwhile, the filesystem
/// cannot rename without replacing, the staging folder could not be made): the caller then
/// takes the locked update ([`super::Dest`]), which also gives the usual errors.
pub(crate) fn create(tree: &Tree, dest: &Utf8Path, plan: &Plan) -> Result<Option<WriteReport>> {
    let Some((parent, target)) = split(dest) else {
        return Ok(None);
    };
    if !plan.new_dest || create_root(&parent).is_err() {
        return Ok(None);
    }
    remove_abandoned(&parent);
    let Some(mut staging) = Staging::new(&parent)? else {
        return Ok(None);
    };
    let result = staging.fill(tree);
    match result.and_then(|()| staging.rename_to(&target)) {
        Ok(true) => {
            durable::sync_dir(&parent).with_context(|| format!("--dest-dir: flushing {parent}"))?;
            Ok(Some(WriteReport::of(plan)))
        }
        // Made meanwhile, or a filesystem without RENAME_NOREPLACE: dropping the staging
        // folder removes it.
        Ok(false) => Ok(None),
        Err(err) => {
            if failpoint::is_crash(&err) {
                // As a killed process would: the folder stays, its lock goes.
                staging.abandon();
            }
            Err(err)
        }
    }
}

/// `dest` as its parent folder and its own path without trailing slashes; None when its last
/// component is not a plain name (`.`, `..`, `/`), which the locked update handles.
fn split(dest: &Utf8Path) -> Option<(Utf8PathBuf, Utf8PathBuf)> {
    let target = Utf8Path::new(dest.as_str().trim_end_matches('/'));
    let Some(Utf8Component::Normal(name)) = target.components().next_back() else {
        return None;
    };
    if !target.as_str().ends_with(name) {
        return None;
    }
    let parent = durable::parent_of(target)?.to_owned();
    Some((parent, target.to_owned()))
}

/// How many staging folders a run makes when runs writing beside it remove them before it can
/// lock them.
const STAGING_TRIES: usize = 8;

/// A staging folder, locked by this run; removed when dropped unless renamed into place.
struct Staging {
    /// Removes the folder when dropped (before `handle` closes, so under the lock); None once
    /// renamed into place.
    dir: Option<tempfile::TempDir>,
    path: Utf8PathBuf,
    /// The folder itself, open: its `flock`, and the base of every path written into it.
    handle: std::fs::File,
}

/// What one try at making a staging folder gave.
enum Made {
    Locked(Staging),
    /// Made, then removed by another run's clean-up before this run locked it.
    Lost,
    /// Not made: the parent cannot hold it.
    Failed,
}

impl Staging {
    /// A new staging folder in `parent`, locked; None when it cannot be made, or when a clean-up
    /// of another run removed every one this run made before this run could lock it.
    fn new(parent: &Utf8Path) -> Result<Option<Self>> {
        for _ in 0..STAGING_TRIES {
            match Self::try_new(parent)? {
                Made::Locked(staging) => return Ok(Some(staging)),
                Made::Lost => {}
                Made::Failed => return Ok(None),
            }
        }
        Ok(None)
    }

    /// One try at [`Staging::new`].
    fn try_new(parent: &Utf8Path) -> Result<Made> {
        let mut builder = tempfile::Builder::new();
        // 0777 less the umask, as `mkdir` gives the directory the locked update creates.
        builder
            .prefix(names::NEW_TREE_PREFIX)
            .rand_bytes(durable::RANDOM_LEN)
            .permissions(std::fs::Permissions::from_mode(0o777));
        let Ok(dir) = builder.tempdir_in(parent) else {
            return Ok(Made::Failed);
        };
        let path = Utf8PathBuf::from_path_buf(dir.path().to_path_buf())
            .map_err(|path| anyhow!("--dest-dir: {} is not UTF-8", path.display()))?;
        // Locked, and still the folder this run made (see durable::still_at); otherwise a
        // clean-up removed it (dropping `dir` removes what is left of it).
        let Ok(handle) = std::fs::File::open(&path) else {
            return Ok(Made::Lost);
        };
        if handle.try_lock().is_err() || !durable::still_at(&handle, &path) {
            return Ok(Made::Lost);
        }
        Ok(Made::Locked(Self {
            dir: Some(dir),
            path,
            handle,
        }))
    }

    /// Writes every folder and file of `tree` into the staging folder, then flushes them all.
    fn fill(&self, tree: &Tree) -> Result<()> {
        let mut folders: BTreeSet<&str> = tree.folders.iter().copied().collect();
        for path in tree.files.keys() {
            let mut parent = path.parent();
            while let Some(dir) = parent.filter(|d| !d.as_str().is_empty()) {
                folders.insert(dir.as_str());
                parent = dir.parent();
            }
        }
        // Text order lists a folder before the folders in it.
        for folder in folders {
            let mode = if folder == SECRETS {
                SECRETS_DIR_MODE
            } else {
                0o777
            };
            rustix::fs::mkdirat(&self.handle, folder, Mode::from_raw_mode(mode))
                .map_err(|err| self.error("creating", folder, err))?;
        }
        for (path, file) in &tree.files {
            failpoint::hit("stage")?;
            let flags =
                OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            let fd = rustix::fs::openat(
                &self.handle,
                path.as_str(),
                flags,
                Mode::from_raw_mode(file.mode),
            )
            .map_err(|err| self.error("creating", path.as_str(), err))?;
            // Created with its mode unless the umask took bits of it (umask 077, a 0644 file).
            durable::give_mode(&fd, file.mode)
                .map_err(|err| self.error("setting the mode of", path.as_str(), err))?;
            std::fs::File::from(fd)
                .write_all(&file.bytes)
                .with_context(|| format!("--dest-dir: writing {}/{path}", self.path))?;
        }
        // Every file and folder written is on the staging folder's filesystem.
        Flush::commit_filesystem_of(
            &self.handle,
            |each| {
                each.dir(&self.path);
                for path in tree.files.keys() {
                    each.file(&names::join(&self.path, path));
                }
            },
            "--dest-dir",
        )
    }

    /// Renames the staging folder to `target` unless something is there already; false when
    /// it is (or the filesystem cannot tell).
    fn rename_to(&mut self, target: &Utf8Path) -> Result<bool> {
        failpoint::hit("rename")?;
        match rustix::fs::renameat_with(
            rustix::fs::CWD,
            self.path.as_str(),
            rustix::fs::CWD,
            target.as_str(),
            RenameFlags::NOREPLACE,
        ) {
            Ok(()) => {
                // Nothing is left at the staging path for the drop to remove.
                if let Some(dir) = self.dir.take() {
                    let _ = dir.keep();
                }
                Ok(true)
            }
            Err(
                Errno::EXIST | Errno::NOTEMPTY | Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP,
            ) => Ok(false),
            Err(err) => {
                Err(err).with_context(|| format!("--dest-dir: renaming {} to {target}", self.path))
            }
        }
    }

    /// Leaves the folder where it is, as a killed run would (tests of crashes).
    fn abandon(mut self) {
        if let Some(dir) = self.dir.take() {
            let _ = dir.keep();
        }
    }

    fn error(&self, doing: &str, relative: &str, err: Errno) -> anyhow::Error {
        anyhow::Error::new(std::io::Error::from(err))
            .context(format!("--dest-dir: {doing} {}/{relative}", self.path))
    }
}

/// Removes the staging folders in `parent` that no live run holds (their lock is free): what
/// runs killed while writing a new directory there left. Best effort: one that cannot be
/// removed stays for the next try.
pub(super) fn remove_abandoned(parent: &Utf8Path) {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    // rustix's reader rather than std::fs::read_dir: on musl, opendir(3) allocates through
    // libc's own allocator, which then sets up a heap of its own (five system calls).
    let Ok(mut entries) =
        rustix::fs::open(parent.as_str(), flags, Mode::empty()).and_then(rustix::fs::Dir::new)
    else {
        return;
    };
    while let Some(Ok(entry)) = entries.read() {
        let Ok(name) = entry.file_name().to_str() else {
            continue;
        };
        // A filesystem that does not report types gives Unknown: remove_dir_all then removes a
        // link or a file of that name as itself, never what a link points to.
        let kind = entry.file_type();
        if !names::is_new_tree(name)
            || !matches!(
                kind,
                rustix::fs::FileType::Directory | rustix::fs::FileType::Unknown
            )
        {
            continue;
        }
        let path = names::join(parent, name);
        if let Ok(Some(_held)) = durable::abandoned(&path) {
            // Removed while this run holds its lock: a writer that made it but has not locked
            // it yet finds it gone and takes the locked update instead.
            let _ = std::fs::remove_dir_all(&path);
        }
    }
}

/// The names of the staging folders in `parent` (tests).
#[cfg(test)]
pub(super) fn staging_folders(parent: &Utf8Path) -> Vec<String> {
    let mut found: Vec<String> = std::fs::read_dir(parent)
        .expect("listing")
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| names::is_new_tree(name))
        .collect();
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_gives_the_parent_and_the_path_without_trailing_slashes() {
        let split = |dest: &str| {
            split(Utf8Path::new(dest))
                .map(|(parent, target)| (parent.to_string(), target.to_string()))
        };
        let some = |parent: &str, target: &str| Some((parent.to_string(), target.to_string()));
        assert_eq!(split("out"), some(".", "out"));
        assert_eq!(split("out/"), some(".", "out"));
        assert_eq!(split("/tmp/a/out//"), some("/tmp/a", "/tmp/a/out"));
        assert_eq!(split("/out"), some("/", "/out"));
        assert_eq!(split("a/./out"), some("a", "a/./out"));
        // Not a plain name at the end: the locked update's business.
        for odd in ["/", ".", "..", "a/..", "a/.", ""] {
            assert_eq!(split(odd), None, "{odd}");
        }
    }
}
