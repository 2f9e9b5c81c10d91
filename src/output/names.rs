//! The names of the files ccm-render keeps for itself in `--dest-dir`, besides the render, while
//! a run is under way or after one was killed: the journal and temporary files (and the lock
//! file of older releases). All begin with `.ccm-render`, so `ls` hides them
//! and no rendered file (`<kind>-<name>.yaml`, `cloud.conf`, credential keys) can be mistaken for
//! one. Recovery removes only files whose names [`is_temporary`] recognises (and of those made by
//! a single-file write, only the ones no live writer holds).

use camino::{Utf8Path, Utf8PathBuf};

/// `dir/relative`: what `dir.join(relative)` gives, as text. `Path::join` parses both paths
/// into components first, about a thousand instructions a join, and an update joins a few
/// hundred times (callgrind, Azure render: a thirtieth of it). An absolute `relative` (which
/// no render path or journal step is) still goes to `join`, which replaces `dir` with it.
pub(crate) fn join(dir: &Utf8Path, relative: impl AsRef<str>) -> Utf8PathBuf {
    let (dir, relative) = (dir.as_str(), relative.as_ref());
    if relative.starts_with('/') {
        return Utf8Path::new(dir).join(relative);
    }
    let mut out = String::with_capacity(dir.len() + 1 + relative.len());
    out.push_str(dir);
    if !dir.is_empty() && !dir.ends_with('/') {
        out.push('/');
    }
    out.push_str(relative);
    out.into()
}

/// The lock file that releases before the lock on the directory itself (`lock.rs`) made in
/// `--dest-dir` and left there: not part of a render, and removed by the next render that writes.
pub(crate) const LEGACY_LOCK: &str = ".ccm-render.lock";

/// The journal of the update in progress in `--dest-dir`, present only between an update's
/// commit and its end (see `journal.rs`).
pub const JOURNAL: &str = ".ccm-render.journal";

/// Prefix of every temporary file: a file staged beside its target, or a journal being written.
pub(crate) const TEMP_PREFIX: &str = ".ccm-render-tmp-";

/// Prefix of the temporary file of a single-file write ([`super::replace_single_file`]), which
/// its writer holds a `flock` on until it is renamed into place.
pub(crate) const SINGLE_PREFIX: &str = ".ccm-render-one-";

/// Prefix of the staging folder of a new `--dest-dir`, made beside it and renamed to it once
/// whole (see `fresh.rs`); its writer holds a `flock` on it until then.
pub(crate) const NEW_TREE_PREFIX: &str = ".ccm-render-new-";

/// Whether `name` is the staging folder of a new `--dest-dir` (see [`NEW_TREE_PREFIX`]).
pub(crate) fn is_new_tree(name: &str) -> bool {
    name.strip_prefix(NEW_TREE_PREFIX).is_some_and(random_part)
}

/// What releases before the journal named their temporary files: `.ccm-render-` and the six
/// random letters and digits of `tempfile`'s default (seen left behind by a SIGKILL).
const LEGACY_PREFIX: &str = ".ccm-render-";
const LEGACY_RANDOM_LEN: usize = 6;

/// Whether `name` (a file name, no folder) is one of ccm-render's temporary files.
pub fn is_temporary(name: &str) -> bool {
    if let Some(random) = name.strip_prefix(TEMP_PREFIX) {
        return random_part(random);
    }
    if is_single_temporary(name) {
        return true;
    }
    name.strip_prefix(LEGACY_PREFIX).is_some_and(|random| {
        random.len() == LEGACY_RANDOM_LEN && random.bytes().all(|b| b.is_ascii_alphanumeric())
    })
}

/// Whether `name` is the temporary file of a single-file write (see [`SINGLE_PREFIX`]).
pub(crate) fn is_single_temporary(name: &str) -> bool {
    name.strip_prefix(SINGLE_PREFIX).is_some_and(random_part)
}

fn random_part(random: &str) -> bool {
    !random.is_empty() && random.bytes().all(|b| b.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_gives_what_path_join_gives() {
        for (dir, relative) in [
            ("out", "manifests/a.yaml"),
            ("out/", "a"),
            ("", "a"),
            ("/", "a"),
            ("out", ""),
            ("out", "/abs"),
            ("./o", "./x/../y"),
        ] {
            assert_eq!(
                join(Utf8Path::new(dir), relative),
                Utf8Path::new(dir).join(relative)
            );
        }
    }

    #[test]
    fn only_our_temporary_names_are_recognised() {
        for ours in [
            ".ccm-render-tmp-Ab12Cd34",
            ".ccm-render-one-Ab12Cd34",
            ".ccm-render-x7Ye0q",
        ] {
            assert!(is_temporary(ours), "{ours}");
        }
        for theirs in [
            LEGACY_LOCK,
            JOURNAL,
            ".ccm-render-tmp-",
            ".ccm-render-tmp-a/b",
            ".ccm-render-journal",
            ".ccm-render-abc",
            "ccm-render-tmp-abc",
            "deployment-ccm.yaml",
            ".ccm-render-tmp-x.yaml",
        ] {
            assert!(!is_temporary(theirs), "{theirs}");
        }
    }
}
