//! The one privilege the container image lends the binary: `CAP_DAC_OVERRIDE`, so that the
//! image's non-root default user can write into the folder it is given at `/assets`, which it
//! does not own (`podman run --volume "$PWD:/assets:z" IMAGE render … --dest-dir /assets/out`).
//!
//! `scripts/image` sets it as a *permitted* file capability only (`cap_dac_override=p`), not an
//! effective one: a binary whose file capabilities have the effective bit fails to start at all
//! (EPERM from execve) under a runtime that drops the capability (`--cap-drop ALL`, a pod's
//! `drop: [ALL]`), while a permitted one is simply not granted there. The process raises it into
//! its effective set here, once, before anything reads or writes a file. Outside that image
//! (the host binary, `--user 0`, a dropped capability) there is nothing to raise and nothing
//! happens.

/// Makes a permitted but not yet effective `CAP_DAC_OVERRIDE` effective. Best effort: when it
/// cannot, the render goes on without it and a folder it may not write is reported as usual.
pub(crate) fn raise_file_capability() {
    #[cfg(target_os = "linux")]
    {
        use rustix::thread::{CapabilitySet, capabilities, set_capabilities};
        let Ok(mut sets) = capabilities(None) else {
            return;
        };
        if sets.permitted.contains(CapabilitySet::DAC_OVERRIDE)
            && !sets.effective.contains(CapabilitySet::DAC_OVERRIDE)
        {
            sets.effective.insert(CapabilitySet::DAC_OVERRIDE);
            let _ = set_capabilities(None, sets);
        }
    }
}
