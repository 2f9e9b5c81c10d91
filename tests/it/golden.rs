//! Golden rendered trees: testdata/golden/<platform>/ holds, byte for byte, what
//! `ccm-render render` writes for each conformance case's inputs (highly available). Unlike
//! testdata/conformance (CCCMO's own output, never regenerated), these are ccm-render's output
//! and change whenever the render does: after an intended change, run
//!   CCM_RENDER_REGENERATE=1 cargo test --test it golden::
//! and review the result with `git diff testdata/golden`. File modes are not compared: git keeps
//! only the executable bit (tests/it/cmd.rs and src/output/tests.rs test the modes).

use crate::common;

use common::{PLATFORMS, read_tree, render_conformance, root};
use std::collections::BTreeMap;
use std::path::Path;

fn regenerate(golden: &Path, tree: &BTreeMap<String, Vec<u8>>) {
    if golden.exists() {
        std::fs::remove_dir_all(golden).expect("remove the old golden tree");
    }
    for (path, bytes) in tree {
        let target = golden.join(path);
        std::fs::create_dir_all(target.parent().expect("has a parent")).expect("mkdir");
        std::fs::write(target, bytes).expect("write golden file");
    }
}

#[test]
fn every_platform_renders_its_golden_tree() {
    let regenerating = std::env::var_os("CCM_RENDER_REGENERATE").is_some();
    let mut stale = Vec::new();
    for platform in PLATFORMS {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = render_conformance(platform, "infrastructure.yaml", &[], dir.path());
        assert!(
            out.status.success(),
            "{platform}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let tree = read_tree(dir.path());
        let golden = root().join("testdata/golden").join(platform);
        if regenerating {
            regenerate(&golden, &tree);
            continue;
        }
        let expected = if golden.exists() {
            read_tree(&golden)
        } else {
            BTreeMap::new()
        };
        if expected != tree {
            let text = |t: &BTreeMap<String, Vec<u8>>| {
                let mut all = String::new();
                for (path, bytes) in t {
                    all.push_str("=== ");
                    all.push_str(path);
                    all.push('\n');
                    all.push_str(&String::from_utf8_lossy(bytes));
                }
                all
            };
            let (old, new) = (text(&expected), text(&tree));
            let diff = similar::TextDiff::from_lines(&old, &new)
                .unified_diff()
                .header("golden", "rendered")
                .to_string();
            stale.push(format!("testdata/golden/{platform}:\n{diff}"));
        }
    }
    assert!(
        stale.is_empty(),
        "{}\nIf the change is intended, run: CCM_RENDER_REGENERATE=1 cargo test --test it golden:: \
         and review it with git diff testdata/golden",
        stale.join("\n")
    );
}
