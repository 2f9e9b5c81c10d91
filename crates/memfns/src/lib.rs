//! The musl builds' memory functions: their global allocator ([`Allocator`], dlmalloc behind
//! the standard library's mutex; `alloc.rs` says why), and on x86_64 `memcpy`, `memmove`, `memcmp` and `bcmp` in
//! place of musl's.
//!
//! musl's x86_64 `memcpy` (musl src/string/x86_64/memcpy.s, which its `memmove` calls too)
//! copies with `rep movsq` and then a `movsb` loop for the last bytes, whatever the length, and
//! its `memcmp` (src/string/memcmp.c) compares a byte at a time. A render copies and compares
//! thousands of short strings and map entries, where `rep movsq`'s start-up of some thirty
//! cycles is most of the cost (docs/performance.md, #levers, holds what it cost). These are
//! the usual short-copy forms instead (two overlapping loads and stores
//! for up to 64 bytes, a 16-byte loop up to 1 KiB, then `rep movsb`; a move to a higher,
//! overlapping address 16 bytes at a time from the end; word-sized compares).
//!
//! The functions are exported under their C names only in a musl build, where they take the
//! place of musl's: the linker takes a member of an archive (musl's `libc.a`) only for a symbol
//! still undefined, and the release build's link-time optimisation makes one object of the
//! Rust code, ours included, which the linker reads before `libc.a`. musl's `memcpy.o` is
//! otherwise pulled in only by its `memmove.o`, which we replace too; scripts/build-release
//! refuses an x86_64 binary holding musl's `memcpy`. glibc picks its own functions for the
//! processor at start-up already; aarch64's musl has ARM's optimised `memcpy` (its `memcmp`
//! is a byte loop too, but that build is not the one the time budgets measure).
//!
//! This is the one crate of the workspace with `unsafe` code; docs/security.md says why. The
//! allocator is not in C's name space: `src/main.rs` makes it the global allocator of the musl
//! builds only.
#![no_std]
// LLVM must not turn the loops below back into calls to the functions they define.
#![no_builtins]
// The helpers are parts of the exported functions: a call is a large part of a short copy.
#![allow(clippy::inline_always)]

mod alloc;
pub use alloc::Allocator;
#[cfg(test)]
mod alloc_tests;

#[cfg(target_arch = "x86_64")]
mod x86_64;
#[cfg(target_arch = "x86_64")]
pub use x86_64::{bcmp, memcmp, memcpy, memmove};

// Their tests are the crate's integration tests: tests/rust_functions.rs (also under Miri) and
// tests/shipped.rs (the shipped binary's code), both over tests/properties.
