//! `--infrastructure`: any text either parses into an Infrastructure whose values are safe to
//! put in a manifest, or is refused with a one-line error; it never panics.
#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    let parsed = ccm_render::inputs::infrastructure::parse(text, common::path());
    if let Some(infra) = common::check(parsed) {
        assert!(
            ccm_render::inputs::infrastructure::KNOWN_PLATFORMS.contains(&infra.platform.as_str())
        );
        if !infra.infrastructure_name.is_empty() {
            common::assert_script_safe("infrastructure name", &infra.infrastructure_name);
        }
    }
});
