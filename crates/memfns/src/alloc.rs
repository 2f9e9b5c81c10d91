//! The musl builds' global allocator: dlmalloc's heap behind the standard library's mutex.
//!
//! dlmalloc's own global allocator (its `global` feature) takes a `pthread_mutex_t` around
//! every call, which in musl is a call and some thirty instructions each way; the figures that
//! chose a lock inlined here instead are in docs/performance.md (the levers' table).
//!
//! The lock is `std::sync::Mutex`. On Linux it is a futex word (library/std/src/sys/sync/
//! mutex/futex.rs): uncontended, one compare-and-swap to take it and one swap to release it,
//! inlined; contended, a waiter spins a hundred times and then sleeps in `futex(2)` until the
//! holder wakes it, so a waiter whose holder has been descheduled gives the processor back
//! instead of burning its time slice (`matrix --jobs 16` on two cores). It cannot allocate:
//! `Mutex::new` is `const`, and neither locking nor the poison flag's check (an atomic load
//! of the global panic count, std's panicking.rs) touches the heap, so the allocator cannot
//! call itself. A panic inside dlmalloc unwinds through the guard, which releases the lock,
//! and later calls take the heap anyway (`PoisonError::into_inner`): dlmalloc panics only on
//! an internal inconsistency, after which nothing can be trusted whether or not it waits.
//! (The shipped builds abort on a panic; tests unwind.)

extern crate std;

use core::alloc::{GlobalAlloc, Layout};
use std::sync::{Mutex, PoisonError};

/// dlmalloc's heap and the lock that guards it.
pub struct Allocator {
    heap: Mutex<dlmalloc::Dlmalloc>,
}

impl Allocator {
    /// An empty heap; dlmalloc maps memory on the first allocation.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            heap: Mutex::new(dlmalloc::Dlmalloc::new()),
        }
    }

    /// Runs `f` on the heap with the lock held; the lock is released when `f` returns or
    /// unwinds.
    #[inline(always)]
    pub(crate) fn with_heap<T>(&self, f: impl FnOnce(&mut dlmalloc::Dlmalloc) -> T) -> T {
        let mut heap = self.heap.lock().unwrap_or_else(PoisonError::into_inner);
        f(&mut heap)
    }
}

impl Default for Allocator {
    fn default() -> Self {
        Self::new()
    }
}

// SAFETY: each method passes its arguments on to dlmalloc's method of the same contract, as
// dlmalloc's own `GlobalDlmalloc` does, with the heap's lock held.
unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `GlobalAlloc::alloc` is dlmalloc's for `malloc`.
        self.with_heap(|heap| unsafe { heap.malloc(layout.size(), layout.align()) })
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by this allocator with `layout`, as `free` needs.
        self.with_heap(|heap| unsafe { heap.free(ptr, layout.size(), layout.align()) });
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        self.with_heap(|heap| unsafe { heap.calloc(layout.size(), layout.align()) })
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` was allocated by this allocator with `layout`, and `new_size` is
        // valid for it, as `realloc` needs.
        self.with_heap(|heap| unsafe { heap.realloc(ptr, layout.size(), layout.align(), new_size) })
    }
}
