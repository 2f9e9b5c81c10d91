//! The man pages committed under man/ are what the current command line generates. After
//! changing src/commands/cli/, regenerate them (with the completions) with:
//!   CCM_RENDER_REGENERATE=1 cargo test --test it -- man:: completions::
//! and review the change with `git diff man/`; `man -l man/ccm-render.1` shows a page.

use std::path::PathBuf;

#[test]
fn committed_man_pages_are_current() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("man");
    let regenerate = std::env::var_os("CCM_RENDER_REGENERATE").is_some();
    let pages = ccm_render::commands::cli::man_pages().expect("man pages render");
    let names: Vec<&str> = pages.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        names,
        [
            "ccm-render.1",
            "ccm-render-render.1",
            "ccm-render-platforms.1",
            "ccm-render-placements.1",
            "ccm-render-provider.1",
            "ccm-render-matrix.1",
            "ccm-render-compare-hosted.1",
            "ccm-render-releases.1",
            "ccm-render-completions.1"
        ]
    );
    if regenerate {
        std::fs::create_dir_all(&dir).expect("create man/");
    }
    for (name, roff) in &pages {
        let path = dir.join(name);
        if regenerate {
            std::fs::write(&path, roff).expect("write man page");
            continue;
        }
        let committed = std::fs::read(&path).unwrap_or_default();
        assert!(
            &committed == roff,
            "{} is stale; run: CCM_RENDER_REGENERATE=1 cargo test --test it man::",
            path.display()
        );
    }
    // No page left behind for a subcommand that no longer exists.
    let mut committed: Vec<String> = std::fs::read_dir(&dir)
        .expect("man/ exists")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    committed.sort();
    let mut expected: Vec<String> = names.iter().map(ToString::to_string).collect();
    expected.sort();
    assert_eq!(
        committed, expected,
        "man/ holds a page that is not generated"
    );
}
