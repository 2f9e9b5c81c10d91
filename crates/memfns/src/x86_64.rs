//! The four functions, with SSE2 (part of every x86_64) for the 16-byte moves.
use core::arch::asm;
use core::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_storeu_si128};
use core::ptr;

/// Up to this length, copies move 16 bytes at a time; past it, `rep movsb` is as fast or
/// faster on the processors with ERMSB (Intel since 2012, AMD since Zen 3).
const LOOP_MAX: usize = 1024;

/// C's `memcpy`.
///
/// # Safety
/// As C's: `src` is valid for `n` bytes of reads, `dest` for `n` bytes of writes, and the two
/// do not overlap.
#[cfg_attr(target_env = "musl", unsafe(no_mangle))]
pub unsafe extern "C" fn memcpy(dest: *mut u8, src: *const u8, n: usize) -> *mut u8 {
    // SAFETY: the caller's promise, passed on; without overlap, a forward copy is right.
    unsafe { copy_forward(dest, src, n) };
    dest
}

/// C's `memmove`.
///
/// # Safety
/// As C's: `src` is valid for `n` bytes of reads, `dest` for `n` bytes of writes; they may
/// overlap.
#[cfg_attr(target_env = "musl", unsafe(no_mangle))]
pub unsafe extern "C" fn memmove(dest: *mut u8, src: *const u8, n: usize) -> *mut u8 {
    // SAFETY: the caller's promise, passed on. A forward copy is right when `dest` is at or
    // below `src` or past the end of `src`'s range (the wrapping difference is then `n` or
    // more), and a backward one when `dest` is above `src` within its range.
    unsafe {
        if n <= 64 || (dest as usize).wrapping_sub(src as usize) >= n {
            copy_forward(dest, src, n);
        } else {
            copy_backward(dest, src, n);
        }
    }
    dest
}

/// C's `memcmp`: the sign of the difference of the first bytes that differ, as unsigned bytes
/// (`-1` or `1` when they are found a word at a time, their difference in the last bytes; C
/// asks only for the sign).
///
/// # Safety
/// As C's: `a` and `b` are valid for `n` bytes of reads.
#[cfg_attr(target_env = "musl", unsafe(no_mangle))]
pub unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    let mut i = 0;
    // SAFETY: every offset read is below `n`.
    unsafe {
        while i + 8 <= n {
            let x = ptr::read_unaligned(a.add(i).cast::<u64>());
            let y = ptr::read_unaligned(b.add(i).cast::<u64>());
            if x != y {
                // Byte-swapped, the first byte in memory is the most significant.
                return if x.swap_bytes() < y.swap_bytes() {
                    -1
                } else {
                    1
                };
            }
            i += 8;
        }
        while i < n {
            let (x, y) = (*a.add(i), *b.add(i));
            if x != y {
                return i32::from(x) - i32::from(y);
            }
            i += 1;
        }
    }
    0
}

/// BSD's `bcmp`, which LLVM calls for an equality test: zero when the bytes are equal.
///
/// # Safety
/// As C's: `a` and `b` are valid for `n` bytes of reads.
#[cfg_attr(target_env = "musl", unsafe(no_mangle))]
pub unsafe extern "C" fn bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: every offset read is below `n`.
    unsafe {
        if n < 8 {
            return memcmp(a, b, n);
        }
        let word = |p: *const u8, i: usize| ptr::read_unaligned(p.add(i).cast::<u64>());
        let mut i = 0;
        while i + 8 < n {
            if word(a, i) != word(b, i) {
                return 1;
            }
            i += 8;
        }
        // The last eight bytes, overlapping what was compared already.
        i32::from(word(a, n - 8) != word(b, n - 8))
    }
}

/// Copies `n` bytes, reading each 16-byte block of `src` before writing the block of `dest`
/// at the same offset. So the ranges may overlap when `dest` is at or below `src`; up to 64
/// bytes every load comes before the first store, so there they may overlap either way.
///
/// # Safety
/// `src` is valid for `n` bytes of reads, `dest` for `n` bytes of writes, and if the ranges
/// overlap and `n` is over 64, `dest` is at or below `src`.
#[inline(always)]
unsafe fn copy_forward(dest: *mut u8, src: *const u8, n: usize) {
    // SAFETY: every offset read or written is below `n`, as the caller promises. The last
    // block is loaded before the loop's stores, which could otherwise overwrite it.
    unsafe {
        match n {
            0..=64 => copy_short(dest, src, n),
            65..=LOOP_MAX => {
                let last = load(src.add(n - 16));
                let mut i = 0;
                while i + 16 < n {
                    store(dest.add(i), load(src.add(i)));
                    i += 16;
                }
                store(dest.add(n - 16), last);
            }
            _ => asm!(
                "rep movsb",
                inout("rcx") n => _,
                inout("rdi") dest => _,
                inout("rsi") src => _,
                options(nostack, preserves_flags),
            ),
        }
    }
}

/// Copies `n` bytes, at least 16, 16 bytes at a time from the end, each block read before the
/// block of `dest` at the same offset is written: right when `dest` is above an overlapping
/// `src` (a `BTreeMap` node or a `Vec` making room for an insert).
///
/// # Safety
/// `src` is valid for `n` bytes of reads, `dest` for `n` bytes of writes, and `n` is 16 or
/// more.
#[inline(always)]
unsafe fn copy_backward(dest: *mut u8, src: *const u8, n: usize) {
    // SAFETY: every offset read or written is below `n`, as the caller promises. The first
    // block is loaded before the loop's stores, which could otherwise overwrite it.
    unsafe {
        let first = load(src);
        let mut end = n;
        while end > 16 {
            store(dest.add(end - 16), load(src.add(end - 16)));
            end -= 16;
        }
        store(dest, first);
    }
}

/// Copies `n` bytes, `n` at most 64, as two overlapping loads and stores of the widest size
/// that fits (four 16-byte ones past 32 bytes). Every load comes before the first store.
///
/// # Safety
/// `src` is valid for `n` bytes of reads and `dest` for `n` bytes of writes.
#[inline(always)]
unsafe fn copy_short(dest: *mut u8, src: *const u8, n: usize) {
    // SAFETY: every offset read or written is below `n`, as the caller promises.
    unsafe {
        match n {
            0 => {}
            1..=3 => {
                let (a, b, c) = (*src, *src.add(n / 2), *src.add(n - 1));
                *dest = a;
                *dest.add(n / 2) = b;
                *dest.add(n - 1) = c;
            }
            4..=7 => {
                let a = ptr::read_unaligned(src.cast::<u32>());
                let b = ptr::read_unaligned(src.add(n - 4).cast::<u32>());
                ptr::write_unaligned(dest.cast::<u32>(), a);
                ptr::write_unaligned(dest.add(n - 4).cast::<u32>(), b);
            }
            8..=16 => {
                let a = ptr::read_unaligned(src.cast::<u64>());
                let b = ptr::read_unaligned(src.add(n - 8).cast::<u64>());
                ptr::write_unaligned(dest.cast::<u64>(), a);
                ptr::write_unaligned(dest.add(n - 8).cast::<u64>(), b);
            }
            17..=32 => {
                let (a, b) = (load(src), load(src.add(n - 16)));
                store(dest, a);
                store(dest.add(n - 16), b);
            }
            _ => {
                let (a, b) = (load(src), load(src.add(16)));
                let (c, d) = (load(src.add(n - 32)), load(src.add(n - 16)));
                store(dest, a);
                store(dest.add(16), b);
                store(dest.add(n - 32), c);
                store(dest.add(n - 16), d);
            }
        }
    }
}

/// 16 bytes from `p`, at any alignment.
///
/// # Safety
/// `p` is valid for 16 bytes of reads.
#[inline(always)]
unsafe fn load(p: *const u8) -> __m128i {
    // SAFETY: the caller's promise; SSE2 is part of x86_64.
    unsafe { _mm_loadu_si128(p.cast()) }
}

/// 16 bytes to `p`, at any alignment.
///
/// # Safety
/// `p` is valid for 16 bytes of writes.
#[inline(always)]
unsafe fn store(p: *mut u8, v: __m128i) {
    // SAFETY: the caller's promise; SSE2 is part of x86_64.
    unsafe { _mm_storeu_si128(p.cast(), v) }
}
