//! Editing a release file (`assets/releases/<X.Y>.yaml`) where `provider import` changes it,
//! and nowhere else: one mapping entry (`spec.providers.aws`, `spec.cccmo.goFiles`, …) is
//! replaced by its new value written as YAML, inserted, or removed, and every other line —
//! the comments and the hand-written parts a person wrote for reviewers — stays byte for
//! byte. The files are ccm-render's own source, written two spaces per level (as
//! `assets/releases/README.md` shows them); the result is parsed and resolved again before
//! anything is written (`super::stage`).

use anyhow::{Result, anyhow};
use serde_json::Value;
use std::ops::Range;

/// The indentation of a line (spaces), or None for a blank line.
fn indent(line: &str) -> Option<usize> {
    let trimmed = line.trim_start_matches(' ');
    (!trimmed.trim().is_empty()).then_some(line.len() - trimmed.len())
}

/// The lines of the entry `key` at `depth` within `within`: its key line to its last line.
fn entry(lines: &[&str], within: Range<usize>, depth: usize, key: &str) -> Option<Range<usize>> {
    let pad = " ".repeat(depth * 2);
    let start = within.clone().find(|&i| {
        lines[i]
            .trim_end_matches(['\n', '\r'])
            .strip_prefix(&pad)
            .and_then(|rest| rest.strip_prefix(key))
            .is_some_and(|rest| rest == ":" || rest.starts_with(": "))
    })?;
    let end = (start + 1..within.end)
        .find(|&i| {
            indent(lines[i]).is_some_and(|n| {
                n < depth * 2 || (n == depth * 2 && !lines[i][n..].starts_with("- "))
            })
        })
        .unwrap_or(within.end);
    // Blank lines at the end belong to what follows.
    let end = (start + 1..end)
        .rev()
        .find(|&i| indent(lines[i]).is_some())
        .map_or(start + 1, |i| i + 1);
    Some(start..end)
}

/// The lines of the entry at `path` (keys from the top of the file).
fn find(lines: &[&str], path: &[&str]) -> Option<Range<usize>> {
    let mut within = 0..lines.len();
    let mut found = None;
    for (depth, key) in path.iter().enumerate() {
        let range = entry(lines, within, depth, key)?;
        within = range.start + 1..range.end;
        found = Some(range);
    }
    found
}

/// `key: value` as YAML lines at `depth`.
fn block(key: &str, value: &Value, depth: usize) -> Result<String> {
    let mut map = serde_json::Map::new();
    map.insert(key.to_string(), value.clone());
    let text = ccm_catalogue::yaml::to_string(&Value::Object(map))?;
    let pad = " ".repeat(depth * 2);
    Ok(text
        .lines()
        .map(|l| {
            if l.is_empty() {
                "\n".to_string()
            } else {
                format!("{pad}{l}\n")
            }
        })
        .collect())
}

/// `text` with the entry at `path` set to `value` (replaced where it is, else added at the end
/// of its parent, which is made if missing), or removed (`None`).
pub(crate) fn set(text: &str, path: &[&str], value: Option<&Value>) -> Result<String> {
    let (last, parent) = path
        .split_last()
        .ok_or_else(|| anyhow!("an empty path in a release file edit (a ccm-render bug)"))?;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let depth = path.len() - 1;
    let new = value.map(|v| block(last, v, depth)).transpose()?;
    let splice = |range: Range<usize>, with: &str| -> String {
        let mut out: String = lines[..range.start].concat();
        out.push_str(with);
        out.push_str(&lines[range.end..].concat());
        out
    };
    if let Some(range) = find(&lines, path) {
        return Ok(splice(range, new.as_deref().unwrap_or_default()));
    }
    let Some(new) = new else {
        return Ok(text.to_string());
    };
    Ok(add(text, parent, &new))
}

/// `text` with `new` (lines) at the end of the mapping at `parent`, which is made (at the end
/// of its own parent) if missing.
fn add(text: &str, parent: &[&str], new: &str) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let at = if parent.is_empty() {
        None
    } else {
        find(&lines, parent)
    };
    match (at, parent.split_last()) {
        (Some(range), _) => {
            let mut out: String = lines[..range.end].concat();
            out.push_str(new);
            out.push_str(&lines[range.end..].concat());
            out
        }
        (None, Some((key, grandparent))) => {
            let pad = " ".repeat(grandparent.len() * 2);
            add(text, grandparent, &format!("{pad}{key}:\n{new}"))
        }
        (None, None) => {
            let mut out = text.to_string();
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(new);
            out
        }
    }
}

/// The text of the entry at `path`, its key line included, if there is one.
pub(crate) fn text_of(text: &str, path: &[&str]) -> Option<String> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    find(&lines, path).map(|range| lines[range].concat())
}

/// Whether the mapping at `path` holds no entry (only comments, or nothing).
pub(crate) fn is_empty(text: &str, path: &[&str]) -> bool {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    find(&lines, path).is_some_and(|range| {
        lines[range.start + 1..range.end]
            .iter()
            .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const FILE: &str = "# A release.\napiVersion: v\nspec:\n  cccmo:\n    commit: abc\n    # The digests.\n    goFiles:\n      a.go: x\n  upgrade:\n  - \"one\"\n  providers:\n    # aws: by hand.\n    aws:\n      remove: [A/b]\n    gcp:\n      remove: [C/d]\n";

    #[test]
    fn an_entry_is_replaced_and_every_other_line_kept() {
        let out = set(
            FILE,
            &["spec", "providers", "aws"],
            Some(&json!({"remove": ["X/y"]})),
        )
        .expect("set");
        assert_eq!(
            out,
            FILE.replace("      remove: [A/b]\n", "      remove:\n      - X/y\n")
        );
        let out = set(
            FILE,
            &["spec", "cccmo", "goFiles"],
            Some(&json!({"b.go": "z"})),
        )
        .expect("set");
        assert!(
            out.contains("    # The digests.\n    goFiles:\n      b.go: z\n  upgrade:"),
            "{out}"
        );
    }

    #[test]
    fn a_missing_entry_is_added_at_the_end_of_its_parent_and_a_removed_one_goes() {
        let out = set(
            FILE,
            &["spec", "cccmo", "goFilesToReview"],
            Some(&json!(["a.go (changed)"])),
        )
        .expect("set");
        assert!(
            out.contains("      a.go: x\n    goFilesToReview:\n    - a.go (changed)\n  upgrade:"),
            "{out}"
        );
        let out = set(FILE, &["spec", "providers", "gcp"], None).expect("remove");
        assert!(out.ends_with("      remove: [A/b]\n"), "{out}");
        let out = set(&out, &["spec", "providers", "aws"], None).expect("remove");
        assert!(is_empty(&out, &["spec", "providers"]), "{out}");
        let out = set(&out, &["spec", "providers"], None).expect("remove");
        assert!(out.ends_with("  - \"one\"\n"), "{out}");
        let out = set(
            &out,
            &["spec", "providers", "azure"],
            Some(&json!({"remove": ["E/f"]})),
        )
        .expect("a new parent");
        assert!(
            out.ends_with("  - \"one\"\n  providers:\n    azure:\n      remove:\n      - E/f\n"),
            "{out}"
        );
        assert_eq!(
            text_of(FILE, &["spec", "upgrade"]).as_deref(),
            Some("  upgrade:\n  - \"one\"\n")
        );
    }
}
