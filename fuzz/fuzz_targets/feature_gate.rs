//! `--feature-gate`: the FeatureGate object; the `--feature-gates=` value it yields goes on a
//! script line, so it must hold only gate names, `=true` and commas.
#![no_main]

mod common;

use ccm_catalogue::features::FeatureGates;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    let object = ccm_render::inputs::object_from_text(
        text,
        common::path(),
        "FeatureGate",
        "config.openshift.io",
        &["v1"],
        &["cluster"],
    );
    let Some(object) = common::check(object) else {
        return;
    };
    if let Some(gates) = common::check(FeatureGates::from_manifest(Some(&object))) {
        let flag = gates.upstream_ccm_flag_value();
        assert!(
            flag.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"=,".contains(&b)),
            "{flag:?}"
        );
        for name in gates.enabled().iter().chain(gates.disabled()) {
            common::assert_script_safe("gate", name);
        }
    }
});
