//! `--proxy`: every value accepted is a URL or a no-proxy list that cannot break a manifest.
#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    if let Some(proxy) = common::check(ccm_render::inputs::proxy::parse(text, common::path())) {
        for env in [&proxy.status, &proxy.spec] {
            for (name, value) in env.variables() {
                assert!(!value.chars().any(char::is_control), "{name}={value:?}");
                // A no-proxy list may have blanks around its entries, as the installer's
                // validation and Go's httpproxy allow (each entry is trimmed); never inside one.
                // The URLs have none at all.
                let blank_inside = if name == "NO_PROXY" {
                    value.split(',').any(|entry| entry.trim_matches(' ').contains(' '))
                } else {
                    value.contains(' ')
                };
                assert!(!blank_inside, "{name}={value:?}");
            }
        }
    }
});
