//! Writing bytes so that they survive a crash: temporary files staged beside their target, and
//! flushes batched so that an update costs one commit of the filesystem, not one per file.
//!
//! A file is durable once its data and its directory entry reached the disk. `fsync` on each
//! file and each directory does that one at a time: every call waits for a commit of the
//! filesystem's journal (writing 15 files of 3 kB and flushing them took 75–115 ms that way on
//! the project's ext4 machine under load, against 8–12 ms with one `syncfs`). On Linux,
//! [`Flush`] therefore calls `syncfs(2)` once per filesystem touched, which writes all of it
//! back in one commit; elsewhere (or where `syncfs` is refused) it falls back to `fsync` on
//! every file and directory it was given.

use super::failpoint;
use super::names::{SINGLE_PREFIX, TEMP_PREFIX, is_single_temporary};
use super::tree::File;
use anyhow::{Context as _, Result, anyhow, bail};
use camino::{Utf8Path, Utf8PathBuf};
use std::collections::BTreeSet;
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;

/// Random letters and digits in a temporary name: enough that two runs never pick the same.
pub(super) const RANDOM_LEN: usize = 10;

/// Paths whose data and directory entries must reach the disk before the next step.
///
/// Kept as text: the sets only remove repeats (no order is needed), and a path's own ordering
/// compares component by component, which made recording the paths a twentieth of a render
/// (callgrind, Azure).
#[derive(Debug, Default)]
pub(super) struct Flush {
    dirs: BTreeSet<String>,
    files: BTreeSet<String>,
}

impl Flush {
    /// A file written (its data) and thereby its directory (its entry).
    pub(super) fn file(&mut self, path: &Utf8Path) {
        self.files.insert(path.as_str().to_owned());
        if let Some(dir) = parent_of(path) {
            self.dir(dir);
        }
    }

    /// A directory whose entries changed (a rename, a removal, a new folder).
    pub(super) fn dir(&mut self, dir: &Utf8Path) {
        if !self.dirs.contains(dir.as_str()) {
            self.dirs.insert(dir.as_str().to_owned());
        }
    }

    /// Flushes everything recorded, then forgets it. `what` prefixes errors.
    pub(super) fn commit(&mut self, what: &str) -> Result<()> {
        failpoint::hit("flush")?;
        let result = self.sync(what);
        self.dirs.clear();
        self.files.clear();
        result
    }

    /// Flushes the filesystem of `handle` (a folder this run made and holds open) with one
    /// `syncfs`, without looking at each folder; where that is refused, `record` lists what to
    /// flush one by one, and each is. The list is only made then: recording every path up front
    /// cost a fresh render more than writing the files (callgrind, Azure: 0.07 M instructions).
    pub(super) fn commit_filesystem_of(
        handle: &impl std::os::fd::AsFd,
        record: impl FnOnce(&mut Self),
        what: &str,
    ) -> Result<()> {
        failpoint::hit("flush")?;
        match sync_filesystem(handle) {
            Ok(true) => Ok(()),
            Ok(false) => {
                let mut each = Self::default();
                record(&mut each);
                each.sync_each(what)
            }
            Err(err) => Err(err).with_context(|| format!("{what}: flushing the filesystem")),
        }
    }

    #[cfg(target_os = "linux")]
    fn sync(&self, what: &str) -> Result<()> {
        use std::os::unix::fs::MetadataExt as _;
        // One syncfs per filesystem: a folder of the tree may be a mount point of its own.
        let mut devices = BTreeSet::new();
        for dir in &self.dirs {
            // The device first (one stat), and a handle only for a filesystem not flushed yet.
            let meta = match std::fs::metadata(dir) {
                Ok(meta) => meta,
                // Removed since (an emptied folder): nothing of it left to flush.
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
                Err(err) => return Err(err).with_context(|| format!("{what}: flushing {dir}")),
            };
            if !devices.contains(&meta.dev()) {
                let handle = match std::fs::File::open(dir) {
                    Ok(handle) => handle,
                    Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
                    Err(err) => {
                        return Err(err)
                            .with_context(|| format!("{what}: opening {dir} to flush it"));
                    }
                };
                match sync_filesystem(&handle) {
                    Ok(true) => {}
                    Ok(false) => return self.sync_each(what),
                    Err(err) => {
                        return Err(err)
                            .with_context(|| format!("{what}: flushing the filesystem of {dir}"));
                    }
                }
                devices.insert(meta.dev());
            }
        }
        Ok(())
    }

    #[cfg(not(target_os = "linux"))]
    fn sync(&self, what: &str) -> Result<()> {
        self.sync_each(what)
    }

    /// `fsync` on every file and folder recorded: what [`Flush::sync`] falls back to.
    fn sync_each(&self, what: &str) -> Result<()> {
        for path in self.files.iter().chain(&self.dirs) {
            match std::fs::File::open(path) {
                Ok(handle) => handle
                    .sync_all()
                    .with_context(|| format!("{what}: flushing {path}"))?,
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
                Err(err) => {
                    return Err(err).with_context(|| format!("{what}: opening {path} to flush it"));
                }
            }
        }
        Ok(())
    }
}

/// `syncfs(2)` on the filesystem of `handle`: false where it is refused (a filesystem without
/// it, a seccomp profile that forbids it, not Linux), and every file must be flushed on its own.
fn sync_filesystem(handle: &impl std::os::fd::AsFd) -> std::io::Result<bool> {
    #[cfg(target_os = "linux")]
    match rustix::fs::syncfs(handle) {
        Ok(()) => Ok(true),
        Err(
            rustix::io::Errno::NOSYS
            | rustix::io::Errno::INVAL
            | rustix::io::Errno::OPNOTSUPP
            | rustix::io::Errno::PERM,
        ) => Ok(false),
        Err(err) => Err(err.into()),
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = handle;
        Ok(false)
    }
}

/// The folder of `path` (`.` for a bare name).
pub(super) fn parent_of(path: &Utf8Path) -> Option<&Utf8Path> {
    match path.parent() {
        Some(dir) if dir.as_str().is_empty() => Some(Utf8Path::new(".")),
        other => other,
    }
}

/// Writes `file` to a new temporary file in `dir` (named with [`TEMP_PREFIX`], mode
/// `file.mode`) and returns its path; the file is not flushed (see [`Flush`]). On error nothing
/// is left behind.
pub(super) fn stage(dir: &Utf8Path, file: &File, what: &str) -> Result<Utf8PathBuf> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(TEMP_PREFIX).rand_bytes(RANDOM_LEN);
    builder.permissions(std::fs::Permissions::from_mode(file.mode));
    let mut temp = builder
        .tempfile_in(dir)
        .with_context(|| format!("{what}: creating a temporary file in {dir}"))?;
    failpoint::hit("stage")?;
    give_mode(temp.as_file(), file.mode)
        .with_context(|| format!("{what}: setting the mode of a temporary file in {dir}"))?;
    temp.write_all(&file.bytes)
        .with_context(|| format!("{what}: writing a temporary file in {dir}"))?;
    let path = temp
        .into_temp_path()
        .keep()
        .map_err(|err| err.error)
        .with_context(|| format!("{what}: keeping a temporary file in {dir}"))?;
    Utf8PathBuf::from_path_buf(path)
        .map_err(|path| anyhow!("{what}: {} is not UTF-8", path.display()))
}

/// Gives `file`, just created with `mode`, all of `mode`: the umask may have taken bits of it
/// (077 takes from 0644, where 022 leaves 0644 and 0600 whole), and so may a folder's default
/// ACL, which replaces the umask in that folder. Each file is looked at (one fstat) and set
/// only when it came out otherwise. What a file came out with says nothing certain about the
/// next one (another folder may have another ACL), so nothing is remembered. The umask is
/// never set (that would change it for a moment for every thread, and `matrix` writes from
/// several) nor read from `/proc/self/status` (which the kernel builds whole for each read:
/// reading it cost more than the fstat of every file of a render).
pub(super) fn give_mode(file: impl rustix::fd::AsFd, mode: u32) -> rustix::io::Result<()> {
    if rustix::fs::fstat(&file)?.st_mode & 0o7777 == mode {
        return Ok(());
    }
    rustix::fs::fchmod(&file, rustix::fs::Mode::from_raw_mode(mode))
}

/// Replaces one file atomically and durably: `file` is written to a temporary file beside
/// `path`, flushed, renamed over `path`, and the folder flushed. Readers see the old file or the
/// new one, never a mix or a truncated file, and after a crash the disk holds one or the other.
/// On error `path` is as it was and no temporary file is left. A SIGKILL at the wrong instant
/// can leave one (`.ccm-render-one-…` beside `path`); the next write into that folder removes
/// it, and so does the next render when the folder is inside its `--dest-dir`. Concurrent
/// writers never remove each other's: each holds a `flock` on its temporary file until the
/// rename, and only unlocked ones are removed. `what` (a flag name) starts every error message.
///
/// For a single file outside `--dest-dir` (`--emit-infrastructure`, an Ignition config): a
/// tree inside `--dest-dir` goes through [`super::Dest`], which also locks and journals.
pub(crate) fn replace_single_file(path: &Utf8Path, file: &File, what: &str) -> Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => bail!("{what} {path}: is a directory"),
        Ok(meta) if meta.file_type().is_symlink() => {
            bail!("{what} {path}: is a symbolic link; refusing to replace it")
        }
        _ => {}
    }
    let Some(dir) = parent_of(path) else {
        bail!("{what} {path}: has no parent directory");
    };
    remove_stray_single_files(dir);
    let mut temp = locked_temporary(dir, what)?;
    failpoint::hit("stage")?;
    temp.write_all(&file.bytes)
        .with_context(|| format!("{what}: writing a temporary file for {path}"))?;
    temp.as_file()
        .set_permissions(std::fs::Permissions::from_mode(file.mode))
        .with_context(|| format!("{what}: setting the mode of {path}"))?;
    temp.as_file()
        .sync_all()
        .with_context(|| format!("{what}: flushing {path}"))?;
    if let Err(err) = failpoint::hit("rename") {
        if failpoint::is_crash(&err) {
            // As a killed process would: the file stays, its lock goes.
            let _ = temp.into_temp_path().keep();
        }
        return Err(err);
    }
    // On error the temporary file is removed as it is dropped.
    let handle = temp
        .persist(path)
        .map_err(|err| err.error)
        .with_context(|| format!("{what}: renaming into {path}"))?;
    drop(handle);
    sync_dir(dir).with_context(|| format!("{what}: flushing {dir}"))
}

/// A new temporary file for [`replace_single_file`] in `dir`, locked by this process and
/// checked to be still in place after locking: another writer's clean-up may have removed it
/// between its creation and the lock (then another is made).
fn locked_temporary(dir: &Utf8Path, what: &str) -> Result<tempfile::NamedTempFile> {
    for _ in 0..3 {
        let temp = tempfile::Builder::new()
            .prefix(SINGLE_PREFIX)
            .rand_bytes(RANDOM_LEN)
            .tempfile_in(dir)
            .with_context(|| format!("{what}: creating a temporary file in {dir}"))?;
        if temp.as_file().try_lock().is_ok() && still_at(temp.as_file(), temp.path()) {
            return Ok(temp);
        }
    }
    bail!("{what}: creating a temporary file in {dir}: removed by another process three times")
}

/// Whether `path` is still the file or folder `handle` has open. A temporary one that its
/// writer has just locked may have been removed a moment before by a clean-up that found it
/// unlocked (see [`abandoned`]); the writer then makes another.
pub(super) fn still_at(handle: &std::fs::File, path: impl AsRef<std::path::Path>) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    let ours = handle.metadata().map(|m| (m.dev(), m.ino()));
    let there = std::fs::symlink_metadata(path).map(|m| (m.dev(), m.ino()));
    matches!((ours, there), (Ok(a), Ok(b)) if a == b)
}

/// Removes the temporary files of single-file writes in `dir` whose writer is gone (their
/// `flock` can be taken). Best effort: a file that cannot be removed stays for the next try.
fn remove_stray_single_files(dir: &Utf8Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if let Some(name) = entry.file_name().to_str()
            && is_single_temporary(name)
            && entry.file_type().is_ok_and(|t| t.is_file())
        {
            let _ = remove_if_abandoned(&super::names::join(dir, name));
        }
    }
}

/// Removes `path`, a single-file write's temporary file, when no live writer holds its lock;
/// true when it was abandoned (and is now removed).
pub(super) fn remove_if_abandoned(path: &Utf8Path) -> std::io::Result<bool> {
    let Some(_held) = abandoned(path)? else {
        return Ok(false);
    };
    // Removed while this process holds the lock: a writer that made the file but has not
    // locked it yet finds it gone and makes another (see locked_temporary).
    std::fs::remove_file(path)?;
    Ok(true)
}

/// Whether no live writer holds the lock of `path`, a single-file write's temporary file
/// (found without writing anything).
pub(super) fn is_abandoned(path: &Utf8Path) -> std::io::Result<bool> {
    Ok(abandoned(path)?.is_some())
}

/// The temporary file (or staging folder, `fresh.rs`) at `path`, locked by this process, when
/// no live writer held it.
pub(super) fn abandoned(path: &Utf8Path) -> std::io::Result<Option<std::fs::File>> {
    let handle = match std::fs::File::open(path) {
        Ok(handle) => handle,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(err),
    };
    match handle.try_lock() {
        Ok(()) => Ok(Some(handle)),
        Err(std::fs::TryLockError::WouldBlock) => Ok(None),
        Err(std::fs::TryLockError::Error(err)) => Err(err),
    }
}

/// `fsync` on a directory: its entries (a rename, a new file) reach the disk.
pub(super) fn sync_dir(dir: &Utf8Path) -> std::io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replace_file_refuses_a_directory_then_leaves_only_the_file_with_its_mode() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = Utf8Path::from_path(dir.path()).expect("utf8");
        std::fs::create_dir_all(root.join("ignition.json/x")).expect("mkdir");
        let file = File {
            bytes: b"{}".to_vec(),
            mode: 0o600,
        };
        let err = replace_single_file(&root.join("ignition.json"), &file, "--ignition")
            .expect_err("a directory");
        assert!(format!("{err:#}").contains("is a directory"), "{err}");
        std::fs::remove_dir_all(root.join("ignition.json")).expect("rm");
        replace_single_file(&root.join("ignition.json"), &file, "--ignition").expect("writes");
        let names: Vec<_> = std::fs::read_dir(root)
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names, ["ignition.json"]);
        let meta = std::fs::metadata(root.join("ignition.json")).expect("written");
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    }

    #[test]
    fn replace_file_cut_short_keeps_the_old_file_and_a_failure_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = Utf8Path::from_path(dir.path()).expect("utf8");
        let path = root.join("ignition.json");
        std::fs::write(&path, "old").expect("seed");
        let file = File {
            bytes: b"new".to_vec(),
            mode: 0o600,
        };
        let names = || {
            let mut names: Vec<String> = std::fs::read_dir(root)
                .expect("list")
                .map(|e| e.expect("entry").file_name().into_string().expect("utf8"))
                .collect();
            names.sort();
            names
        };
        // "stage", then "rename": a full disk at either leaves the old file and nothing else.
        for at in 0..2 {
            failpoint::arm(Some(at), failpoint::Fault::NoSpace);
            let err = replace_single_file(&path, &file, "--ignition").expect_err("fails");
            failpoint::disarm();
            assert!(format!("{err:#}").contains("No space left"), "{err:#}");
            assert_eq!(std::fs::read(&path).expect("kept"), b"old");
            assert_eq!(names(), ["ignition.json"]);
        }
        // Killed before the rename: the old file, and a temporary file the next render removes.
        failpoint::arm(Some(1), failpoint::Fault::Crash);
        assert!(replace_single_file(&path, &file, "--ignition").is_err());
        failpoint::disarm();
        assert_eq!(std::fs::read(&path).expect("kept"), b"old");
        let left = names();
        assert_eq!(left.len(), 2);
        assert!(is_single_temporary(&left[0]), "{left:?}");
        // The next write removes it, but not the file of a writer still at work.
        let live = root.join(".ccm-render-one-LiveWriter1");
        std::fs::write(&live, "in progress").expect("seed");
        let writer = std::fs::File::open(&live).expect("open");
        writer.lock().expect("locks");
        replace_single_file(&path, &file, "--ignition").expect("writes");
        assert_eq!(std::fs::read(&path).expect("written"), b"new");
        assert_eq!(names(), [".ccm-render-one-LiveWriter1", "ignition.json"]);
        drop(writer);
        replace_single_file(&path, &file, "--ignition").expect("writes");
        assert_eq!(names(), ["ignition.json"]);
    }

    #[test]
    fn a_file_gets_its_whole_mode_whatever_the_umask_or_an_acl_took() {
        let dir = tempfile::tempdir().expect("tempdir");
        // Whole, then short of bits (umask 077), then whole again, then short again: each
        // file is judged on its own.
        for (i, (mode, created)) in [
            (0o644, 0o644),
            (0o644, 0o600),
            (0o600, 0o600),
            (0o600, 0o400),
            (0o751, 0o700),
        ]
        .into_iter()
        .enumerate()
        {
            let path = dir.path().join(format!("f{i}"));
            let file = std::fs::File::create(&path).expect("creates");
            file.set_permissions(std::fs::Permissions::from_mode(created))
                .expect("chmod");
            give_mode(&file, mode).expect("sets");
            let got = std::fs::metadata(&path).expect("stat").permissions().mode() & 0o7777;
            assert_eq!(got, mode, "{i}: {got:o}");
        }
    }

    #[test]
    fn stage_names_the_file_as_ours() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = Utf8Path::from_path(dir.path()).expect("utf8");
        let file = File {
            bytes: b"x".to_vec(),
            mode: 0o644,
        };
        let temp = stage(root, &file, "--dest-dir").expect("stages");
        let name = temp.file_name().expect("a name");
        assert!(super::super::names::is_temporary(name), "{name}");
    }
}
