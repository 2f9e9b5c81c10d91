//! The completion scripts committed under completions/ are what the current command line
//! generates. After changing src/commands/cli/, regenerate them with:
//!   CCM_RENDER_REGENERATE=1 cargo test --test it completions::
//! and review the change with `git diff completions/`.

use ccm_render::commands::cli::{COMPLETION_FILES, write_completions};
use std::path::PathBuf;

#[test]
fn committed_completions_are_current() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("completions");
    let regenerate = std::env::var_os("CCM_RENDER_REGENERATE").is_some();
    for (shell, file) in COMPLETION_FILES {
        let mut generated = Vec::new();
        write_completions(shell, &mut generated);
        let path = dir.join(file);
        if regenerate {
            std::fs::write(&path, &generated).expect("write completions");
            continue;
        }
        let committed = std::fs::read(&path).unwrap_or_default();
        assert!(
            committed == generated,
            "{} is stale; run: CCM_RENDER_REGENERATE=1 cargo test --test it completions::",
            path.display()
        );
    }
}
