//! The properties `memcpy`, `memmove`, `memcmp` and `bcmp` must have, checked against the
//! standard library's copy (`copy_from_slice`, `copy_within`) and order (`Ord` for `[u8]`) for
//! each length of a list, each pair of alignments of a list (at most every pair within 16
//! bytes, the widest access the functions make: past it an address's alignment changes
//! nothing they do) and, for `memmove`, every direction of overlap. Shared by the tests of the crate's Rust functions (also run by
//! Miri) and of the shipped binary's symbols.

/// C's `memcpy` and `memmove`.
pub type Copy = unsafe extern "C" fn(*mut u8, *const u8, usize) -> *mut u8;
/// C's `memcmp` and BSD's `bcmp`.
pub type Compare = unsafe extern "C" fn(*const u8, *const u8, usize) -> i32;

/// The four functions under test.
pub struct Functions {
    pub memcpy: Copy,
    pub memmove: Copy,
    pub memcmp: Compare,
    pub bcmp: Compare,
}

/// Alignments are offsets from a 16-byte boundary, of `0..ALIGN`.
pub const ALIGN: usize = 16;

/// Every pair of alignments (source or first operand, destination or second operand).
pub fn every_alignment_pair() -> Vec<(usize, usize)> {
    (0..ALIGN)
        .flat_map(|a| (0..ALIGN).map(move |b| (a, b)))
        .collect()
}

/// Bytes around every written range that must be left as they were.
const GUARD: usize = 32;

/// A buffer 16-byte aligned at index 0, so that index `i` has alignment `i % 16`.
struct Buffer {
    words: Vec<u128>,
    len: usize,
}

impl Buffer {
    /// `len` bytes of a pattern in which each byte differs from its neighbours, so a byte out
    /// of place shows; `seed` makes two buffers differ.
    fn pattern(len: usize, seed: u8) -> Self {
        let mut buffer = Self {
            words: vec![0; len.div_ceil(16)],
            len,
        };
        for (i, byte) in buffer.bytes_mut().iter_mut().enumerate() {
            *byte = u8::try_from(i % 251)
                .expect("a byte")
                .wrapping_mul(7)
                .wrapping_add(seed);
        }
        buffer
    }

    fn bytes(&self) -> &[u8] {
        // SAFETY: `words` holds at least `len` bytes, any bit pattern is a valid u8.
        unsafe { std::slice::from_raw_parts(self.words.as_ptr().cast(), self.len) }
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as for `bytes`, and the borrow is unique.
        unsafe { std::slice::from_raw_parts_mut(self.words.as_mut_ptr().cast(), self.len) }
    }
}

/// Every length of `lengths` and alignment pair of `pairs`: `memcpy` writes exactly `src`'s bytes into
/// exactly `dest`'s range, and returns `dest`.
pub fn memcpy_copies_exactly(f: &Functions, lengths: &[usize], pairs: &[(usize, usize)]) {
    let max = lengths.iter().copied().max().unwrap_or(0);
    let src = Buffer::pattern(max + ALIGN, 1);
    let pristine = Buffer::pattern(2 * GUARD + max + ALIGN, 200);
    let mut dest = Buffer::pattern(pristine.len, 200);
    for &n in lengths {
        for &(s_off, d_off) in pairs {
            let window = 0..GUARD + d_off + n + GUARD;
            let at = GUARD + d_off;
            // SAFETY: `src` has `s_off + n` bytes, `dest` `at + n`, and they are two buffers.
            let ret = unsafe {
                (f.memcpy)(
                    dest.bytes_mut().as_mut_ptr().add(at),
                    src.bytes().as_ptr().add(s_off),
                    n,
                )
            };
            assert_eq!(
                ret,
                dest.bytes_mut()[at..].as_mut_ptr(),
                "memcpy n={n} returns dest"
            );
            let got = &dest.bytes()[window.clone()];
            let mut want = pristine.bytes()[window.clone()].to_vec();
            want[at..at + n].copy_from_slice(&src.bytes()[s_off..s_off + n]);
            assert!(got == want, "memcpy n={n} src+{s_off} dest+{d_off}");
            dest.bytes_mut()[window.clone()].copy_from_slice(&pristine.bytes()[window]);
        }
    }
}

/// Every length of `lengths`, alignment pair of `pairs` and direction: `memmove` within one buffer gives
/// what `copy_within` gives, with `dest` below or above an overlapping `src` (by the least
/// distance the alignments allow and by about half the length), at `src`, and apart from it
/// either way; and returns `dest`.
pub fn memmove_moves_as_copy_within(f: &Functions, lengths: &[usize], pairs: &[(usize, usize)]) {
    let max = lengths.iter().copied().max().unwrap_or(0);
    // Room for `src` at `base` and `dest` up to a length plus 32 bytes either side of it.
    let base = GUARD + max + 2 * ALIGN;
    let pristine = Buffer::pattern(2 * base + max + 4 * ALIGN, 9);
    let mut buf = Buffer::pattern(pristine.len, 9);
    let mut want = pristine.bytes().to_vec();
    for &n in lengths {
        let apart = n.next_multiple_of(ALIGN);
        for &(s_off, d_off) in pairs {
            let from = base + s_off;
            // The least distance up from `src` to an address of `dest`'s alignment (16
            // when they are the same), and down.
            let up = (d_off + ALIGN - s_off - 1) % ALIGN + 1;
            let down = (s_off + ALIGN - d_off - 1) % ALIGN + 1;
            // Apart above and below, then overlapping.
            let mut targets = vec![from + up + apart, from - down - apart];
            if s_off == d_off {
                targets.push(from);
            }
            if up < n {
                targets.push(from + up);
            }
            if down < n {
                targets.push(from - down);
            }
            let half = n / 2 / ALIGN * ALIGN;
            if half >= ALIGN {
                targets.push(from + half + up);
                targets.push(from - half - down);
            }
            for to in targets {
                let (lo, hi) = (from.min(to) - GUARD, from.max(to) + n + GUARD);
                want[lo..hi].copy_from_slice(&pristine.bytes()[lo..hi]);
                want.copy_within(from..from + n, to);
                let p = buf.bytes_mut().as_mut_ptr();
                // SAFETY: both ranges lie within `buf`.
                let ret = unsafe { (f.memmove)(p.add(to), p.add(from), n) };
                assert_eq!(ret, p.wrapping_add(to), "memmove n={n} returns dest");
                assert!(
                    buf.bytes()[lo..hi] == want[lo..hi],
                    "memmove n={n} from {from} to {to} (src+{s_off} dest+{d_off})"
                );
                buf.bytes_mut()[lo..hi].copy_from_slice(&pristine.bytes()[lo..hi]);
            }
        }
    }
}

/// Every length of `lengths` and alignment pair of `pairs`: `memcmp`'s sign is the order of the two
/// ranges as unsigned bytes, decided by the first difference even when a later one says
/// otherwise, and `bcmp` is zero exactly when they are equal. The first difference is at the
/// start, the end, and a place that moves with the length and alignments (so every place
/// within a word is met), each way.
pub fn memcmp_and_bcmp_order_as_slices(f: &Functions, lengths: &[usize], pairs: &[(usize, usize)]) {
    let max = lengths.iter().copied().max().unwrap_or(0);
    let a = Buffer::pattern(max + ALIGN, 4);
    let mut b = Buffer::pattern(max + ALIGN, 90);
    for &n in lengths {
        for &(a_off, b_off) in pairs {
            // `b`'s range holds `a`'s bytes at another alignment.
            b.bytes_mut()[b_off..b_off + n].copy_from_slice(&a.bytes()[a_off..a_off + n]);
            compare_at(f, &a, a_off, &mut b, b_off, n, None);
            if n == 0 {
                continue;
            }
            let moving = (n * 7 + a_off * 3 + b_off) % n;
            for at in [0, n - 1, moving] {
                compare_at(f, &a, a_off, &mut b, b_off, n, Some(at));
            }
        }
    }
}

/// Compares `a[a_off..][..n]` with `b[b_off..][..n]` (equal on entry) with `b` changed at
/// `at` (when given) one way and the other, and with a later difference the other way; `b`
/// is equal again on return.
fn compare_at(
    f: &Functions,
    a: &Buffer,
    a_off: usize,
    b: &mut Buffer,
    b_off: usize,
    n: usize,
    at: Option<usize>,
) {
    // What differs, said only when a check fails: (first difference, its new byte, whether
    // a later difference goes the other way).
    let check = |b: &Buffer, what: Option<(usize, u8, bool)>| {
        let (x, y) = (&a.bytes()[a_off..a_off + n], &b.bytes()[b_off..b_off + n]);
        let (pa, pb) = (x.as_ptr(), y.as_ptr());
        // SAFETY: both ranges are `n` bytes of their buffers.
        let (ord, eq) = unsafe { ((f.memcmp)(pa, pb, n), (f.bcmp)(pa, pb, n)) };
        let want = x.cmp(y) as i32;
        assert!(
            ord.signum() == want && (eq == 0) == (x == y),
            "n={n} a+{a_off} b+{b_off} (first difference, b's byte, a later one the other \
             way): {what:?}: memcmp {ord} for {want}, bcmp {eq}"
        );
    };
    let Some(at) = at else {
        check(b, None);
        return;
    };
    let i = b_off + at;
    let old = b.bytes()[i];
    // Up and down by one, and across the sign bit (as signed bytes the order would flip).
    for new in [old.wrapping_add(1), old.wrapping_sub(1), old ^ 0x80] {
        b.bytes_mut()[i] = new;
        check(b, Some((at, new, false)));
        if at + 1 < n {
            // A later difference the other way must not change the answer.
            let j = b_off + n - 1;
            let later = b.bytes()[j];
            b.bytes_mut()[j] = if new > old {
                later.wrapping_sub(1)
            } else {
                later.wrapping_add(1)
            };
            check(b, Some((at, new, true)));
            b.bytes_mut()[j] = later;
        }
    }
    b.bytes_mut()[i] = old;
}
