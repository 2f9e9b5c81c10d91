//! The shipped x86_64 binary's own `memcpy`, `memmove`, `memcmp` and `bcmp` held to the
//! standard library (tests/properties), over every length to past 4 KiB, every alignment pair
//! and every direction of overlap: the very machine code that ships, as link-time and
//! profile-guided optimisation made it, not this crate built again for the tests.
//!
//! scripts/build-release names the four in the static binary's dynamic symbol table. This test
//! maps the binary's loadable segments at their offsets from one base, as a loader would (the
//! functions read and write only through their arguments and call nothing but each other, so
//! they need no relocation), makes them executable, and calls each symbol's address. The
//! host runs x86_64 code natively, so no qemu is needed; on another host the test does not
//! exist (the functions are x86_64's only). A plain `cargo test` shows it as ignored; scripts/
//! test (so CI) builds the release binary and runs it.
#![cfg(target_arch = "x86_64")]

mod properties;

use properties::{Compare, Copy, Functions};
use rustix::mm::{MapFlags, MprotectFlags, ProtFlags, mmap_anonymous, mprotect};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The shipped x86_64 binary (scripts/build-release, reused while the sources do not change).
fn release_binary() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(root.join("scripts/build-release"))
        .args(["--arch", "x86_64", "--quiet"])
        .current_dir(&root)
        .stderr(Stdio::inherit())
        .output()
        .expect("scripts/build-release runs");
    assert!(out.status.success(), "scripts/build-release --arch x86_64");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    PathBuf::from(stdout.lines().last().expect("the binary's path"))
}

/// A little-endian integer of `N` bytes at `at`.
fn le<const N: usize>(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word[..N].copy_from_slice(&bytes[at..at + N]);
    u64::from_le_bytes(word)
}

fn index(value: u64) -> usize {
    usize::try_from(value).expect("an offset within the file")
}

/// An ELF file's section headers of `kind` (`sh_type`): (offset, size, link) of each.
fn sections(elf: &[u8], kind: u64) -> Vec<(usize, usize, usize)> {
    let (at, size, count) = (
        index(le::<8>(elf, 0x28)),
        le::<2>(elf, 0x3a),
        le::<2>(elf, 0x3c),
    );
    (0..count)
        .map(|i| at + index(i * size))
        .filter(|&sh| le::<4>(elf, sh + 4) == kind)
        .map(|sh| {
            let link = index(le::<4>(elf, sh + 40));
            (
                index(le::<8>(elf, sh + 24)),
                index(le::<8>(elf, sh + 32)),
                link,
            )
        })
        .collect()
}

/// The address (`st_value`) of each of `names` in the dynamic symbol table.
fn dynamic_symbols(elf: &[u8], names: &[&str]) -> Vec<u64> {
    const SHT_DYNSYM: u64 = 11;
    let [(symtab, size, strtab_index)] = sections(elf, SHT_DYNSYM)[..] else {
        panic!("the binary has no dynamic symbol table (scripts/build-release gives it one)")
    };
    let shdr = index(le::<8>(elf, 0x28)) + strtab_index * index(le::<2>(elf, 0x3a));
    let strtab = index(le::<8>(elf, shdr + 24));
    let name_at = |sym: usize| {
        let start = strtab + index(le::<4>(elf, sym));
        let end = start
            + elf[start..]
                .iter()
                .position(|&b| b == 0)
                .expect("a C string");
        std::str::from_utf8(&elf[start..end]).expect("UTF-8")
    };
    names
        .iter()
        .map(|name| {
            (symtab..symtab + size)
                .step_by(24)
                .map(|sym| (name_at(sym), le::<8>(elf, sym + 8)))
                .find_map(|(found, address)| (found == *name && address != 0).then_some(address))
                .unwrap_or_else(|| panic!("{name} is not in the dynamic symbol table"))
        })
        .collect()
}

/// The binary's loadable segments, mapped readable and executable at their addresses from one
/// base; the mapping lives as long as the test process.
fn map_segments(elf: &[u8]) -> *const u8 {
    const PT_LOAD: u64 = 1;
    let (at, size, count) = (
        index(le::<8>(elf, 0x20)),
        le::<2>(elf, 0x36),
        le::<2>(elf, 0x38),
    );
    // (file offset, address, bytes in the file, bytes in memory) of each.
    let segments: Vec<(usize, usize, usize, usize)> = (0..count)
        .map(|i| at + index(i * size))
        .filter(|&ph| le::<4>(elf, ph) == PT_LOAD)
        .map(|ph| {
            let field = |offset| index(le::<8>(elf, ph + offset));
            (field(8), field(16), field(32), field(40))
        })
        .collect();
    let span = segments
        .iter()
        .map(|&(_, address, _, memory)| address + memory)
        .max()
        .expect("a loadable segment")
        .next_multiple_of(4096);
    // SAFETY: a new private anonymous mapping, placed by the kernel, overlaps nothing.
    let base = unsafe {
        mmap_anonymous(
            std::ptr::null_mut(),
            span,
            ProtFlags::READ | ProtFlags::WRITE,
            MapFlags::PRIVATE,
        )
    }
    .expect("mmap");
    for (offset, address, file, _) in segments {
        // SAFETY: `address + file` lies within `span`, and the source within the file.
        unsafe {
            std::ptr::copy_nonoverlapping(
                elf[offset..offset + file].as_ptr(),
                base.cast::<u8>().add(address),
                file,
            );
        }
    }
    // SAFETY: the mapping is ours and nothing holds a reference into it.
    unsafe { mprotect(base, span, MprotectFlags::READ | MprotectFlags::EXEC) }.expect("mprotect");
    base.cast::<u8>().cast_const()
}

/// Every length to 4 KiB and 64 bytes past it: the short copies, the 16-byte loop, `rep movsb`
/// and a whole page.
const LENGTHS: std::ops::RangeInclusive<usize> = 0..=4160;

/// The shipped binary's four functions.
fn shipped() -> Functions {
    let binary = release_binary();
    let elf = std::fs::read(&binary).expect("the release binary");
    assert_eq!(&elf[..4], b"\x7fELF", "{}", binary.display());
    let [memcpy, memmove, memcmp, bcmp] =
        dynamic_symbols(&elf, &["memcpy", "memmove", "memcmp", "bcmp"])[..]
    else {
        unreachable!("four names, four addresses")
    };
    let base = map_segments(&elf);
    let at = |address: u64| base.wrapping_add(index(address));
    // SAFETY: each address is that symbol's code in the mapped binary, a function of C's
    // signature for its name (crates/memfns, exported under these names in the musl build).
    unsafe {
        Functions {
            memcpy: std::mem::transmute::<*const u8, Copy>(at(memcpy)),
            memmove: std::mem::transmute::<*const u8, Copy>(at(memmove)),
            memcmp: std::mem::transmute::<*const u8, Compare>(at(memcmp)),
            bcmp: std::mem::transmute::<*const u8, Compare>(at(bcmp)),
        }
    }
}

#[test]
#[ignore = "needs the release build (scripts/build-release): run scripts/test"]
fn the_shipped_memory_functions_agree_with_the_standard_library() {
    let functions = shipped();
    let lengths: Vec<usize> = LENGTHS.collect();
    let pairs = properties::every_alignment_pair();
    properties::memcpy_copies_exactly(&functions, &lengths, &pairs);
    properties::memmove_moves_as_copy_within(&functions, &lengths, &pairs);
    properties::memcmp_and_bcmp_order_as_slices(&functions, &lengths, &pairs);
}
