//! `--infrastructure`: any text either parses into an Infrastructure whose values are safe to
//! put in a manifest, or is refused with a one-line error; it never panics. (Its platform is
//! one of the known ones by its type.)
#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    let parsed = ccm_render::inputs::infrastructure::parse(text, common::path());
    if let Some(infra) = common::check(parsed) {
        if !infra.infrastructure_name.is_empty() {
            common::assert_script_safe("infrastructure name", &infra.infrastructure_name);
        }
    }
});
