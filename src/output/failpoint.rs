//! Fault injection for this module's tests. Every step of an update that can fail or be cut
//! short calls [`hit`] with its name; a test arms the Nth hit to fail with `ENOSPC` or to end
//! the "process" there (a [`Crash`] error that skips every clean-up, as a SIGKILL would), then
//! checks what recovery makes of the directory. Outside `cfg(test)`, [`hit`] is an empty inline
//! function: release and integration-test binaries carry no trace of it.

#[cfg(not(test))]
mod off {
    /// A step of an update; nothing happens outside tests.
    #[inline]
    #[allow(
        clippy::unnecessary_wraps,
        reason = "the test build returns errors from here"
    )]
    pub(crate) fn hit(_step: &'static str) -> anyhow::Result<()> {
        Ok(())
    }

    /// Whether `err` is a simulated crash: never outside tests.
    #[inline]
    pub(crate) fn is_crash(_err: &anyhow::Error) -> bool {
        false
    }
}

#[cfg(not(test))]
pub(crate) use off::{hit, is_crash};

#[cfg(test)]
pub(crate) use armed::{Fault, arm, disarm, hit, is_crash};

#[cfg(test)]
mod armed {
    use std::cell::RefCell;

    /// What an armed failpoint does.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(crate) enum Fault {
        /// Stop there as if killed: no clean-up runs.
        Crash,
        /// Fail with "No space left on device", once.
        NoSpace,
        /// Fail with "No space left on device" at that hit and every later one.
        NoSpaceFromThen,
    }

    /// The error a simulated crash travels as.
    #[derive(Debug)]
    pub(crate) struct Crash(pub &'static str);

    impl std::fmt::Display for Crash {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "simulated crash at {}", self.0)
        }
    }

    impl std::error::Error for Crash {}

    #[derive(Default)]
    struct State {
        hits: usize,
        armed: Option<(usize, Fault)>,
    }

    thread_local! {
        // Per thread: tests run in parallel, each in its own thread.
        static STATE: RefCell<State> = RefCell::default();
    }

    /// Counts hits from zero again and arms hit number `at` (0-based), if any.
    pub(crate) fn arm(at: Option<usize>, fault: Fault) {
        STATE.with_borrow_mut(|s| {
            *s = State {
                hits: 0,
                armed: at.map(|at| (at, fault)),
            };
        });
    }

    /// Disarms and returns how many hits there were since [`arm`].
    pub(crate) fn disarm() -> usize {
        STATE.with_borrow_mut(|s| {
            s.armed = None;
            s.hits
        })
    }

    /// A step of an update.
    pub(crate) fn hit(step: &'static str) -> anyhow::Result<()> {
        STATE.with_borrow_mut(|s| {
            let n = s.hits;
            s.hits += 1;
            match s.armed {
                Some((at, Fault::Crash)) if at == n => Err(anyhow::Error::new(Crash(step))),
                Some((at, Fault::NoSpace)) if at == n => Err(no_space(step)),
                Some((at, Fault::NoSpaceFromThen)) if n >= at => Err(no_space(step)),
                _ => Ok(()),
            }
        })
    }

    fn no_space(step: &str) -> anyhow::Error {
        anyhow::Error::new(std::io::Error::from_raw_os_error(28)).context(format!("at {step}"))
    }

    /// Whether `err` is a simulated crash.
    pub(crate) fn is_crash(err: &anyhow::Error) -> bool {
        err.chain().any(<dyn std::error::Error>::is::<Crash>)
    }
}
