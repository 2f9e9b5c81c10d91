//! `matrix --jobs`: how many threads render, compare and write the cases at once.
//!
//! The default is what cargo's `-j` defaults to, the processors this process may run on
//! (`std::thread::available_parallelism`, which honours the CPU affinity mask and the cgroup's
//! CPU quota). More threads than processors only take turns: the cases are short and all
//! CPU-bound, so a larger `--jobs` gains nothing, but it must not cost much either (the
//! musl builds' allocator parks a waiting thread instead of spinning, crates/memfns).

use anyhow::{Result, bail};
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The threads `--jobs` asks for, or one per processor.
pub(crate) fn jobs(asked: Option<NonZeroUsize>) -> NonZeroUsize {
    asked.unwrap_or_else(|| std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN))
}

/// Runs `f` on every item on up to `jobs` threads (never more than there are items), keeping
/// the items' order; the first error (in item order) wins. Each thread takes the next item not
/// yet taken, so a slow case does not hold up the ones behind it.
pub(crate) fn on_workers<T: Sync, R: Send>(
    jobs: NonZeroUsize,
    items: &[T],
    f: impl Fn(&T) -> Result<R> + Sync,
) -> Result<Vec<R>> {
    let workers = jobs.get().min(items.len()).max(1);
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, Result<R>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        out.push((i, f(item)));
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    if done.len() != items.len() {
        bail!("a matrix worker stopped early (a ccm-render bug)");
    }
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::anyhow;

    #[test]
    fn results_keep_the_items_order_whatever_the_number_of_threads() {
        let items: Vec<usize> = (0..100).collect();
        for jobs in [1, 2, 7, 16, 200] {
            let jobs = NonZeroUsize::new(jobs).expect("not zero");
            let out = on_workers(jobs, &items, |i| Ok(i * 3)).expect("no error");
            assert_eq!(out, items.iter().map(|i| i * 3).collect::<Vec<_>>());
        }
        let none: Vec<usize> =
            on_workers(NonZeroUsize::MIN, &[] as &[usize], |i| Ok(*i)).expect("no items, no error");
        assert!(none.is_empty());
    }

    #[test]
    fn the_first_error_in_item_order_wins() {
        let items: Vec<usize> = (0..50).collect();
        let jobs = NonZeroUsize::new(8).expect("not zero");
        let err = on_workers(jobs, &items, |i| {
            if i % 10 == 7 {
                Err(anyhow!("item {i}"))
            } else {
                Ok(*i)
            }
        })
        .expect_err("items 7, 17... fail");
        assert_eq!(err.to_string(), "item 7");
    }

    #[test]
    fn without_jobs_there_is_one_thread_per_processor() {
        let cores = std::thread::available_parallelism().expect("known here");
        assert_eq!(jobs(None), cores);
        let three = NonZeroUsize::new(3).expect("not zero");
        assert_eq!(jobs(Some(three)), three);
    }
}
