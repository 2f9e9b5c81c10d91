//! `--apiserver`: the TLS profile; the flags it yields go on a script line.
#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    let object = ccm_render::inputs::object_from_text(
        text,
        common::path(),
        "APIServer",
        "config.openshift.io",
        &["v1"],
        &["cluster"],
    );
    let Some(object) = common::check(object) else {
        return;
    };
    if let Some(tls) = common::check(ccm_render::config::tls::from_apiserver(Some(&object))) {
        for flag in tls.flags() {
            common::assert_script_safe("TLS flag", &flag);
        }
    }
});
