//! The musl builds' global allocator: dlmalloc's heap behind a spin lock.
//!
//! dlmalloc's own global allocator (its `global` feature) takes a `pthread_mutex_t` around
//! every call. musl's `pthread_mutex_lock` and `_unlock`, a locked instruction each and some
//! thirty others behind a call, were 7% of a render's instructions for its 3,900 allocations
//! and frees, uncontended but in `matrix`. This lock takes one locked compare-and-swap and
//! releases with a plain store: a render takes 10% fewer instructions (AWS 1.62 → 1.46 M,
//! Azure 2.39 → 2.15 M) and 3–6% less time (docs/performance.md).
//!
//! Spinning suits it: the lock is held for one dlmalloc call (well under a microsecond), and
//! only `matrix`'s two threads ever contend for it. A waiter spins on a plain load, so it does
//! not take the cache line from the holder until the lock looks free.

use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicBool, Ordering};

/// dlmalloc's heap and the flag that guards it.
pub struct Allocator {
    locked: AtomicBool,
    heap: UnsafeCell<dlmalloc::Dlmalloc>,
}

// SAFETY: `heap` is only reached through `with_heap`, which holds `locked`.
unsafe impl Sync for Allocator {}

impl Allocator {
    /// An empty heap; dlmalloc maps memory on the first allocation.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            locked: AtomicBool::new(false),
            heap: UnsafeCell::new(dlmalloc::Dlmalloc::new()),
        }
    }

    /// Runs `f` on the heap with the lock held.
    #[inline(always)]
    fn with_heap<T>(&self, f: impl FnOnce(&mut dlmalloc::Dlmalloc) -> T) -> T {
        while self
            .locked
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            while self.locked.load(Ordering::Relaxed) {
                core::hint::spin_loop();
            }
        }
        // SAFETY: the lock is held, so no other reference to the heap exists until it is
        // released below.
        let result = f(unsafe { &mut *self.heap.get() });
        self.locked.store(false, Ordering::Release);
        result
    }
}

impl Default for Allocator {
    fn default() -> Self {
        Self::new()
    }
}

// SAFETY: each method passes its arguments on to dlmalloc's method of the same contract, as
// dlmalloc's own `GlobalDlmalloc` does.
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
