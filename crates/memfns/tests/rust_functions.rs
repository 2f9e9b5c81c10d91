//! The crate's Rust `memcpy`, `memmove`, `memcmp` and `bcmp`, as this build compiles them
//! (with overflow checks in a test build), held to the standard library (tests/properties):
//! lengths to past the 16-byte loop's end (1 KiB) and into `rep movsb`, every alignment pair,
//! every direction of overlap.
//!
//! Miri runs these too (scripts/test: `cargo +nightly miri test -p ccm-memfns`), over the
//! lengths that do not reach `rep movsb`, the one part in assembly, which Miri cannot run:
//! every length to 66 (the short copies, up to 64) and a few up to 1 KiB (the 16-byte
//! loop's first blocks and its end), to keep scripts/test's Miri run near half a minute. The shipped binary's own code is tests/shipped.rs's.
#![cfg(target_arch = "x86_64")]

mod properties;

use properties::Functions;

const RUST: Functions = Functions {
    memcpy: ccm_memfns::memcpy,
    memmove: ccm_memfns::memmove,
    memcmp: ccm_memfns::memcmp,
    bcmp: ccm_memfns::bcmp,
};

/// The alignment pairs: every one, but under Miri a few (what Miri checks, reads and writes
/// within bounds, does not depend on alignment: every access is unaligned).
fn pairs() -> Vec<(usize, usize)> {
    if cfg!(miri) {
        vec![(0, 0), (1, 0), (0, 7), (9, 2), (15, 15)]
    } else {
        properties::every_alignment_pair()
    }
}

/// The lengths to check: every one to 200 (past the short copies, the word compares' tails
/// and the loop's first blocks), then every thirteenth and the edges of `rep movsb` at 1 KiB.
/// Under Miri only those short of `rep movsb`, and fewer.
fn lengths() -> Vec<usize> {
    if cfg!(miri) {
        (0..=66).chain([80, 127, 128, 129, 1023, 1024]).collect()
    } else {
        (0..=200)
            .chain((201..1100).step_by(13))
            .chain([1023, 1024, 1025, 1100])
            .collect()
    }
}

#[test]
fn memcpy_copies_exactly() {
    properties::memcpy_copies_exactly(&RUST, &lengths(), &pairs());
}

#[test]
fn memmove_moves_as_copy_within() {
    properties::memmove_moves_as_copy_within(&RUST, &lengths(), &pairs());
}

#[test]
fn memcmp_and_bcmp_order_as_slices() {
    properties::memcmp_and_bcmp_order_as_slices(&RUST, &lengths(), &pairs());
}
