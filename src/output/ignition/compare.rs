//! `--check`/`--diff` for `--ignition FILE`: how the config rendered now differs from the one in
//! FILE, file by file at their node paths. Pure: both configs come in as bytes.

use super::read::Contents;
use crate::output::{Change, Entry, File, PRIVATE_MODE, Plan};
use camino::{Utf8Path, Utf8PathBuf};

/// How FILE differs from the rendered config.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Comparison {
    /// File by file, by node path without the leading `/` (so that a diff's `a/` and `b/`
    /// prefixes read as paths): every file of the new config, and those of the old it drops.
    pub(crate) plan: Plan,
    /// The `--check` line for FILE itself when it is missing, or differs in what no file entry
    /// shows (the version, a directory, its own mode); None when FILE is as rendered.
    pub(crate) whole: Option<String>,
}

impl Comparison {
    /// Whether writing would change FILE.
    pub(crate) fn has_changes(&self) -> bool {
        self.whole.is_some() || self.plan.has_changes()
    }
}

/// Compares `existing` (FILE as it is: None when there is none; `old` is what it lays down, None
/// when it is not a config this tool can read) with the new config (`bytes`, laying down `new`).
pub(crate) fn compare(
    path: &Utf8Path,
    existing: Option<&File>,
    old: Option<&Contents>,
    bytes: &[u8],
    new: &Contents,
) -> Comparison {
    Comparison {
        plan: by_file(old, new),
        whole: whole_change(path, existing, old, bytes, new),
    }
}

fn relative(path: &Utf8Path) -> Utf8PathBuf {
    Utf8PathBuf::from(path.as_str().trim_start_matches('/'))
}

fn by_file(old: Option<&Contents>, new: &Contents) -> Plan {
    let empty = Contents::default();
    let old = old.unwrap_or(&empty);
    let mut entries: Vec<Entry> = new
        .files
        .iter()
        .map(|(path, file)| {
            let before = old.files.get(path).cloned();
            let change = match &before {
                None => Change::Added,
                Some(b) if b == file => Change::Unchanged,
                Some(_) => Change::Changed,
            };
            Entry {
                path: relative(path),
                change,
                old: before,
                new: Some(file.clone()),
            }
        })
        .collect();
    entries.extend(
        old.files
            .iter()
            .filter(|(path, _)| !new.files.contains_key(*path))
            .map(|(path, file)| Entry {
                path: relative(path),
                change: Change::Removed,
                old: Some(file.clone()),
                new: None,
            }),
    );
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    Plan {
        entries,
        ..Plan::default()
    }
}

fn whole_change(
    path: &Utf8Path,
    existing: Option<&File>,
    old: Option<&Contents>,
    bytes: &[u8],
    new: &Contents,
) -> Option<String> {
    let Some(existing) = existing else {
        return Some(format!("added    {path}"));
    };
    if existing.bytes == bytes && existing.mode == PRIVATE_MODE {
        return None;
    }
    let mut what = Vec::new();
    match old {
        Some(old) => {
            if old.version != new.version {
                what.push(format!(
                    "Ignition version {} -> {}",
                    old.version, new.version
                ));
            }
            if old.directories != new.directories {
                what.push("directories".to_string());
            }
        }
        None => what.push("not an Ignition config".to_string()),
    }
    if existing.mode != PRIVATE_MODE {
        what.push(format!("mode {:04o} -> {PRIVATE_MODE:04o}", existing.mode));
    }
    if what.is_empty() {
        // Same files, version and directories: the layout of the JSON differs.
        what.push("layout".to_string());
    }
    Some(format!("changed  {path} ({})", what.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contents(version: &str, files: &[(&str, &str, u32)]) -> Contents {
        Contents {
            version: version.into(),
            files: files
                .iter()
                .map(|(p, text, mode)| {
                    (
                        Utf8PathBuf::from(*p),
                        File {
                            bytes: text.as_bytes().to_vec(),
                            mode: *mode,
                        },
                    )
                })
                .collect(),
            directories: std::collections::BTreeMap::new(),
        }
    }

    /// Compares an existing `f.ign` (`bytes` with `mode`, laying down `old`) with the rendered
    /// config `new`, whose bytes are `new`.
    fn compare_existing(bytes: &[u8], mode: u32, old: &Contents, new: &Contents) -> Comparison {
        let file = File {
            bytes: bytes.to_vec(),
            mode,
        };
        compare(Utf8Path::new("f.ign"), Some(&file), Some(old), b"new", new)
    }

    #[test]
    fn files_are_compared_by_node_path_and_dropped_ones_are_removed() {
        let old = contents(
            "3.2.0",
            &[
                ("/a/x", "1", 0o644),
                ("/a/gone", "g", 0o644),
                ("/a/same", "s", 0o600),
            ],
        );
        let new = contents(
            "3.2.0",
            &[
                ("/a/x", "2", 0o644),
                ("/a/new", "n", 0o644),
                ("/a/same", "s", 0o600),
            ],
        );
        let c = compare_existing(b"old", 0o600, &old, &new);
        let changes: Vec<(&str, Change)> = c
            .plan
            .entries
            .iter()
            .map(|e| (e.path.as_str(), e.change))
            .collect();
        assert_eq!(
            changes,
            [
                ("a/gone", Change::Removed),
                ("a/new", Change::Added),
                ("a/same", Change::Unchanged),
                ("a/x", Change::Changed)
            ]
        );
        assert!(c.has_changes());
    }

    #[test]
    fn a_version_or_mode_change_alone_is_a_change_of_the_file_itself() {
        let old = contents("3.1.0", &[("/a/x", "1", 0o644)]);
        let new = contents("3.2.0", &[("/a/x", "1", 0o644)]);
        let c = compare_existing(b"old", 0o644, &old, &new);
        assert!(!c.plan.has_changes());
        assert_eq!(
            c.whole.as_deref(),
            Some("changed  f.ign (Ignition version 3.1.0 -> 3.2.0, mode 0644 -> 0600)")
        );
        assert!(!compare_existing(b"new", 0o600, &new, &new).has_changes());
        assert_eq!(
            compare(Utf8Path::new("f.ign"), None, None, b"new", &new)
                .whole
                .as_deref(),
            Some("added    f.ign")
        );
    }
}
