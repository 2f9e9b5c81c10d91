//! `--cloud-config`: a ConfigMap or a raw cloud.conf, and CCCMO's choice of the key to read.
#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    let parsed = ccm_render::inputs::cloud_provider_config::parse(text.to_owned(), common::path());
    if let Some(source) = common::check(parsed) {
        for key in ["", "config", "cloud.conf"] {
            let _ = common::check(source.select(key, common::path()));
        }
    }
});
