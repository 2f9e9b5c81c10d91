//! The allocator through `GlobalAlloc`, as the standard library calls it: what it hands out is
//! aligned, writable and kept across `realloc`, zeroed when asked, threads allocating and
//! freeing at once (more of them than the machine has processors) never share a block, and a
//! panic with the heap's lock held does not leave it held.
extern crate std;
use std::vec::Vec;

use super::Allocator;
use core::alloc::{GlobalAlloc, Layout};

/// The pattern's byte at `i`: it differs from its neighbours', so a misplaced byte shows.
fn byte(i: usize, seed: u8) -> u8 {
    seed.wrapping_add(u8::try_from(i % 251).expect("a byte"))
}

/// Fills `len` bytes at `ptr` with the pattern of `seed`.
fn fill(ptr: *mut u8, len: usize, seed: u8) {
    for i in 0..len {
        // SAFETY: the tests pass blocks of at least `len` bytes.
        unsafe { ptr.add(i).write(byte(i, seed)) }
    }
}

/// Whether the `len` bytes at `ptr` still hold the pattern of `seed`.
fn holds(ptr: *const u8, len: usize, seed: u8) -> bool {
    // SAFETY: the tests pass blocks of at least `len` bytes.
    (0..len).all(|i| unsafe { ptr.add(i).read() } == byte(i, seed))
}

#[test]
fn blocks_are_aligned_writable_and_kept_across_realloc() {
    let heap = Allocator::new();
    // Under Miri, which interprets every byte written, not the 70 KB block.
    let sizes: &[usize] = if cfg!(miri) {
        &[1, 7, 24, 100, 4000]
    } else {
        &[1, 7, 24, 100, 4000, 70_000]
    };
    for align in [1, 8, 16, 64, 4096] {
        for &size in sizes {
            let layout = Layout::from_size_align(size, align).expect("a layout");
            // SAFETY: the layout's size is not zero.
            let ptr = unsafe { heap.alloc(layout) };
            assert!(!ptr.is_null());
            assert_eq!(ptr as usize % align, 0, "{size} bytes aligned to {align}");
            fill(ptr, size, 3);
            let mut ptr = ptr;
            for new_size in [size / 2 + 1, size * 3] {
                // SAFETY: `ptr` is this allocator's block of `layout`.
                let moved = unsafe { heap.realloc(ptr, layout, new_size) };
                assert!(!moved.is_null());
                assert_eq!(moved as usize % align, 0);
                assert!(holds(moved, size.min(new_size), 3), "{size} -> {new_size}");
                fill(moved, new_size, 3);
                let back = Layout::from_size_align(new_size, align).expect("a layout");
                // SAFETY: `moved` is this allocator's block of `back`; back to `layout`'s size.
                ptr = unsafe { heap.realloc(moved, back, size) };
                assert_eq!(ptr as usize % align, 0);
                assert!(holds(ptr, size.min(new_size), 3));
                fill(ptr, size, 3);
            }
            // SAFETY: `ptr` is this allocator's block of `layout`.
            unsafe { heap.dealloc(ptr, layout) };
        }
    }
}

#[test]
fn zeroed_blocks_are_zero_even_where_freed_memory_was_reused() {
    let heap = Allocator::new();
    let layout = Layout::from_size_align(3000, 16).expect("a layout");
    // SAFETY: the layout's size is not zero.
    let dirty = unsafe { heap.alloc(layout) };
    fill(dirty, 3000, 0xAB);
    // SAFETY: `dirty` is this allocator's block of `layout`.
    unsafe { heap.dealloc(dirty, layout) };
    // SAFETY: the layout's size is not zero.
    let zeroed = unsafe { heap.alloc_zeroed(layout) };
    // SAFETY: `zeroed` is a block of 3000 bytes.
    assert!((0..3000).all(|i| unsafe { zeroed.add(i).read() } == 0));
    // SAFETY: `zeroed` is this allocator's block of `layout`.
    unsafe { heap.dealloc(zeroed, layout) };
}

#[test]
fn threads_allocating_at_once_never_share_a_block() {
    // Leaked: the threads borrow it for as long as they run.
    let heap: &'static Allocator = std::boxed::Box::leak(std::boxed::Box::new(Allocator::new()));
    // Sixteen, as `matrix --jobs 16` starts on a machine of two processors or more. Under Miri,
    // which runs the threads one at a time in an order of its choosing and reports a data race
    // (an access to the heap outside the lock), fewer and shorter.
    let (threads, rounds) = if cfg!(miri) { (4, 300) } else { (16, 20_000) };
    let threads: Vec<_> = (0..threads)
        .map(|seed| {
            std::thread::spawn(move || {
                let mut held: Vec<(*mut u8, Layout)> = Vec::new();
                for round in 0..rounds {
                    let size = 1 + (round * 7 + usize::from(seed) * 13) % 300;
                    let layout = Layout::from_size_align(size, 8).expect("a layout");
                    // SAFETY: the layout's size is not zero.
                    let ptr = unsafe { heap.alloc(layout) };
                    assert!(!ptr.is_null());
                    fill(ptr, size, seed);
                    held.push((ptr, layout));
                    if round % 3 == 0 {
                        let (ptr, layout) = held.swap_remove(round % held.len());
                        // Another thread writing into this block would have changed it.
                        assert!(holds(ptr, layout.size(), seed));
                        // SAFETY: `ptr` is this allocator's block of `layout`.
                        unsafe { heap.dealloc(ptr, layout) };
                    }
                }
                for (ptr, layout) in held {
                    assert!(holds(ptr, layout.size(), seed));
                    // SAFETY: `ptr` is this allocator's block of `layout`.
                    unsafe { heap.dealloc(ptr, layout) };
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().expect("no thread panicked");
    }
}

#[test]
fn a_panic_with_the_heap_locked_leaves_it_usable_from_every_thread() {
    let heap: &'static Allocator = std::boxed::Box::leak(std::boxed::Box::new(Allocator::new()));
    let layout = Layout::from_size_align(64, 8).expect("a layout");
    let unwound = std::thread::spawn(move || {
        heap.with_heap(|heap| {
            // SAFETY: the layout's size is not zero; the block is leaked by the panic.
            let ptr = unsafe { heap.malloc(layout.size(), layout.align()) };
            assert!(!ptr.is_null());
            panic!("a panic inside the allocator, as a dlmalloc assertion would raise");
        })
    })
    .join();
    assert!(unwound.is_err(), "the thread panicked");
    // Another thread, and this one, take the lock again and get blocks.
    let other = std::thread::spawn(move || {
        // SAFETY: the layout's size is not zero.
        let ptr = unsafe { heap.alloc(layout) };
        fill(ptr, 64, 5);
        // A pointer is not `Send`; an `AtomicPtr` is, and keeps its provenance (for Miri).
        std::sync::atomic::AtomicPtr::new(ptr)
    })
    .join()
    .expect("the other thread allocated")
    .into_inner();
    // SAFETY: the layout's size is not zero.
    let mine = unsafe { heap.alloc(layout) };
    assert!(!other.is_null() && !mine.is_null() && other != mine);
    assert!(holds(other, 64, 5));
    // SAFETY: both are this allocator's blocks of `layout`.
    unsafe {
        heap.dealloc(other, layout);
        heap.dealloc(mine, layout);
    }
}
