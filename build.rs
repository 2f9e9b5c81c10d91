//! Rebuilds the crate when anything under assets/ changes. `include_dir!` embeds the folder but
//! cannot tell cargo about files added to it (that needs a nightly-only proc-macro API), so a
//! new provider folder would otherwise be missing from the binary until src/providers.rs changed.

fn main() {
    // Cargo scans a directory given here recursively for changes, additions included.
    println!("cargo:rerun-if-changed=assets");
}
