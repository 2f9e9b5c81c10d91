//! Each function against the standard library's copy and comparison, for every length up to
//! past the longest short copy and every alignment of both pointers within a word.
extern crate std;
use std::vec::Vec;

use super::{bcmp, memcmp, memcpy, memmove};

/// A buffer whose bytes differ from their neighbours', so a misplaced byte shows.
fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| {
            u8::try_from(i % 256)
                .expect("a byte")
                .wrapping_mul(31)
                .wrapping_add(seed)
        })
        .collect()
}

/// Past the short copies (64), the 16-byte loop (1 KiB) and into `rep movsb`.
const LENGTHS: std::ops::RangeInclusive<usize> = 0..=1100;

#[test]
fn memcpy_copies_every_length_and_alignment_and_touches_nothing_else() {
    for n in LENGTHS {
        for (s_off, d_off) in [(0, 0), (1, 0), (0, 3), (5, 7), (8, 1)] {
            let src = pattern(n + 16, 1);
            let mut dest = pattern(n + 16, 200);
            let mut want = dest.clone();
            want[d_off..d_off + n].copy_from_slice(&src[s_off..s_off + n]);
            // SAFETY: both ranges lie within their buffers and do not overlap.
            let ret = unsafe { memcpy(dest.as_mut_ptr().add(d_off), src.as_ptr().add(s_off), n) };
            assert_eq!(ret, dest[d_off..].as_mut_ptr(), "n={n}");
            assert_eq!(dest, want, "n={n} src+{s_off} dest+{d_off}");
        }
    }
}

#[test]
fn memmove_copies_overlapping_ranges_in_either_direction() {
    for n in LENGTHS {
        // Overlapping either way by every distance class, the same range, and apart (`dest`
        // above `src` past its end: forward).
        let moves = [
            (0, 1),
            (1, 0),
            (0, 7),
            (9, 2),
            (3, 3),
            (0, 64),
            (70, 5),
            (0, 100),
            (100, 0),
            (0, 700),
            (0, 1030),
        ];
        for (from, to) in moves {
            let mut buf = pattern(n + 1100, 9);
            let mut want = buf.clone();
            want.copy_within(from..from + n, to);
            let p = buf.as_mut_ptr();
            // SAFETY: both ranges lie within `buf`.
            let ret = unsafe { memmove(p.add(to), p.add(from), n) };
            assert_eq!(ret, p.wrapping_add(to), "n={n}");
            assert_eq!(buf, want, "n={n} from {from} to {to}");
        }
    }
}

#[test]
fn memcmp_orders_as_unsigned_bytes_and_bcmp_says_whether_equal() {
    for n in (0..=200).chain([255, 256, 1023, 1024, 1100]) {
        let a = pattern(n, 4);
        let same = a.clone();
        // SAFETY: both are `n` bytes long.
        let (ord, eq) = unsafe {
            (
                memcmp(a.as_ptr(), same.as_ptr(), n),
                bcmp(a.as_ptr(), same.as_ptr(), n),
            )
        };
        assert_eq!((ord, eq), (0, 0), "n={n}");
        for at in 0..n {
            for delta in [1u8, 0x80, 0xff] {
                let mut b = a.clone();
                b[at] = b[at].wrapping_add(delta);
                // SAFETY: both are `n` bytes long.
                let (ord, eq) = unsafe {
                    (
                        memcmp(a.as_ptr(), b.as_ptr(), n),
                        bcmp(a.as_ptr(), b.as_ptr(), n),
                    )
                };
                assert_eq!(ord.signum(), a.cmp(&b) as i32, "n={n} at {at} +{delta}");
                assert_ne!(eq, 0, "n={n} at {at}");
                if n > 0 {
                    // Only the first difference decides, even when a later one says otherwise.
                    let mut c = b.clone();
                    if at + 1 < n {
                        c[n - 1] = a[n - 1].wrapping_sub(delta);
                    }
                    // SAFETY: both are `n` bytes long.
                    let ord = unsafe { memcmp(a.as_ptr(), c.as_ptr(), n) };
                    assert_eq!(ord.signum(), a.cmp(&c) as i32, "n={n} at {at}");
                }
            }
        }
    }
}
